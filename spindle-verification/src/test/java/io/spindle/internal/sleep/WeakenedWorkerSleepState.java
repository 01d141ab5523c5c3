package io.spindle.internal.sleep;

import io.spindle.internal.event.WakeReason;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * TEST ONLY, NEVER IN THE LIBRARY: a copy of {@link WorkerSleepState} whose {@link #claim()} is weakened: a volatile
 * read of the word followed by a volatile store of the claimed state, instead of a CAS. Two wakers can then both claim
 * the owner (both take the sleeping count: J2 broken), and a waker that read PREPARING can overwrite the owner's
 * BLOCKED with NOTIFIED, stranding it blocked with nobody to wake it (J6 broken). Everything else is as in
 * WorkerSleepState (its constants have the same values). For {@code WeakenedWorkerSleepState*Test}, which must fail.
 */
final class WeakenedWorkerSleepState {
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
            STATE = MethodHandles.lookup().findVarHandle(WeakenedWorkerSleepState.class, "state", int.class);
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
     * @return false if an earlier sequence whose blocking step threw left this worker BLOCKED or WAKING: call
     *         {@link #settleEarlierSequence()} and search again instead of sleeping
     */
    boolean prepare() {
        blocker.bind(Thread.currentThread());
        // volatile CAS, not a store: it must not overwrite a registration an earlier sequence left to a waker (J2);
        // ordered before the latch CAS and the registration CAS that follow (J6)
        return STATE.compareAndSet(this, AWAKE, PREPARING);
    }

    /**
     * Owner, when {@link #prepare()} failed: waits out a waker that is finishing, or takes BLOCKED back itself.
     *
     * @return true if the owner took BLOCKED back, so the earlier registration's sleeping count is its to undo
     */
    boolean settleEarlierSequence() {
        while (true) {
            int s = state; // volatile read
            if (s == AWAKE) {
                return false; // a waker took the count and let us go
            }
            if (s == BLOCKED && STATE.compareAndSet(this, BLOCKED, AWAKE)) {
                return true;
            }
            Thread.onSpinWait(); // WAKING: the waker is between two of its steps
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
        int s = state; // volatile read
        if (s == BLOCKED) {
            state = WAKING; // WEAKENED: a volatile store, not a CAS: another waker may have claimed it meanwhile
            return CLAIMED_BLOCKED;
        } else if (s == PREPARING) {
            state = NOTIFIED; // WEAKENED: may overwrite the owner's BLOCKED (its tryBlock came in between)
            return CLAIMED_PREPARING;
        }
        return NOT_CLAIMED;
    }

    /**
     * The waker that claimed BLOCKED, after taking the sleeping count: records who woke the owner and why, and lets it
     * go. The owner may return, and even sleep again, from the store on: the caller's {@link #unblockOwner()} comes
     * after it, so an owner that saw WAKING and blocked is unblocked too (a permit left for a later sleep only makes
     * that one return spuriously and re-check). No call after the store: a caller retrying a failed step knows from
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

    /** Tests: a volatile read of the word. */
    int stateWord() {
        return state;
    }

    /** Tests, the rescue of a stranded owner only: a volatile store of AWAKE, as {@link #letGo} makes. */
    void forceAwake() {
        state = AWAKE;
    }
}
