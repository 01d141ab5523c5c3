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
 * {@link WorkerSleepState} alone: two wakers claim an owner that is PREPARING (J6; {@link WorkerSleepStateRig}). The
 * owner registered when the state was built and does not run during the race; the arbiter then plays its remaining
 * steps (blockIfUnclaimed, which must return NOT_BLOCKED; endSequence; undo its own count). Exactly one claim may
 * succeed: a wake counts once (a second claim would make {@code wakeAnyThreads} count two wake-ups for one worker).
 * Forbidden: two claims, none (the owner would then block with nobody to wake it: the arbiter makes only the CAS to
 * BLOCKED, and the word stays BLOCKED and counted), or not AWAKE at the end.
 *
 * <p>r1, r2: each waker's claim (0 nothing to claim, 1 claimed PREPARING); r3: the sleeping count at the end; r4: the
 * state word at the end (0 AWAKE, 3 BLOCKED).
 */
@JCStressTest
@Description("WorkerSleepState: two wakers claim a PREPARING owner (J6)")
@Outcome(id = "1, 0, 0, 0", expect = ACCEPTABLE, desc = "waker 1 claimed it; the owner did not block, undid its count")
@Outcome(id = "0, 1, 0, 0", expect = ACCEPTABLE, desc = "waker 2 claimed it; the owner did not block, undid its count")
@Outcome(expect = FORBIDDEN, desc = "claimed twice, or not at all, or not AWAKE at the end")
@State
public class WorkerSleepStateTwoClaimsPreparingTest {
    private final WorkerSleepStateRig rig = WorkerSleepStateRig.real(2).registered(false);

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
