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
 * IO8 on the real {@link WatchdogParking}: the watchdog decides how to park while an operation starts to wait. The
 * watchdog reads the pending count (0 at first), announces PARKED or SWEEPING, and, having announced PARKED, reads the
 * count again and moves to SWEEPING if an operation is pending now (IoWatchdog.run). The placer increments the count
 * (ChannelState.place: a volatile RMW), fences (PoolIoImpl.start) and claims a PARKED watchdog
 * ({@link WatchdogParking#claimFromParkedForGood}), which it would unpark. Forbidden: the watchdog stays PARKED with
 * an operation pending and nobody claimed it: it parks without a timeout, the operation's owner selects without one
 * (IO8), and a direct close of the channel is never noticed.
 *
 * <p>r1: the placer claimed the watchdog (1) or not (0); r2: the watchdog's state once both are done (0 AWAKE,
 * 1 SWEEPING, 2 PARKED).
 */
@JCStressTest
@Description("IoWatchdog IO8: parking for good versus an operation that starts to wait")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the watchdog saw the operation: it parks until the next look")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the placer saw PARKED and claimed it: the watchdog looks again")
@Outcome(id = "0, 2", expect = FORBIDDEN, desc = "LOST: parked for good with an operation pending, nobody woke it")
@Outcome(expect = FORBIDDEN, desc = "other")
@State
public class WatchdogParkVsOperationWaitsTest {
    private static final VarHandle PENDING;

    static {
        try {
            PENDING = MethodHandles.lookup().findVarHandle(WatchdogParkVsOperationWaitsTest.class, "pending",
                    int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final WatchdogParking parking = new WatchdogParking();
    private volatile int pending; // one poller's pendingOps

    @Actor
    public void watchdog() {
        int how = pending > 0 ? WatchdogParking.SWEEPING : WatchdogParking.PARKED;
        parking.announce(how);
        if (how == WatchdogParking.PARKED && pending > 0) {
            parking.parkedToSweeping(); // false: a placer claimed it first (AWAKE)
        }
    }

    @Actor
    public void placer(II_Result r) {
        PENDING.getAndAdd(this, 1); // IoPoller.operationPlaced
        VarHandle.fullFence();      // PoolIoImpl.start, before IoWatchdog.operationWaits
        r.r1 = parking.claimFromParkedForGood() ? 1 : 0;
    }

    @Arbiter
    public void after(II_Result r) {
        r.r2 = parking.state();
    }
}
