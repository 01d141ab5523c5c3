package io.spindle.internal.sleep;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The JOBS_EVENT_COUNTER protocol's shared state: three counters packed into one 64-bit word so that a single
 * atomic operation reads or changes them together (see {@code package-info}, "The counters").
 *
 * <pre>
 *   bits 63..32  jobs event counter (JEC)   even = sleepy (no work posted since a worker got sleepy), odd = active
 *   bits 31..16  inactive threads           idle or sleeping
 *   bits 15..0   sleeping threads           blocked, registered by themselves, removed by their waker
 * </pre>
 *
 * <p>Every access is sequentially consistent (volatile loads, CAS and getAndAdd): the protocol's proof needs the
 * counters to take part in one total order with the two fences (invariant J3 in {@code package-info}).
 *
 * <p>Field arithmetic never carries into the next field: inactive and sleeping are each at most
 * {@code ThreadPool.MAX_THREADS = 0xFFFF}, and sleeping &lt;= inactive; the JEC lives in the top bits, so its
 * overflow falls off the word (roll-over, which the protocol tolerates; invariant J4).
 */
public final class JecCounters implements SleepingCount {
    public static final int THREADS_BITS = 16;
    public static final long THREADS_MAX = (1L << THREADS_BITS) - 1;
    static final int SLEEPING_SHIFT = 0;
    static final int INACTIVE_SHIFT = THREADS_BITS;
    static final int JEC_SHIFT = 2 * THREADS_BITS;
    static final long ONE_SLEEPING = 1L << SLEEPING_SHIFT;
    static final long ONE_INACTIVE = 1L << INACTIVE_SHIFT;
    static final long ONE_JEC = 1L << JEC_SHIFT;

    private static final VarHandle WORD;

    static {
        try {
            WORD = MethodHandles.lookup().findVarHandle(JecCounters.class, "word", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // Padded: every worker reads this word on every push, and writes it on every idle/active transition.
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    private volatile long word;
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;

    public JecCounters() {}

    /** For tests: starts from a given word. */
    JecCounters(long initial) {
        this.word = initial;
    }

    // --- field accessors on a word ----------------------------------------------------------------------------------

    public static int sleepingThreads(long word) {
        return (int) ((word >>> SLEEPING_SHIFT) & THREADS_MAX);
    }

    public static int inactiveThreads(long word) {
        return (int) ((word >>> INACTIVE_SHIFT) & THREADS_MAX);
    }

    /** Idle threads that are not asleep: they will find new work without being woken. */
    public static int awakeButIdleThreads(long word) {
        return Math.max(0, inactiveThreads(word) - sleepingThreads(word));
    }

    /** The JEC as an unsigned 32-bit value in an int. */
    public static int jobsEventCounter(long word) {
        return (int) (word >>> JEC_SHIFT);
    }

    public static boolean isSleepy(int jec) {
        return (jec & 1) == 0;
    }

    public static boolean isActive(int jec) {
        return (jec & 1) != 0;
    }

    // --- atomic operations ------------------------------------------------------------------------------------------

    /** @return the current word (volatile load: sequentially consistent, J3) */
    public long load() {
        return (long) WORD.getVolatile(this);
    }

    /** A worker starts looking for work. getAndAdd is SC (J3). */
    public void addInactiveThread() {
        WORD.getAndAdd(this, ONE_INACTIVE);
    }

    /**
     * A worker leaves the idle state (it found work, or its latch was set) and stops being inactive.
     *
     * @return the number of sleeping threads in the word before the decrement (the cascade wakes some of them)
     */
    public int subInactiveThread() {
        long old = (long) WORD.getAndAdd(this, -ONE_INACTIVE); // SC (J3)
        // No method call after the atomic step, not even a helper: a stack overflow there would throw with the step
        // done, and the caller's rollback or retry would do it twice (E1/E4 in the registry's package-info).
        assert ((old >>> INACTIVE_SHIFT) & THREADS_MAX) > 0 : "inactive underflow: " + Long.toHexString(old);
        return (int) ((old >>> SLEEPING_SHIFT) & THREADS_MAX);
    }

    /** The waker of a sleeping thread removes it from the count (J2: the waker, not the sleeper). */
    @Override
    public void subSleepingThread() {
        long old = (long) WORD.getAndAdd(this, -ONE_SLEEPING); // SC (J3)
        assert ((old >>> SLEEPING_SHIFT) & THREADS_MAX) > 0 : "sleeping underflow: " + Long.toHexString(old); // no call
    }

    /**
     * Registers one more sleeping thread if the word is still {@code expected} (the sleeper's JEC check and its
     * registration are one atomic step: J1).
     *
     * @return whether the CAS succeeded
     */
    public boolean tryAddSleepingThread(long expected) {
        assert sleepingThreads(expected) < THREADS_MAX : "sleeping overflow";
        return WORD.compareAndSet(this, expected, expected + ONE_SLEEPING); // SC CAS (J3)
    }

    /**
     * Posting work: turns an even (sleepy) JEC odd (active).
     *
     * @return the word after the operation (the value the poster's wake decision is based on)
     */
    public long incrementJecIfSleepy() {
        while (true) {
            long old = load();
            if (isActive(jobsEventCounter(old))) {
                return old;
            }
            long updated = old + ONE_JEC; // carry out of bit 63 is dropped: JEC roll-over (J4)
            if (WORD.compareAndSet(this, old, updated)) { // SC CAS (J3)
                return updated;
            }
        }
    }

    /**
     * Getting sleepy: turns an odd (active) JEC even (sleepy).
     *
     * @return the word after the operation; its JEC is the value the sleeper remembers
     */
    public long incrementJecIfActive() {
        while (true) {
            long old = load();
            if (isSleepy(jobsEventCounter(old))) {
                return old;
            }
            long updated = old + ONE_JEC;
            if (WORD.compareAndSet(this, old, updated)) { // SC CAS (J3)
                return updated;
            }
        }
    }

    @Override
    public String toString() {
        return describe(load());
    }

    public static String describe(long word) {
        return "JecCounters[jec=" + Integer.toUnsignedString(jobsEventCounter(word)) + ", inactive="
                + inactiveThreads(word) + ", sleeping=" + sleepingThreads(word) + "]";
    }
}
