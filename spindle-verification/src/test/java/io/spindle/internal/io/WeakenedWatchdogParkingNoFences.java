package io.spindle.internal.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A copy of {@link WatchdogParking} whose announce is a release store with no fence after it: the watchdog's later
 * loads of the pending counts may then pass its store (store-load reordering, which x86 does). Used with a placer that
 * also publishes its operation with a release store and no fence, for {@link WeakenedWatchdogParkNoFencesTest}.
 */
final class WeakenedWatchdogParkingNoFences {
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(WeakenedWatchdogParkingNoFences.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through STATE
    private int state;

    int state() {
        return (int) STATE.getAcquire(this);
    }

    void announce(int parking) {
        STATE.setRelease(this, parking); // WEAKENED: no full fence before the looks' loads
    }

    boolean parkedToSweeping() {
        return STATE.compareAndSet(this, WatchdogParking.PARKED, WatchdogParking.SWEEPING);
    }

    boolean claimFromParkedForGood() {
        return state() == WatchdogParking.PARKED
                && STATE.compareAndSet(this, WatchdogParking.PARKED, WatchdogParking.AWAKE);
    }
}
