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
 * J7: the three-way wake race of JOBS_EVENT_COUNTER over a worker that blocks in its IO poller
 * ({@link WorkerSleepStateOwnEventsRig}): the owner's own IO is ready (its take-back CAS, BLOCKED to AWAKE) while a
 * waker claims it (BLOCKED to WAKING, or PREPARING to NOTIFIED). Exactly one of them undoes the registration, so the
 * sleeping count ends at 0: -1 would be a double decrement, 1 a registration nobody undid. The arbiter then wakes once
 * more, as a later waker of the same registration: it must find nothing to claim.
 *
 * <p>r1: blockIfUnclaimed's result (0 NOT_BLOCKED, 1 WOKEN, 3 OWN_EVENTS); r2: the waker's wake (0 NOT_CLAIMED, 1
 * CLAIMED_PREPARING, 2 CLAIMED_BLOCKED); r3: the sleeping count at the end; r4: the state word at the end (0 AWAKE);
 * r5: the late waker's wake (0); r6: unblocks delivered to the blocker.
 */
@JCStressTest
@Description("WorkerSleepState J7: owner's own-IO take-back versus a waker's claim: the count is undone exactly once")
@Outcome(id = "0, 1, 0, 0, 0, 0", expect = ACCEPTABLE, desc = "claimed PREPARING: owner did not block, undid its count")
@Outcome(id = "1, 2, 0, 0, 0, 1", expect = ACCEPTABLE, desc = "claimed BLOCKED: the waker took the count, unblocked")
@Outcome(id = "3, 0, 0, 0, 0, 0", expect = ACCEPTABLE, desc = "own IO first: owner took BLOCKED back, undid its count")
@Outcome(expect = FORBIDDEN, desc = "count undone twice or never, owner not AWAKE, a second claim, or a lost unblock")
@State
public class WorkerSleepStateOwnEventsTest {
    private final WorkerSleepStateOwnEventsRig rig = WorkerSleepStateOwnEventsRig.real().registered();

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
