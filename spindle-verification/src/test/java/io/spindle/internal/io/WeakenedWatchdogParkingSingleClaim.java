package io.spindle.internal.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A copy of {@link WatchdogParking} whose {@code claimFromAnyPark} reads the state once and tries one CAS (the first
 * version's): a claim that read PARKED loses its CAS when the watchdog moves to SWEEPING in between, and gives up.
 * For {@link WeakenedWatchdogParkSingleClaimTest}.
 */
final class WeakenedWatchdogParkingSingleClaim {
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(WeakenedWatchdogParkingSingleClaim.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int state;

    int state() {
        return state;
    }

    void announce(int parking) {
        STATE.setVolatile(this, parking);
        VarHandle.fullFence();
    }

    void awake() {
        STATE.setVolatile(this, WatchdogParking.AWAKE);
    }

    boolean parkedToSweeping() {
        return STATE.compareAndSet(this, WatchdogParking.PARKED, WatchdogParking.SWEEPING);
    }

    boolean claimFromAnyPark() {
        VarHandle.fullFence();
        int s = state;
        return s != WatchdogParking.AWAKE && STATE.compareAndSet(this, s, WatchdogParking.AWAKE); // WEAKENED: no retry
    }
}
