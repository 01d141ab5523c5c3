package io.spindle.internal.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link WatchdogParkVsOperationWaitsTest} with both halves of the Dekker pair weakened: the watchdog announces with a
 * release store and no fence ({@link WeakenedWatchdogParkingNoFences}), and the placer publishes its operation with a
 * release store instead of a volatile RMW and does not fence. Must fail: "0, 2" (parked for good with an operation
 * pending, nobody woke it).
 */
@JCStressTest
@Description("WEAKENED (no fences): WatchdogParkVsOperationWaitsTest must see its forbidden outcome")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the watchdog saw the operation: it parks until the next look")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the placer saw PARKED and claimed it: the watchdog looks again")
@Outcome(id = "0, 2", expect = FORBIDDEN, desc = "LOST: parked for good with an operation pending, nobody woke it")
@Outcome(expect = FORBIDDEN, desc = "other")
@State
public class WeakenedWatchdogParkNoFencesTest {
    private static final VarHandle PENDING;

    static {
        try {
            PENDING = MethodHandles.lookup().findVarHandle(WeakenedWatchdogParkNoFencesTest.class, "pending",
                    int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final WeakenedWatchdogParkingNoFences parking = new WeakenedWatchdogParkingNoFences();
    @SuppressWarnings("unused") // through PENDING
    private int pending;

    @Actor
    public void watchdog() {
        int how = (int) PENDING.getAcquire(this) > 0 ? WatchdogParking.SWEEPING : WatchdogParking.PARKED;
        parking.announce(how);
        if (how == WatchdogParking.PARKED && (int) PENDING.getAcquire(this) > 0) {
            parking.parkedToSweeping();
        }
    }

    @Actor
    public void placer(II_Result r) {
        PENDING.setRelease(this, 1); // WEAKENED: no RMW, no fence before the load of the state
        r.r1 = parking.claimFromParkedForGood() ? 1 : 0;
    }

    @Arbiter
    public void after(II_Result r) {
        r.r2 = parking.state();
    }
}
