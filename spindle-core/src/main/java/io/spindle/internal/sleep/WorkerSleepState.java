package io.spindle.internal.sleep;

import io.spindle.internal.event.WakeReason;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One worker's blocking primitive: a lock, a condition and the {@code isBlocked} flag the lock guards (RFC 5,
 * "Mechanism for threads to go to sleep and be awoken"). Padded so that waking one worker does not disturb the
 * cache line of its neighbour's state.
 */
final class WorkerSleepState {
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    final ReentrantLock lock = new ReentrantLock();
    final Condition wakeUp = lock.newCondition();
    /** Guarded by {@link #lock}: true while the owner is blocked, until a waker clears it. */
    boolean isBlocked;
    /**
     * Guarded by {@link #lock}, for the owner's WorkerWoken event: who cleared {@code isBlocked} last, and why. Only
     * the waker that clears the flag writes them, so nobody writes them again before the owner next blocks: the owner
     * may read them after it woke, even after unlocking.
     */
    WakeReason wokenFor;
    Thread wokenBy;
    /** The owner's sleep statistics (their own padding keeps the owner's counting off a waker's line). */
    final SleepCounts counts = new SleepCounts();
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;

    /**
     * Owner, holding the lock, having set {@code isBlocked}: blocks until a waker clears it. Interrupts do not end the
     * wait. Returns, or throws, holding the lock.
     */
    void blockUntilWoken() {
        counts.countSleep();
        try {
            do {
                wakeUp.awaitUninterruptibly(); // a spurious return re-checks the flag
            } while (isBlocked);
        } catch (Throwable failure) {
            // An Error inside the wait (JDK 17's AQS allocates a node there): the caller's cleanup reads isBlocked and
            // takes its count back, under the lock, which the wait may have left released.
            if (!lock.isHeldByCurrentThread()) {
                lock.lock();
            }
            throw failure;
        }
        counts.countWakeup();
    }

    /**
     * Waker, holding {@link #lock}, having seen {@code isBlocked}: signals the owner and records who woke it and why
     * (JFR; plain writes under the lock, which the owner re-takes before it returns). The caller then does its
     * protocol's bookkeeping (such as decrementing the sleeping count) and clears {@code isBlocked} last: a step that
     * throws leaves the owner marked blocked, and a retry redoes them all (a second signal is harmless).
     */
    void signalLocked(WakeReason why) {
        wakeUp.signal();
        wokenFor = why;
        wokenBy = Thread.currentThread();
    }
}
