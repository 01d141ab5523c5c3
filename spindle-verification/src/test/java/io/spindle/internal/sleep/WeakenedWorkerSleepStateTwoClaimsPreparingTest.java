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
 * {@link WorkerSleepStateTwoClaimsPreparingTest} on {@link WeakenedWorkerSleepState} (its claim: a read, then a
 * store, no CAS). Must fail.
 */
@JCStressTest
@Description("WEAKENED (claim without CAS): WorkerSleepStateTwoClaimsPreparingTest must see its forbidden outcome")
@Outcome(id = "1, 0, 0, 0", expect = ACCEPTABLE, desc = "waker 1 claimed it; the owner did not block, undid its count")
@Outcome(id = "0, 1, 0, 0", expect = ACCEPTABLE, desc = "waker 2 claimed it; the owner did not block, undid its count")
@Outcome(expect = FORBIDDEN, desc = "claimed twice, or not at all, or not AWAKE at the end")
@State
public class WeakenedWorkerSleepStateTwoClaimsPreparingTest {
    private final WorkerSleepStateRig rig = WeakenedWorkerSleepStateRig.weakened(2).registered(false);

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
        rig.ownerAfterTheWakers();
        r.r1 = rig.claim(0);
        r.r2 = rig.claim(1);
        r.r3 = rig.sleepingCount();
        r.r4 = rig.finalState();
    }
}
