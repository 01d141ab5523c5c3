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
 * IO7 on the real {@link WatchdogParking}: a worker that holds IO starts a job while the watchdog parks. The watchdog
 * saw nothing pending at first, so it announces PARKED, looks for busy owners, and then, seeing an operation pending
 * after all, moves to SWEEPING (IoWatchdog.step). The owner makes itself busy and claims any park
 * ({@link WatchdogParking#claimFromAnyPark}, IoWatchdog.ownerBusy). Forbidden: the owner is busy, the watchdog did not
 * see it, and it stays parked (PARKED, or SWEEPING: until its next look, up to a second) with nobody to unpark it:
 * ready IO at that owner then waits for its whole job instead of a few milliseconds. A claim that read PARKED and
 * lost its CAS to the move to SWEEPING must claim again (a reviewer's finding).
 *
 * <p>r1: the owner claimed the watchdog (1) or not (0); r2: the watchdog's state once both are done (0 AWAKE,
 * 1 SWEEPING, 2 PARKED).
 */
@JCStressTest
@Description("IoWatchdog IO7: a busy owner's claim versus the watchdog's move from PARKED to SWEEPING")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the owner claimed the park: the watchdog looks again")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the watchdog saw the owner busy: it stays awake")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "LOST: parked until the next look, owner busy and unclaimed")
@Outcome(id = "0, 2", expect = FORBIDDEN, desc = "LOST: parked for good, owner busy and unclaimed")
@Outcome(expect = FORBIDDEN, desc = "other")
@State
public class WatchdogParkVsOwnerBusyTest {
    private final WatchdogParking parking = new WatchdogParking();
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
