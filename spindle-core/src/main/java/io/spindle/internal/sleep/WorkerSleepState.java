package io.spindle.internal.sleep;

import io.spindle.internal.event.WakeReason;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One worker's sleep state for JOBS_EVENT_COUNTER: a state word that arbitrates between the sleeper and its wakers
 * (J2, J6 in this package's {@code package-info.java}), over a {@link Blocker} that does the blocking. Padded so that
 * waking one worker does not disturb the cache line of its neighbour's state.
 *
 * <pre>
 *   AWAKE --owner: prepare()--> PREPARING --owner: tryBlock()--> BLOCKED --waker: wake()--> WAKING --waker--> AWAKE
 *                                   |                                                                         ^
 *                                   +--waker: wake()--> NOTIFIED --owner: endSequence()-----------------------+
 *                 (the owner's endSequence() also leaves PREPARING; a sleep step that threw leaves BLOCKED itself)
 * </pre>
 *
 * Only the owner leaves AWAKE, PREPARING (to BLOCKED) and NOTIFIED; only a waker's CAS leaves BLOCKED, except the
 * owner's take-back after its blocking threw; only that waker leaves WAKING. So exactly one thread acts on each
 * registration: the waker that moved BLOCKED to WAKING takes the sleeping count (J2), and a claim in PREPARING leaves
 * the count to the owner, which will not block.
 */
final class WorkerSleepState {
    /** Not in a sleep sequence (searching, running a job, or between the steps of its idle loop). */
    static final int AWAKE = 0;
    /** In a sleep sequence, not yet blocked: the owner may be registering; a waker's claim makes it not block. */
    static final int PREPARING = 1;
    /** A waker claimed the owner while it was PREPARING: the owner will not block, and keeps its own count. */
    static final int NOTIFIED = 2;
    /** Blocked, or about to call {@link Blocker#block()}: the sleeping count belongs to whichever waker claims it. */
    static final int BLOCKED = 3;
    /** A waker claimed the owner from BLOCKED and is finishing the wake (count, record, unblock). */
    static final int WAKING = 4;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(WorkerSleepState.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    /** The arbitration word; every access is volatile or a CAS: J6 needs its order with the counters' (J3). */
    private volatile int state = AWAKE;
    private final ParkingBlocker blocker = new ParkingBlocker();
    /**
     * Written by the waker that moved BLOCKED to WAKING, before its volatile store of AWAKE; read by the owner after it
     * saw AWAKE (that store publishes them). Nobody else writes them until the owner blocks again. For the owner's
     * WorkerWoken event.
     */
    WakeReason wokenFor;
    Thread wokenBy;
    /** The owner's sleep statistics (their own padding keeps the owner's counting off a waker's line). */
    final SleepCounts counts = new SleepCounts();
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;

    // --- the owner --------------------------------------------------------------------------------------------------

    /**
     * Owner, first step of a sleep sequence, before anything a waker could act on (the latch's SLEEPING, the sleeping
     * count): from here a waker that saw either finds this worker PREPARING or BLOCKED, never AWAKE (J6).
     *
     * @return false if an earlier sequence that threw left the word behind (BLOCKED or WAKING after a failed block;
     *         PREPARING or NOTIFIED after a step that threw before its {@code finally} could end the sequence): call
     *         {@link #settleEarlierSequence()} and search again instead of sleeping
     */
    boolean prepare() {
        blocker.bind(Thread.currentThread());
        // volatile CAS, not a store: it must not overwrite a registration an earlier sequence left to a waker (J2);
        // ordered before the latch CAS and the registration CAS that follow (J6)
        return STATE.compareAndSet(this, AWAKE, PREPARING);
    }

    /**
     * Owner, when {@link #prepare()} failed: ends the sequence an earlier failure left behind. PREPARING or NOTIFIED
     * are the owner's own to leave; BLOCKED it takes back unless a waker claims it first; WAKING it waits out (the
     * waker is between two of its steps).
     *
     * @return true if the owner took BLOCKED back, so the earlier registration's sleeping count is its to undo
     */
    boolean settleEarlierSequence() {
        while (true) {
            int s = state; // volatile read
            if (s == AWAKE) {
                return false; // a waker took the count and let us go
            }
            if (s == PREPARING || s == NOTIFIED) {
                state = AWAKE; // volatile store: only the owner leaves these (a concurrent claim is overwritten)
                return false;
            }
            if (s == BLOCKED && STATE.compareAndSet(this, BLOCKED, AWAKE)) {
                return true;
            }
            Thread.onSpinWait(); // WAKING
        }
    }

    /**
     * Owner, registered and past the final check (J5): PREPARING to BLOCKED, after which the sleeping count is a
     * waker's to take (J2). No call after the CAS: the caller learns from the return alone whose the count is.
     *
     * @return false if a waker claimed this worker meanwhile (NOTIFIED): do not block, keep the count
     */
    boolean tryBlock() {
        return STATE.compareAndSet(this, PREPARING, BLOCKED); // volatile CAS (J6)
    }

    /**
     * Owner, having moved to BLOCKED: blocks until a waker has finished waking it (AWAKE). Spurious returns, and the
     * returns of an interrupted thread, re-check; the interrupt status is kept for the caller. If blocking throws (a
     * stack overflow entering the park), the owner takes its registration back when no waker has claimed it yet, or
     * waits out the waker that has.
     *
     * @return true if woken by a waker (it took the count); false if the owner took BLOCKED back itself after a
     *         failure, so the sleeping count is the owner's to undo
     */
    boolean blockUntilWoken() {
        boolean interrupted = false;
        boolean failed = false;
        boolean counted = false;
        try {
            while (true) {
                try {
                    int s = state; // volatile read: AWAKE is the waker's release of wokenFor/wokenBy
                    if (s == AWAKE) {
                        if (!failed) {
                            counts.countWakeup();
                        }
                        return true;
                    }
                    if (failed) {
                        if (s == BLOCKED && STATE.compareAndSet(this, BLOCKED, AWAKE)) {
                            return false; // a step threw and no waker has us: the count is ours again (J2's exception)
                        }
                        Thread.onSpinWait(); // WAKING: the waker is between two of its steps
                        continue;
                    }
                    if (!counted) {
                        counts.countSleep(); // only a worker that reached BLOCKED slept (a claimed PREPARING did not)
                        counted = true;
                    }
                    // BLOCKED: wait for a waker. WAKING: the waker unblocks us after its store of AWAKE, so blocking is
                    // safe and costs no spinning while the waker is descheduled (this box has 2 cores).
                    blocker.block();
                    if (Thread.interrupted()) {
                        interrupted = true; // a pending interrupt would make every block() return at once
                    }
                } catch (VirtualMachineError blockingFailed) {
                    failed = true; // the next round takes BLOCKED back or waits out the waker; no call in a catch
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt(); // keep the status, as awaitUninterruptibly does
            }
        }
    }

    /**
     * Owner, leaving a sleep sequence: from PREPARING or NOTIFIED (it did not block) back to AWAKE. A claim that came
     * meanwhile needs nothing more: the owner is awake and searches again, which is all the claim asked. BLOCKED and
     * WAKING are left alone: only a step that threw leaves them here, and the next {@link #prepare()} settles them.
     */
    void endSequence() {
        int s = state; // volatile read
        if (s == PREPARING || s == NOTIFIED) {
            state = AWAKE; // volatile store; only the owner leaves these two (a waker's PREPARING claim is overwritten)
        }
    }

    // --- wakers -----------------------------------------------------------------------------------------------------

    /** The outcome of {@link #claim()}. */
    static final int NOT_CLAIMED = 0;
    static final int CLAIMED_PREPARING = 1;
    static final int CLAIMED_BLOCKED = 2;

    /**
     * Waker: claims the owner if it is in a sleep sequence. A claim from PREPARING (to NOTIFIED) makes the owner not
     * block, and it keeps its own count; a claim from BLOCKED (to WAKING) makes the caller the one waker of this
     * registration: it must take the count, then call {@link #letGo} and {@link #unblockOwner()}, retrying each until
     * done (nobody else can finish this wake-up).
     */
    int claim() {
        return claim(false);
    }

    /**
     * @param blockedOnly claim only a BLOCKED owner: a waker with several workers to choose from wakes the blocked ones
     *                    first, because a PREPARING one may not be registered yet (it is then counted as awake and
     *                    idle, and claiming it would leave a sleeper asleep for a post that needed it)
     */
    int claim(boolean blockedOnly) {
        while (true) {
            int s = state; // volatile read (J6): after the caller's read of the counters in their total order
            if (s == BLOCKED) {
                if (STATE.compareAndSet(this, BLOCKED, WAKING)) {
                    return CLAIMED_BLOCKED;
                }
            } else if (s == PREPARING && !blockedOnly) {
                if (STATE.compareAndSet(this, PREPARING, NOTIFIED)) {
                    return CLAIMED_PREPARING;
                }
            } else {
                return NOT_CLAIMED; // AWAKE, or already claimed by another waker: awake or waking either way
            }
        }
    }

    /**
     * The waker that claimed BLOCKED, after taking the sleeping count: records who woke the owner and why, and lets it
     * go. The owner may return, and even sleep again, from the store on: the caller's {@link #unblockOwner()} comes
     * after it, so an owner that saw WAKING and blocked is unblocked too (a permit left for a later sleep only makes
     * that one return spuriously and re-check, or a park in the job the owner runs next: every
     * {@code java.util.concurrent} wait re-checks its condition after a park returns). No call after the store: a caller retrying a failed step knows from
     * this method's return that the store was made.
     */
    void letGo(WakeReason why) {
        Thread waker = Thread.currentThread();
        wokenFor = why; // plain: published by the volatile store below
        wokenBy = waker;
        state = AWAKE; // volatile store: the owner's loop returns once it reads it
    }

    /** The waker that called {@link #letGo}: makes the owner's block return. */
    void unblockOwner() {
        blocker.unblock();
    }

    // --- diagnostics ------------------------------------------------------------------------------------------------

    /** Whether the owner is blocked with nobody waking it yet (tests: a registration only a waker can remove). */
    boolean isBlockedUnclaimed() {
        return state == BLOCKED;
    }
}
