package io.spindle.internal.sleep;

import io.spindle.internal.event.WakeReason;

/** TEST ONLY: {@link WorkerSleepStateOwnEventsRig} on {@link WeakenedOwnEventsWorkerSleepState} (take-back, no CAS). */
final class WeakenedOwnEventsRig extends WorkerSleepStateOwnEventsRig {
    private final WeakenedOwnEventsWorkerSleepState state = new WeakenedOwnEventsWorkerSleepState(blocker);

    static WorkerSleepStateOwnEventsRig weakened() {
        return new WeakenedOwnEventsRig();
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
    public int stateWord() {
        return state.stateWord();
    }
}
