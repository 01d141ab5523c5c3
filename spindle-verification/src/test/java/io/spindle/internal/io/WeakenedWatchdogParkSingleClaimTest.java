package io.spindle.internal.io;

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
 * {@link WatchdogParkVsOwnerBusyTest} on {@link WeakenedWatchdogParkingSingleClaim} (a claim tries one CAS and gives
 * up when it fails). Must fail: "0, 1" (the watchdog parks until its next look while the owner is busy, unclaimed).
 */
@JCStressTest
@Description("WEAKENED (one CAS, no retry): WatchdogParkVsOwnerBusyTest must see its forbidden outcome")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the owner claimed the park: the watchdog looks again")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the watchdog saw the owner busy: it stays awake")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "LOST: parked until the next look, owner busy and unclaimed")
@Outcome(id = "0, 2", expect = FORBIDDEN, desc = "LOST: parked for good, owner busy and unclaimed")
@Outcome(expect = FORBIDDEN, desc = "other")
@State
public class WeakenedWatchdogParkSingleClaimTest {
    private final WeakenedWatchdogParkingSingleClaim parking = new WeakenedWatchdogParkingSingleClaim();
    private volatile boolean busy;             // the owner's running depth (WorkerThread.isBusy)
    private final boolean pending = true;      // an operation was placed after the watchdog's first look

    @Actor
    public void watchdog() {
        parking.announce(WatchdogParking.PARKED);
        if (busy) {
            parking.awake(); // lookOnce saw a busy owner: tick on
        } else if (pending) {
            parking.parkedToSweeping(); // false: claimed first
        }
    }

    @Actor
    public void owner(II_Result r) {
        busy = true;
        r.r1 = parking.claimFromAnyPark() ? 1 : 0;
    }

    @Arbiter
    public void after(II_Result r) {
        r.r2 = parking.state();
    }
}
