package io.spindle.internal.sleep;

import io.spindle.internal.event.WakeReason;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** TEST ONLY: {@link WorkerSleepStateRig} on {@link WeakenedWorkerSleepState} (its wake claims without a CAS). */
final class WeakenedWorkerSleepStateRig extends WorkerSleepStateRig {
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.privateLookupIn(WeakenedWorkerSleepState.class, MethodHandles.lookup())
                    .findVarHandle(WeakenedWorkerSleepState.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

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
