package io.spindle.internal.sleep;

import io.spindle.internal.event.WakeReason;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * One jcstress sample of {@link WorkerSleepState}'s arbitration alone (J2, J6 in the sleep package-info), without a
 * protocol around it: one registration of the owner, stood for by a sleeping count of 1 in an {@link AtomicInteger},
 * and the wakers that race for it. Each step is the one {@code JecSleep} makes:
 * <ul>
 *   <li>the owner ({@link #owner()}), already PREPARING and counted ({@code ownsCount} set, as after the registration
 *       CAS): {@code blockIfUnclaimed} (NOT_BLOCKED: a waker claimed it while PREPARING; WOKEN; TOOK_BACK: only after
 *       a failed block), then {@code endSequence} and, last, the undo of its own count if {@code ownsCount} is still
 *       set, as {@code JecSleep.sleep}'s finally and {@code undoOwnCount};</li>
 *   <li>a waker ({@link #waker(int, boolean)}): {@code wake(count, why, false)}, as {@code JecSleep.wakeSpecificThread};
 *       from BLOCKED it takes the count itself, through a {@link SleepingCount} that decrements the rig's count.</li>
 * </ul>
 * jcstress runs no more actors than there are CPUs (two, on the CI machine), so a test races the owner against one
 * waker ({@link WorkerSleepStateClaimTest}: the arbiter then wakes once more, a waker that comes too late), or two
 * wakers against each other over an owner that is PREPARING or BLOCKED and does not run
 * ({@code WorkerSleepStateTwoClaims*Test}: the arbiter then plays the owner's remaining steps where it has any).
 *
 * <p><b>The thread the owner blocks.</b> {@code prepare()} binds the blocker to the calling thread, and jcstress builds
 * the states on whichever actor thread re-initialises them. So the owner actor calls {@code prepare()} once more
 * first: the bind is what it is for; its CAS must fail (the word is PREPARING or NOTIFIED, never AWAKE, since only the
 * owner leaves those), which the outcome records. In the two-waker tests nobody blocks: the owner was moved to BLOCKED
 * by the setup (the CAS {@code blockIfUnclaimed} starts with, without its block), and the waker that claims it unparks
 * the thread that built the state, which only leaves a spare permit (a later park returns early and re-checks, as
 * every user of {@code LockSupport.park} must).
 *
 * <p><b>Without hanging.</b> A weakened state word may strand the owner blocked with nobody to wake it. So the last
 * waker, once its own steps are done, waits until the owner has returned, or until the owner has reached its block
 * (its sleep statistic counts one: {@code blockIfUnclaimed} counts it after its CAS to BLOCKED, before it blocks) while
 * the word is not AWAKE: every waker is done, so nobody else will let it go. That needs no timing. It then records the
 * rescue (a forbidden outcome) and lets the owner go itself: the word to AWAKE, and an unpark of the owner's thread.
 *
 * <p>Subclasses adapt a state class: {@link #real(int)} the real one; the weakened copy in the test sources its own.
 */
public abstract class WorkerSleepStateRig {
    /** Owner outcome: a waker claimed it while PREPARING ({@code NOT_BLOCKED}); it did not block, undid its count. */
    public static final int OWNER_NOTIFIED = 1;
    /** Owner outcome: it blocked, and {@code blockIfUnclaimed} returned WOKEN (a waker, or the rescue, let it go). */
    public static final int OWNER_WOKEN = 2;
    /** Owner outcome: {@code blockIfUnclaimed} returned TOOK_BACK (only after a failed block; it undid its count). */
    public static final int OWNER_TOOK_BACK = 3;
    /** Added to the owner's outcome if its re-binding {@code prepare()} succeeded: the word was AWAKE. */
    public static final int OWNER_PREPARED_AGAIN = 10;

    private final AtomicInteger sleeping = new AtomicInteger();
    /** The wakers' step on the count (J2): {@code JecCounters.subSleepingThread} in the pool. */
    private final SleepingCount count = sleeping::decrementAndGet;
    private final AtomicInteger wakersDone = new AtomicInteger();
    /** What each waker's wake returned; written by that waker, read by the arbiter (jcstress orders them). */
    private final int[] claims = new int[2];
    private final int wakers;
    private volatile Thread ownerThread;
    private volatile boolean ownerDone;
    private volatile boolean rescued;

    /** @param wakers how many wakers race (the last one rescues a stranded owner) */
    protected WorkerSleepStateRig(int wakers) {
        this.wakers = wakers;
    }

    /** A rig on the real {@link WorkerSleepState}. */
    public static WorkerSleepStateRig real(int wakers) {
        return new Real(wakers);
    }

    /**
     * Sets the sample up as if the owner had registered: {@code prepare()} (PREPARING), a sleeping count of 1 and
     * {@code ownsCount}; with {@code blocked}, also the CAS to BLOCKED that {@code blockIfUnclaimed} starts with, and
     * its clearing of {@code ownsCount} (the count is a waker's to take), as if the owner were parked.
     *
     * @return this rig
     */
    public final WorkerSleepStateRig registered(boolean blocked) {
        if (!prepare()) {
            throw new IllegalStateException("a fresh state is not AWAKE");
        }
        sleeping.set(1);
        ownsCount(true);
        if (blocked) {
            if (!casWord(WorkerSleepState.PREPARING, WorkerSleepState.BLOCKED)) {
                throw new IllegalStateException("nobody claimed it, yet the CAS to BLOCKED failed");
            }
            ownsCount(false);
        }
        return this;
    }

    // --- the actors -------------------------------------------------------------------------------------------------

    /**
     * The owner, PREPARING and counted: the rest of {@code JecSleep.sleep} from {@code blockIfUnclaimed} on.
     *
     * @return OWNER_NOTIFIED, OWNER_WOKEN or OWNER_TOOK_BACK, plus OWNER_PREPARED_AGAIN if the re-bind prepared
     */
    public final int owner() {
        try {
            ownerThread = Thread.currentThread(); // for the rescue's unpark
            int code = prepare() ? OWNER_PREPARED_AGAIN : 0; // binds the blocker to this thread (see the class comment)
            int blocked = blockIfUnclaimed();
            if (blocked == WorkerSleepState.NOT_BLOCKED) {
                code += OWNER_NOTIFIED; // J6: claimed while PREPARING; the count stayed ours (ownsCount)
            } else if (blocked == WorkerSleepState.WOKEN) {
                code += OWNER_WOKEN; // J2: the waker took the count
            } else {
                code += OWNER_TOOK_BACK; // ownsCount set again
            }
            endSequence(); // as JecSleep.sleep's finally: PREPARING or NOTIFIED back to AWAKE
            undoOwnCount();
            return code;
        } finally {
            ownerDone = true;
        }
    }

    /** {@code JecSleep.undoOwnCount}: J2's exceptions (claimed while PREPARING, or took BLOCKED back). */
    private void undoOwnCount() {
        if (ownsCount()) {
            sleeping.decrementAndGet();
            ownsCount(false);
        }
    }

    /**
     * Waker {@code i}: {@code JecSleep.wakeSpecificThread} on this state. The last waker to finish then rescues a
     * stranded owner, if the rig has an owner actor.
     *
     * @param ownerRuns whether an owner actor runs (and may be blocked): false in the two-waker tests
     */
    public final void waker(int i, boolean ownerRuns) {
        claims[i] = wake(count, WakeReason.NEW_INJECTED_JOB);
        if (wakersDone.incrementAndGet() == wakers && ownerRuns) {
            rescueIfStranded();
        }
    }

    /** The last waker: waits until the owner returned, or reached its block while no waker will let it go (rescued). */
    private void rescueIfStranded() {
        while (!ownerDone) {
            Thread owner = ownerThread;
            if (owner != null && ownerSlept() && stateWord() != WorkerSleepState.AWAKE) {
                rescued = true;
                setWord(WorkerSleepState.AWAKE);
                LockSupport.unpark(owner);
                return;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * The arbiter, in the owner-versus-waker test: a waker that comes after both (a second waker of the same
     * registration): it must find nothing to claim. A claim of BLOCKED is finished by {@code wake} itself.
     */
    public final int lateClaim() {
        return wake(count, WakeReason.NEW_INJECTED_JOB);
    }

    /**
     * The arbiter, in the two-waker test over a PREPARING owner that did not run: the owner's remaining steps, which
     * must find it claimed ({@code blockIfUnclaimed}'s CAS fails, and it returns NOT_BLOCKED without blocking). If the
     * word is still PREPARING, that CAS would succeed and the owner would block with nobody left to wake it: the
     * arbiter makes the CAS alone (it must not block), and the word stays BLOCKED with the count taken by nobody (the
     * outcome shows it).
     */
    public final void ownerAfterTheWakers() {
        if (stateWord() == WorkerSleepState.PREPARING) {
            casWord(WorkerSleepState.PREPARING, WorkerSleepState.BLOCKED); // stranded: what blockIfUnclaimed would do
            ownsCount(false);
            return;
        }
        int blocked = blockIfUnclaimed(); // claimed: NOT_BLOCKED at once
        if (blocked != WorkerSleepState.NOT_BLOCKED) {
            throw new IllegalStateException("blockIfUnclaimed returned " + blocked + " over a claimed owner");
        }
        endSequence();
        undoOwnCount();
    }

    // --- the arbiter's view -----------------------------------------------------------------------------------------

    public final int claim(int i) {
        return claims[i];
    }

    /** How many wakes (of the wakers' and {@code late}) claimed the owner. */
    public final int successfulClaims(int late) {
        int n = late != WorkerSleepState.NOT_CLAIMED ? 1 : 0;
        for (int i = 0; i < wakers; i++) {
            n += claims[i] != WorkerSleepState.NOT_CLAIMED ? 1 : 0;
        }
        return n;
    }

    public final int sleepingCount() {
        return sleeping.get();
    }

    public final int finalState() {
        return stateWord();
    }

    public final int rescued() {
        return rescued ? 1 : 0;
    }

    // --- the state class under test (its constants must have WorkerSleepState's values) ------------------------------

    protected abstract boolean prepare();

    protected abstract int blockIfUnclaimed();

    protected abstract void endSequence();

    /** {@code wake(count, why, false)}: any claimable owner, as {@code wakeSpecificThread} for one worker. */
    protected abstract int wake(SleepingCount count, WakeReason why);

    /** The owner-only field {@code ownsCount}. */
    protected abstract boolean ownsCount();

    protected abstract void ownsCount(boolean owns);

    /** Whether the owner counted a sleep: it passed its CAS to BLOCKED and is blocking (or was let go). */
    protected abstract boolean ownerSlept();

    /** A volatile read of the word. */
    protected abstract int stateWord();

    /** Setup only: a CAS of the word. */
    protected abstract boolean casWord(int expect, int update);

    /** The rescue only: a volatile store of the word (AWAKE, as a waker's wake makes). */
    protected abstract void setWord(int value);

    private static final class Real extends WorkerSleepStateRig {
        private static final VarHandle STATE;

        static {
            try {
                STATE = MethodHandles.privateLookupIn(WorkerSleepState.class, MethodHandles.lookup())
                        .findVarHandle(WorkerSleepState.class, "state", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final WorkerSleepState state = new WorkerSleepState();

        Real(int wakers) {
            super(wakers);
        }

        @Override
        protected boolean prepare() {
            return state.prepare();
        }

        @Override
        protected int blockIfUnclaimed() {
            return state.blockIfUnclaimed();
        }

        @Override
        protected void endSequence() {
            state.endSequence();
        }

        @Override
        protected int wake(SleepingCount count, WakeReason why) {
            return state.wake(count, why, false);
        }

        @Override
        protected boolean ownsCount() {
            return state.ownsCount;
        }

        @Override
        protected void ownsCount(boolean owns) {
            state.ownsCount = owns;
        }

        @Override
        protected boolean ownerSlept() {
            return state.counts.sleeps() > 0;
        }

        @Override
        protected int stateWord() {
            return state.stateWord();
        }

        @Override
        protected boolean casWord(int expect, int update) {
            return STATE.compareAndSet(state, expect, update);
        }

        @Override
        protected void setWord(int value) {
            STATE.setVolatile(state, value);
        }
    }
}
