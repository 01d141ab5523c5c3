package io.spindle.internal.sleep;

import io.spindle.internal.event.WakeReason;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One jcstress sample of {@link WorkerSleepState}'s arbitration alone (J2, J6 in the sleep package-info), without a
 * protocol around it: one registration of the owner, stood for by a sleeping count of 1 in an {@link AtomicInteger},
 * and the wakers that race for it. Each step is the one {@code JecSleep} makes:
 * <ul>
 *   <li>the owner ({@link #owner()}), already PREPARING and counted: {@code tryBlock}; if that succeeded,
 *       {@code blockUntilWoken} (false: it took BLOCKED back, so it undoes its own count), else (a waker claimed it
 *       while PREPARING) it undoes its own count; then {@code endSequence}, as {@code JecSleep.sleep}'s finally;</li>
 *   <li>a waker ({@link #waker(int)}): {@code claim}; from BLOCKED it takes the count, {@code letGo} and
 *       {@code unblockOwner}, as {@code JecSleep.wakeSpecificThread} and {@code finishWake}.</li>
 * </ul>
 * jcstress runs no more actors than there are CPUs (two, on the CI machine), so a test races the owner against one
 * waker ({@link WorkerSleepStateClaimTest}: the arbiter then claims once more, a waker that comes too late), or two
 * wakers against each other over an owner that is PREPARING or BLOCKED and does not run
 * ({@code WorkerSleepStateTwoClaims*Test}: the arbiter then plays the owner's remaining steps where it has any).
 *
 * <p><b>The thread the owner blocks.</b> {@code prepare()} binds the blocker to the calling thread, and jcstress builds
 * the states on whichever actor thread re-initialises them. So the owner actor calls {@code prepare()} once more
 * first: the bind is what it is for; its CAS must fail (the word is PREPARING or NOTIFIED, never AWAKE, since only the
 * owner leaves those), which the outcome records. In the two-waker tests nobody blocks: the waker that claims BLOCKED
 * unparks the thread that built the state, which only leaves a spare permit (a later park returns early and
 * re-checks, as every user of {@code LockSupport.park} must).
 *
 * <p><b>Without hanging.</b> A weakened state word may strand the owner blocked with nobody to wake it. So the last
 * waker, once its own steps are done, waits until the owner has returned, or until the owner is blocking while the
 * word is not AWAKE: every waker is done, so nobody else will let it go. That needs no timing. It then records the
 * rescue (a forbidden outcome) and lets the owner go itself: the word to AWAKE, and an unblock.
 *
 * <p>Subclasses adapt a state class: {@link #real()} the real one; the weakened copies in the test sources theirs.
 */
public abstract class WorkerSleepStateRig {
    /** Owner outcome: a waker claimed it while PREPARING; it did not block and undid its own count. */
    public static final int OWNER_NOTIFIED = 1;
    /** Owner outcome: it blocked, and {@code blockUntilWoken} returned true (a waker, or the rescue, let it go). */
    public static final int OWNER_WOKEN = 2;
    /** Owner outcome: {@code blockUntilWoken} returned false (it took BLOCKED back: only after a failed step). */
    public static final int OWNER_TOOK_BACK = 3;
    /** Added to the owner's outcome if its re-binding {@code prepare()} succeeded: the word was AWAKE. */
    public static final int OWNER_PREPARED_AGAIN = 10;

    private final AtomicInteger sleeping = new AtomicInteger();
    private final AtomicInteger wakersDone = new AtomicInteger();
    /** What each waker's claim returned; written by that waker, read by the arbiter (jcstress orders them). */
    private final int[] claims = new int[2];
    private final int wakers;
    private volatile boolean ownerBlocking;
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
     * Sets the sample up as if the owner had registered: {@code prepare()} (PREPARING) and a sleeping count of 1; with
     * {@code blocked}, also {@code tryBlock()} (BLOCKED: the count is a waker's to take), as if the owner were parked.
     *
     * @return this rig
     */
    public final WorkerSleepStateRig registered(boolean blocked) {
        if (!prepare()) {
            throw new IllegalStateException("a fresh state is not AWAKE");
        }
        sleeping.set(1);
        if (blocked && !tryBlock()) {
            throw new IllegalStateException("nobody claimed it, yet tryBlock failed");
        }
        return this;
    }

    // --- the actors -------------------------------------------------------------------------------------------------

    /**
     * The owner, PREPARING and counted: the rest of {@code JecSleep.sleep} from {@code tryBlock} on.
     *
     * @return OWNER_NOTIFIED, OWNER_WOKEN or OWNER_TOOK_BACK, plus OWNER_PREPARED_AGAIN if the re-bind prepared
     */
    public final int owner() {
        try {
            int code = prepare() ? OWNER_PREPARED_AGAIN : 0; // binds the blocker to this thread (see the class comment)
            boolean countedAsSleeping = true;
            if (tryBlock()) {
                countedAsSleeping = false; // J2: from BLOCKED on the count is the claiming waker's
                ownerBlocking = true;
                countedAsSleeping = !blockUntilWoken();
                code += countedAsSleeping ? OWNER_TOOK_BACK : OWNER_WOKEN;
            } else {
                code += OWNER_NOTIFIED; // J6: claimed while PREPARING; the count stayed ours
            }
            if (countedAsSleeping) {
                sleeping.decrementAndGet(); // J2's one exception
            }
            endSequence();
            return code;
        } finally {
            ownerDone = true;
        }
    }

    /**
     * Waker {@code i}: {@code JecSleep.wakeSpecificThread} on this state. The last waker to finish then rescues a
     * stranded owner, if the rig has an owner actor.
     *
     * @param ownerRuns whether an owner actor runs (and may be blocked): false in the two-waker tests
     */
    public final void waker(int i, boolean ownerRuns) {
        int claim = claim();
        if (claim == WorkerSleepState.CLAIMED_BLOCKED) {
            sleeping.decrementAndGet(); // J2: the waker takes the count, before letting the owner go
            letGo(WakeReason.NEW_INJECTED_JOB);
            unblockOwner();
        }
        claims[i] = claim;
        if (wakersDone.incrementAndGet() == wakers && ownerRuns) {
            rescueIfStranded();
        }
    }

    /** The last waker: waits until the owner returned, or is blocking while no waker will let it go (rescued). */
    private void rescueIfStranded() {
        while (!ownerDone) {
            if (ownerBlocking && stateWord() != WorkerSleepState.AWAKE) {
                rescued = true;
                forceAwake();
                unblockOwner();
                return;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * The arbiter, in the owner-versus-waker test: a waker that comes after both (a second waker of the same
     * registration): it must find nothing to claim. Finishes a claim of BLOCKED as any waker does.
     */
    public final int lateClaim() {
        int claim = claim();
        if (claim == WorkerSleepState.CLAIMED_BLOCKED) {
            sleeping.decrementAndGet();
            letGo(WakeReason.NEW_INJECTED_JOB);
            unblockOwner();
        }
        return claim;
    }

    /**
     * The arbiter, in the two-waker test over a PREPARING owner that did not run: the owner's remaining steps, which
     * must find it claimed (tryBlock fails); if tryBlock succeeds nobody is left to wake it, and it stays BLOCKED and
     * counted (the outcome shows it).
     */
    public final void ownerAfterTheWakers() {
        if (!tryBlock()) {
            sleeping.decrementAndGet();
            endSequence();
        }
    }

    // --- the arbiter's view -----------------------------------------------------------------------------------------

    public final int claim(int i) {
        return claims[i];
    }

    /** How many claims (of the wakers' and {@code late}) succeeded. */
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

    // --- the state class under test ---------------------------------------------------------------------------------

    protected abstract boolean prepare();

    protected abstract boolean tryBlock();

    protected abstract boolean blockUntilWoken();

    protected abstract void endSequence();

    protected abstract int claim();

    protected abstract void letGo(WakeReason why);

    protected abstract void unblockOwner();

    /** A volatile read of the word (diagnostics only). */
    protected abstract int stateWord();

    /** The rescue only: a volatile store of AWAKE, as a waker's letGo makes. */
    protected abstract void forceAwake();

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
        protected boolean tryBlock() {
            return state.tryBlock();
        }

        @Override
        protected boolean blockUntilWoken() {
            return state.blockUntilWoken();
        }

        @Override
        protected void endSequence() {
            state.endSequence();
        }

        @Override
        protected int claim() {
            return state.claim();
        }

        @Override
        protected void letGo(WakeReason why) {
            state.letGo(why);
        }

        @Override
        protected void unblockOwner() {
            state.unblockOwner();
        }

        @Override
        protected int stateWord() {
            return (int) STATE.getVolatile(state);
        }

        @Override
        protected void forceAwake() {
            STATE.setVolatile(state, WorkerSleepState.AWAKE);
        }
    }
}
