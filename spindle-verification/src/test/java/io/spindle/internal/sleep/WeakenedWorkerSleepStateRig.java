package io.spindle.internal.sleep;

import io.spindle.internal.event.WakeReason;

/** TEST ONLY: {@link WorkerSleepStateRig} on {@link WeakenedWorkerSleepState} (its claim is not a CAS). */
final class WeakenedWorkerSleepStateRig extends WorkerSleepStateRig {
    private final WeakenedWorkerSleepState state = new WeakenedWorkerSleepState();

    private WeakenedWorkerSleepStateRig(int wakers) {
        super(wakers);
    }

    static WorkerSleepStateRig weakened(int wakers) {
        return new WeakenedWorkerSleepStateRig(wakers);
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
        return state.stateWord();
    }

    @Override
    protected void forceAwake() {
        state.forceAwake();
    }
}
