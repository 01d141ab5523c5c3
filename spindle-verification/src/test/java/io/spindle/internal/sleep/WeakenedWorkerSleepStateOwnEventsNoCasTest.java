package io.spindle.internal.sleep;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link WorkerSleepStateOwnEventsTest} on {@link WeakenedOwnEventsWorkerSleepState} (the own-IO take-back is a read,
 * then a store, instead of a CAS). Must fail: "3, 2, -1, 0, 0, 1" (both undid the count).
 */
@JCStressTest
@Description("WEAKENED (own-IO take-back without CAS): WorkerSleepStateOwnEventsTest must see its forbidden outcome")
@Outcome(id = "0, 1, 0, 0, 0, 0", expect = ACCEPTABLE, desc = "claimed PREPARING: owner did not block, undid its count")
@Outcome(id = "1, 2, 0, 0, 0, 1", expect = ACCEPTABLE, desc = "claimed BLOCKED: the waker took the count, unblocked")
@Outcome(id = "3, 0, 0, 0, 0, 0", expect = ACCEPTABLE, desc = "own IO first: owner took BLOCKED back, undid its count")
@Outcome(expect = FORBIDDEN, desc = "count undone twice or never, owner not AWAKE, a second claim, or a lost unblock")
@State
public class WeakenedWorkerSleepStateOwnEventsNoCasTest {
    private final WorkerSleepStateOwnEventsRig rig = WeakenedOwnEventsRig.weakened().registered();

    @Actor
    public void owner(IIIIII_Result r) {
        r.r1 = rig.owner();
    }

    @Actor
    public void waker(IIIIII_Result r) {
        r.r2 = rig.waker();
    }

    @Arbiter
    public void check(IIIIII_Result r) {
        r.r5 = rig.waker();
        r.r3 = rig.sleepingCount();
        r.r4 = rig.stateWord();
        r.r6 = rig.unblocks();
    }
}
