package io.spindle.internal.sleep;

import io.spindle.internal.event.WakeReason;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One jcstress sample of J7 (the own-IO exit of {@link WorkerSleepState#blockIfUnclaimed()}): the three-way wake race
 * for JOBS_EVENT_COUNTER when a worker blocks in its IO poller. The owner is PREPARING and counted as sleeping (a
 * sleeping count of 1 stands for its registration, {@code ownsCount} set, as after {@code JecSleep}'s registration
 * CAS); its blocker is {@link ReadyIoBlocker}, whose {@code block()} returns at once and whose
 * {@code ownEventsReady()} is always true, as an {@code IoPoller} whose select finds the owner's own IO ready (the
 * kernel is the third party: it is always "ready" here, so the owner takes BLOCKED back as soon as it can). A waker
 * races it with {@code wake(count, why, false)}, as {@code JecSleep.wakeSpecificThread}.
 *
 * <p>Exactly one of them may undo the registration: the waker if its CAS moved BLOCKED to WAKING (J2), the owner if a
 * waker claimed it while PREPARING (NOT_BLOCKED) or if its own take-back CAS moved BLOCKED to AWAKE first (J7,
 * OWN_EVENTS). The owner's steps after {@code blockIfUnclaimed} are {@code JecSleep.sleep}'s: {@code endSequence},
 * then the undo of its own count if {@code ownsCount} is still set ({@code undoOwnCount}).
 *
 * <p>Nobody can be stranded: the blocker never blocks, so an owner that finds BLOCKED takes it back, and one that
 * finds WAKING spins until its waker stores AWAKE (every waker finishes). The weakened copy in the test sources
 * adapts its own state class ({@code WeakenedOwnEventsWorkerSleepState}).
 */
public abstract class WorkerSleepStateOwnEventsRig {
    private final AtomicInteger sleeping = new AtomicInteger();
    /** The wakers' step on the count (J2): {@code JecCounters.subSleepingThread} in the pool. */
    private final SleepingCount count = sleeping::decrementAndGet;
    /** The owner's blocker: own IO always ready. */
    protected final ReadyIoBlocker blocker = new ReadyIoBlocker();

    /** An {@code IoPoller} whose owner's own IO is ready: {@code block()} returns at once; unblocks are counted. */
    public static final class ReadyIoBlocker implements Blocker {
        private final AtomicInteger unblocks = new AtomicInteger();

        @Override
        public void block() {
            Thread.onSpinWait(); // a select that finds a ready key returns at once
        }

        @Override
        public void unblock() {
            unblocks.incrementAndGet();
        }

        @Override
        public boolean ownEventsReady() {
            return true;
        }

        public int unblocks() {
            return unblocks.get();
        }
    }

    /** A rig on the real {@link WorkerSleepState}. */
    public static WorkerSleepStateOwnEventsRig real() {
        return new Real();
    }

    /**
     * Sets the sample up as if the owner had registered: {@code prepare()} (PREPARING), a sleeping count of 1 and
     * {@code ownsCount}.
     *
     * @return this rig
     */
    public final WorkerSleepStateOwnEventsRig registered() {
        if (!prepare()) {
            throw new IllegalStateException("a fresh state is not AWAKE");
        }
        sleeping.set(1);
        ownsCount(true);
        return this;
    }

    /**
     * The owner, PREPARING and counted: {@code blockIfUnclaimed}, {@code endSequence}, {@code undoOwnCount}.
     *
     * @return what {@code blockIfUnclaimed} returned (NOT_BLOCKED 0, WOKEN 1, TOOK_BACK 2, OWN_EVENTS 3)
     */
    public final int owner() {
        int blocked = blockIfUnclaimed();
        endSequence();
        if (ownsCount()) { // JecSleep.undoOwnCount: J2's exceptions (claimed PREPARING, took BLOCKED back: J7)
            sleeping.decrementAndGet();
            ownsCount(false);
        }
        return blocked;
    }

    /** The waker: {@code wake(count, why, false)}. @return NOT_CLAIMED 0, CLAIMED_PREPARING 1, CLAIMED_BLOCKED 2 */
    public final int waker() {
        return wake(count, WakeReason.NEW_INJECTED_JOB);
    }

    public final int sleepingCount() {
        return sleeping.get();
    }

    public final int unblocks() {
        return blocker.unblocks();
    }

    // --- the state class under test (its constants must have WorkerSleepState's values) ------------------------------

    protected abstract boolean prepare();

    protected abstract int blockIfUnclaimed();

    protected abstract void endSequence();

    protected abstract int wake(SleepingCount count, WakeReason why);

    protected abstract boolean ownsCount();

    protected abstract void ownsCount(boolean owns);

    /** A volatile read of the word. */
    public abstract int stateWord();

    private static final class Real extends WorkerSleepStateOwnEventsRig {
        private final WorkerSleepState state = new WorkerSleepState(blocker);

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
        public int stateWord() {
            return state.stateWord();
        }
    }
}
