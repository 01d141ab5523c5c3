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
 * {@link WorkerSleepState} alone: two wakers claim an owner that is BLOCKED (J2: exactly one waker takes the sleeping
 * count; {@link WorkerSleepStateRig}). The owner registered and moved to BLOCKED when the state was built; it does not
 * run (jcstress runs two actors on two CPUs), so the winner's unblock only leaves a spare permit. Forbidden: both
 * claim it (the count is taken twice: -1), neither does, or the word does not end AWAKE.
 *
 * <p>r1, r2: each waker's claim (0 nothing to claim, 2 claimed BLOCKED); r3: the sleeping count at the end; r4: the
 * state word at the end (0 AWAKE).
 */
@JCStressTest
@Description("WorkerSleepState: two wakers claim a BLOCKED owner (J2)")
@Outcome(id = "2, 0, 0, 0", expect = ACCEPTABLE, desc = "waker 1 claimed it, took the count; waker 2 too late")
@Outcome(id = "0, 2, 0, 0", expect = ACCEPTABLE, desc = "waker 2 claimed it, took the count; waker 1 too late")
@Outcome(expect = FORBIDDEN, desc = "claimed twice (count taken twice), or not at all, or not AWAKE at the end")
@State
public class WorkerSleepStateTwoClaimsBlockedTest {
    private final WorkerSleepStateRig rig = WorkerSleepStateRig.real(2).registered(true);

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
