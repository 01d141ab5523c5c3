package io.spindle.internal.sleep;

import io.spindle.internal.event.WakeReason;
import io.spindle.internal.job.Failures;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One worker's sleep state for JOBS_EVENT_COUNTER: a state word that arbitrates between the sleeper and its wakers
 * (J2, J6 in this package's {@code package-info.java}), over a {@link Blocker} that does the blocking. Padded so that
 * waking one worker does not disturb the cache line of its neighbour's state.
 *
 * <pre>
 *   AWAKE --owner: prepare()--> PREPARING --owner: blockIfUnclaimed()--> BLOCKED --waker: wake()--> WAKING --> AWAKE
 *                                   |                                                                         ^
 *                                   +--waker: wake()--> NOTIFIED --owner: endSequence()-----------------------+
 *          (endSequence() also leaves PREPARING; an owner whose block threw takes BLOCKED back to AWAKE itself)
 * </pre>
 *
 * Only the owner leaves AWAKE, PREPARING (to BLOCKED) and NOTIFIED; only a CAS leaves BLOCKED: a waker's, or the
 * owner's take-back after its blocking threw; only the waker that claimed WAKING leaves it. So exactly one thread acts
 * on each registration: the waker that moved BLOCKED to WAKING takes the sleeping count (J2), and a claim in PREPARING
 * leaves the count to the owner, which will not block.
 *
 * <p><b>Failures (E1..E5 in the registry's package-info).</b> A step that throws (a stack overflow at any call, even a
 * VarHandle's in the interpreter) must leave a state another attempt can finish. So each CAS that hands the count
 * over is followed by no call before the plain store that records it ({@link #ownsCount}, or the waker's undo of its
 * claim), the owner ends whatever an earlier failed sequence left behind before it starts the next, and the last
 * call of a wake-up (the unblock) is retried by the waker until done.
 */
final class WorkerSleepState {
    WorkerSleepState() {
        this(new ParkingBlocker());
    }

    /** @param blocker how the owner blocks: a {@link ParkingBlocker}, or its IO poller (docs/DESIGN.md §6) */
    WorkerSleepState(Blocker blocker) {
        this.blocker = blocker;
    }

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
        // Link the failure path's pause now: a call site's first execution resolves it, which with the stack exhausted
        // would itself throw (see Failures.pauseAfterRuntimeFailure).
        Failures.pauseAfterRuntimeFailure(0);
    }

    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    /** The arbitration word; every access is volatile or a CAS: J6 needs its order with the counters' (J3). */
    private volatile int state = AWAKE;
    private final Blocker blocker;
    /**
     * Written by the waker that moved BLOCKED to WAKING, before its volatile store of AWAKE; read by the owner after it
     * saw AWAKE (that store publishes them). Nobody else writes them until the owner blocks again. For the owner's
     * WorkerWoken event.
     */
    WakeReason wokenFor;
    Thread wokenBy;
    /**
     * Owner only: the sleeping count is the owner's to undo (J2's exceptions). Set right after the registration CAS or
     * a take-back CAS, cleared right after the CAS to BLOCKED or after the undo, each with no call in between; so a
     * sleep that threw before its undo leaves it set, and the next sleep undoes the count first.
     */
    boolean ownsCount;
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
        if (blocker instanceof ParkingBlocker) {
            ((ParkingBlocker) blocker).bind(Thread.currentThread()); // a poller binds its owner as it blocks
        }
        // volatile CAS, not a store: it must not overwrite a registration an earlier sequence left to a waker (J2);
        // ordered before the latch CAS and the registration CAS that follow (J6)
        return STATE.compareAndSet(this, AWAKE, PREPARING);
    }

    /**
     * Owner, when {@link #prepare()} failed: ends the sequence an earlier failure left behind. PREPARING and NOTIFIED
     * are the owner's own to leave; BLOCKED it takes back unless a waker claims it first (then {@link #ownsCount} is
     * set: the count is the owner's to undo); WAKING it waits out (the waker is between two of its steps).
     */
    void settleEarlierSequence() {
        while (true) {
            int s = state; // volatile read
            if (s == AWAKE) {
                return; // a waker took the count and let us go
            }
            if (s == PREPARING || s == NOTIFIED) {
                state = AWAKE; // volatile store: only the owner leaves these (a concurrent claim is overwritten)
                return;
            }
            if (s == BLOCKED && STATE.compareAndSet(this, BLOCKED, AWAKE)) {
                ownsCount = true; // no call since the CAS
                return;
            }
            Thread.onSpinWait(); // WAKING
        }
    }

    /** {@link #blockIfUnclaimed()}: a waker claimed the owner while it was PREPARING; it did not block. */
    static final int NOT_BLOCKED = 0;
    /** {@link #blockIfUnclaimed()}: the owner blocked and a waker woke it (the waker took the count). */
    static final int WOKEN = 1;
    /** {@link #blockIfUnclaimed()}: blocking threw and the owner took BLOCKED back ({@link #ownsCount} is set). */
    static final int TOOK_BACK = 2;
    /**
     * {@link #blockIfUnclaimed()}: the owner's own IO ended the sleep, with no waker, and the owner took BLOCKED back
     * ({@link #ownsCount} is set). J7: the kernel is the third party of the race, and exactly one of the owner's
     * take-back CAS and a waker's claim CAS leaves BLOCKED, so the count is undone exactly once.
     */
    static final int OWN_EVENTS = 3;

    /**
     * Owner, registered and past the final check (J5): PREPARING to BLOCKED, after which the count is a waker's to
     * take (J2), then blocks until a waker has let it go (AWAKE). The CAS and the block are in one frame, so no call
     * separates the hand-over from the try that takes it back if blocking throws. Spurious returns, and the returns of
     * an interrupted thread, re-check; the interrupt status is kept for the caller.
     *
     * @return NOT_BLOCKED (claimed while PREPARING: the count stays the owner's), WOKEN, TOOK_BACK, or OWN_EVENTS
     *         (J7: the owner's own IO ended the sleep and it took its count back)
     */
    int blockIfUnclaimed() {
        boolean interrupted = false;
        boolean failed = false;
        boolean counted = false;
        try {
            if (!STATE.compareAndSet(this, PREPARING, BLOCKED)) { // volatile CAS (J6)
                return NOT_BLOCKED; // NOTIFIED: the count stays ours (ownsCount)
            }
            ownsCount = false; // J2: from BLOCKED on the count is the claiming waker's; no call since the CAS
            while (true) {
                try {
                    int s = state; // volatile read: AWAKE is the waker's release of wokenFor/wokenBy
                    if (s == AWAKE) {
                        if (!failed) { // after a failure, statistics are skipped: counting again could throw again
                            if (!counted) {
                                counted = true; // a waker that finished before our first look: it was still a sleep
                                counts.countSleep();
                            }
                            counts.countWakeup();
                        }
                        return WOKEN;
                    }
                    if (failed) {
                        if (s == BLOCKED && STATE.compareAndSet(this, BLOCKED, AWAKE)) {
                            ownsCount = true; // a step threw and no waker has us: the count is ours again; no call
                            return TOOK_BACK;
                        }
                        Thread.onSpinWait(); // WAKING: the waker is between two of its steps
                        continue;
                    }
                    if (counted && blocker.ownEventsReady()) {
                        // J7: our own IO is ready and no waker came. Take BLOCKED back, as a failed block does; a
                        // waker that claims first (WAKING) took the count, and we wait for its AWAKE like any wake.
                        if (s == BLOCKED && STATE.compareAndSet(this, BLOCKED, AWAKE)) { // volatile CAS (J6, J7)
                            ownsCount = true; // no call since the CAS
                            try {
                                blocker.ownEventsEndedSleep(); // statistics: this sleep is no waker's wake-up
                            } catch (VirtualMachineError statisticsOnly) {
                                // a count skipped (E4 applies to the protocol, not to statistics): the outcome stands
                            }
                            return OWN_EVENTS;
                        }
                        if (s == WAKING) {
                            Thread.onSpinWait(); // the waker stores AWAKE next; blocking again would only return
                            continue;
                        }
                    }
                    if (!counted) {
                        counted = true;
                        counts.countSleep(); // only a worker that reached BLOCKED slept (a claimed PREPARING did not)
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
     * meanwhile needs nothing more: the owner is awake and searches again, which is all the claim asked; reading
     * NOTIFIED (the CAS's failure) orders the claiming poster's work before that search. BLOCKED and WAKING are left
     * alone: only a block that threw leaves them here, and the next {@link #prepare()} settles them.
     */
    void endSequence() {
        if (!STATE.compareAndSet(this, PREPARING, AWAKE) && state == NOTIFIED) { // volatile CAS, volatile read
            state = AWAKE; // volatile store; only the owner leaves NOTIFIED
        }
    }

    // --- wakers -----------------------------------------------------------------------------------------------------

    /** {@link #wake}: the owner was not in a sleep sequence, or another waker has it. */
    static final int NOT_CLAIMED = 0;
    /** {@link #wake}: claimed while PREPARING: the owner will search instead of blocking, and keeps its count. */
    static final int CLAIMED_PREPARING = 1;
    /** {@link #wake}: claimed while BLOCKED: the caller took the count and the owner was let go and unblocked. */
    static final int CLAIMED_BLOCKED = 2;

    /**
     * Waker: claims the owner if it is in a sleep sequence, and finishes the wake-up. From BLOCKED (to WAKING) the
     * caller is the one waker of this registration: it takes the count (J2: at once, so other posters see an
     * up-to-date count, and before letting the owner go, so it never sees its own count), records who woke it and
     * why, lets it go (AWAKE) and unblocks it. From PREPARING (to NOTIFIED) the owner will not block and keeps its
     * own count.
     *
     * <p>All in one frame (E4): until the count is taken, a throw undoes the claim with a plain store, so the caller's
     * retry, or any other waker, can still wake the owner; after it, no call until the store of AWAKE; only the
     * unblock, whose calls are shallower than the count's step, is retried here until done.
     *
     * @param blockedOnly claim only a BLOCKED owner: a waker with several workers to choose from wakes the blocked ones
     *                    first, because a PREPARING one may not be registered yet (it is then counted as awake and
     *                    idle, and claiming it would leave a sleeper asleep for a post that needed it)
     * @return NOT_CLAIMED, CLAIMED_PREPARING or CLAIMED_BLOCKED
     */
    int wake(SleepingCount count, WakeReason why, boolean blockedOnly) {
        Thread waker = Thread.currentThread(); // before the claim: a throw here changes nothing
        while (true) {
            int s = state; // volatile read (J6): after the caller's read of the counters in their total order
            if (s == BLOCKED) {
                if (STATE.compareAndSet(this, BLOCKED, WAKING)) {
                    break;
                }
            } else if (s == PREPARING && !blockedOnly) {
                if (STATE.compareAndSet(this, PREPARING, NOTIFIED)) {
                    return CLAIMED_PREPARING;
                }
            } else {
                return NOT_CLAIMED; // AWAKE, or claimed by another waker: awake or waking either way
            }
        }
        boolean counted = false;
        try {
            count.subSleepingThread(); // J2
            counted = true; // no call between the atomic step's return and this store
        } finally {
            if (!counted) {
                state = BLOCKED; // undo the claim: a volatile store, no call; the owner is still blocked and counted
            }
        }
        wokenFor = why; // plain: published by the volatile store below
        wokenBy = waker;
        state = AWAKE; // volatile store: from here the owner may return and even sleep again
        // The unblock comes after the store, so an owner that saw WAKING and blocked is unblocked too. A permit left
        // for a later sleep only makes that one return spuriously and re-check, and so does a park in the job the
        // owner runs next (every java.util.concurrent wait re-checks its condition after a park returns).
        boolean retrying = false;
        while (true) {
            try {
                if (retrying) {
                    Failures.pauseAfterRuntimeFailure(Failures.RUNTIME_FAILURE_BACKOFF_NANOS);
                }
                blocker.unblock();
                return CLAIMED_BLOCKED;
            } catch (VirtualMachineError exhaustion) { // only exhaustion is retried: a bug's exception is thrown
                retrying = true;
            }
        }
    }

    // --- diagnostics ------------------------------------------------------------------------------------------------

    /** Whether the owner is blocked with nobody waking it yet (tests: a registration only a waker can remove). */
    boolean isBlockedUnclaimed() {
        return state == BLOCKED;
    }

    /** The word itself, for tests that check where a sequence ended. */
    int stateWord() {
        return state;
    }
}
