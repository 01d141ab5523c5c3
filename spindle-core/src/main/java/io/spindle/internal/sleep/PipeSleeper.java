package io.spindle.internal.sleep;

import io.spindle.internal.event.WakeReason;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One worker's state in the HINT_PIPE protocol ({@link HintPipeSleep}): the thread to unpark, whether it is blocked
 * (eligible to watch the hint pipe, H6), its wake request for latch sets and broadcasts (H5), and whether it owes the
 * pipe a read (H2). Padded so that waking one worker does not disturb the cache line of its neighbour's state.
 */
final class PipeSleeper {
    private static final VarHandle THREAD;
    private static final VarHandle BLOCKED;
    private static final VarHandle WAKE_REQUESTED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            THREAD = l.findVarHandle(PipeSleeper.class, "thread", Thread.class);
            BLOCKED = l.findVarHandle(PipeSleeper.class, "blocked", boolean.class);
            WAKE_REQUESTED = l.findVarHandle(PipeSleeper.class, "wakeRequested", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    /** The thread that last went to sleep as this worker; read by wakers to unpark it. */
    private volatile Thread thread;
    /** Owner writes: true from just before its final check until it leaves the blocking loop (H5, H6). */
    private volatile boolean blocked;
    /** Wakers set, the owner clears: a latch it sleeps on was set, or a broadcast job waits for it (H5). */
    private volatile boolean wakeRequested;
    /**
     * Owner only: it is counted in {@code sleepers} or a hint is on its way for it, so it must read one hint before it
     * registers again (H2, the seed's "sleep request in flight").
     */
    boolean readInFlight;
    /**
     * For the owner's WorkerWoken event (JFR): why and by whom the last wake request was made. Wakers write them
     * plainly before {@link #requestWake()}, whose volatile store publishes them to the owner's
     * {@link #isWakeRequested()}. Two wakers racing may leave one's reason with the other's thread: diagnostics only,
     * never read by the protocol.
     */
    WakeReason wakeReason;
    Thread wakeRequester;
    /** Owner's statistics. */
    final SleepCounts counts = new SleepCounts();
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;

    /**
     * Owner, before it goes to sleep: wakers read the thread after they saw the owner's latch SLEEPING or
     * {@link #isBlocked()} true, both stored after this.
     */
    void publishThread(Thread t) {
        THREAD.setRelease(this, t); // release: ordered before the owner's volatile latch CAS and blocked store
    }

    Thread thread() {
        return (Thread) THREAD.getAcquire(this); // acquire: pairs with publishThread
    }

    void setBlocked(boolean value) {
        // volatile: H5 and H6 are Dekker arguments (store our flag, then load the other side's), which need SC.
        BLOCKED.setVolatile(this, value);
    }

    boolean isBlocked() {
        return (boolean) BLOCKED.getVolatile(this); // volatile: the other half of H5's and H6's Dekker pairs
    }

    /** Waker: asks the owner to leave (or not to enter) its blocking loop. */
    void requestWake() {
        WAKE_REQUESTED.setVolatile(this, true); // volatile: H5, stored before the waker loads the watcher
    }

    /** Owner, before it checks any reason to wake (latch, own queue): forgets requests about earlier sleeps. */
    void clearWakeRequest() {
        WAKE_REQUESTED.setVolatile(this, false); // volatile: ordered before the owner's checks that follow (H5)
    }

    /** Owner, in its blocking loop: was it asked to leave? (The next sleep clears the request.) */
    boolean isWakeRequested() {
        return (boolean) WAKE_REQUESTED.getVolatile(this); // volatile: H5's load, after the owner took its position
    }
}
