package io.spindle.internal.sleep;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * TEST ONLY, NEVER IN THE LIBRARY: {@link JecCounters} with its getAndAdd updates weakened into a volatile read
 * followed by a volatile write (not atomic: an update made in between is lost). The other operations are copies of
 * the real ones.
 */
final class WeakenedJecCounters {
    private static final VarHandle WORD;

    static {
        try {
            WORD = MethodHandles.lookup().findVarHandle(WeakenedJecCounters.class, "word", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile long word;

    WeakenedJecCounters(long initial) {
        word = initial;
    }

    long load() {
        return (long) WORD.getVolatile(this);
    }

    void addInactiveThread() {
        WORD.setVolatile(this, load() + JecCounters.ONE_INACTIVE); // WEAKENED: read-modify-write, not atomic
    }

    int subInactiveThread() {
        long old = load();
        WORD.setVolatile(this, old - JecCounters.ONE_INACTIVE);    // WEAKENED
        return Math.min(JecCounters.sleepingThreads(old), 2);
    }

    void subSleepingThread() {
        WORD.setVolatile(this, load() - JecCounters.ONE_SLEEPING); // WEAKENED
    }

    boolean tryAddSleepingThread(long expected) {
        return WORD.compareAndSet(this, expected, expected + JecCounters.ONE_SLEEPING);
    }

    long incrementJecIfSleepy() {
        while (true) {
            long old = load();
            if (JecCounters.isActive(JecCounters.jobsEventCounter(old))) {
                return old;
            }
            long updated = old + JecCounters.ONE_JEC;
            if (WORD.compareAndSet(this, old, updated)) {
                return updated;
            }
        }
    }

    long incrementJecIfActive() {
        while (true) {
            long old = load();
            if (JecCounters.isSleepy(JecCounters.jobsEventCounter(old))) {
                return old;
            }
            long updated = old + JecCounters.ONE_JEC;
            if (WORD.compareAndSet(this, old, updated)) {
                return updated;
            }
        }
    }
}
