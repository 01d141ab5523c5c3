package io.spindle.internal.sleep;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link WorkerSleepStateTwoClaimsBlockedTest} on {@link WeakenedWorkerSleepState} (its claim: a read, then a
 * store, no CAS). Must fail.
 */
@JCStressTest
@Description("WEAKENED (claim without CAS): WorkerSleepStateTwoClaimsBlockedTest must see its forbidden outcome")
@Outcome(id = "2, 0, 0, 0", expect = ACCEPTABLE, desc = "waker 1 claimed it, took the count; waker 2 too late")
@Outcome(id = "0, 2, 0, 0", expect = ACCEPTABLE, desc = "waker 2 claimed it, took the count; waker 1 too late")
@Outcome(expect = FORBIDDEN, desc = "claimed twice (count taken twice), or not at all, or not AWAKE at the end")
@State
public class WeakenedWorkerSleepStateTwoClaimsBlockedTest {
    private final WorkerSleepStateRig rig = WeakenedWorkerSleepStateRig.weakened(2).registered(true);

    @Actor
    public void waker1(IIII_Result r) {
        rig.waker(0, false);
    }

    @Actor
    public void waker2(IIII_Result r) {
        rig.waker(1, false);
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r1 = rig.claim(0);
        r.r2 = rig.claim(1);
        r.r3 = rig.sleepingCount();
        r.r4 = rig.finalState();
    }
}
