package io.spindle.internal.sleep;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/** {@link WorkerSleepStateClaimTest} on {@link WeakenedWorkerSleepState} (claim: a read, then a store). Must fail. */
@JCStressTest
@Description("WEAKENED (claim without CAS): WorkerSleepStateClaimTest must see its forbidden outcome")
@Outcome(id = "1, 1, 0, 0, 0", expect = ACCEPTABLE, desc = "claimed PREPARING: owner did not block, undid its count")
@Outcome(id = "2, 1, 0, 0, 0", expect = ACCEPTABLE, desc = "claimed BLOCKED: the waker took the count, woke the owner")
@Outcome(expect = FORBIDDEN, desc = "count not taken exactly once, two claims, owner not AWAKE, or owner stranded")
@State
public class WeakenedWorkerSleepStateClaimTest {
    private final WorkerSleepStateRig rig = WeakenedWorkerSleepStateRig.weakened(1).registered(false);

    @Actor
    public void owner(IIIII_Result r) {
        r.r1 = rig.owner();
    }

    @Actor
    public void waker(IIIII_Result r) {
        rig.waker(0, true);
    }

    @Arbiter
    public void check(IIIII_Result r) {
        r.r2 = rig.successfulClaims(rig.lateClaim());
        r.r3 = rig.sleepingCount();
        r.r4 = rig.finalState();
        r.r5 = rig.rescued();
    }
}
