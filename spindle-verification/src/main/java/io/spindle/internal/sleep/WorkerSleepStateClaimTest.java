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

/**
 * {@link WorkerSleepState} alone: the owner's {@code blockIfUnclaimed} versus a waker's {@code wake} (J2, J6 in the
 * sleep package-info; {@link WorkerSleepStateRig}). The owner is PREPARING and counted as sleeping (a count of 1 stands
 * for its registration; {@code ownsCount} is set). Whichever comes first, exactly one thread takes the count back: the
 * waker if it claimed BLOCKED (inside {@code wake}), the owner if the waker claimed it while PREPARING (then it does not
 * block, and undoes its own count); the owner ends AWAKE. The first claim always succeeds (the word stays PREPARING or
 * BLOCKED until claimed), so the owner never waits for ever. The arbiter then wakes once more, as a second waker of the
 * same registration would: it must find nothing to claim.
 *
 * <p>r1: the owner (1 claimed while PREPARING, 2 blocked and woken, 3 took BLOCKED back; +10 if its re-binding
 * prepare() found AWAKE); r2: claims that succeeded (the waker's and the arbiter's); r3: the sleeping count at the end;
 * r4: the state word at the end (0 AWAKE); r5: 1 if the owner was stranded blocked and had to be rescued.
 */
@JCStressTest
@Description("WorkerSleepState: owner's blockIfUnclaimed versus a waker's wake (J2, J6)")
@Outcome(id = "1, 1, 0, 0, 0", expect = ACCEPTABLE, desc = "claimed PREPARING: owner did not block, undid its count")
@Outcome(id = "2, 1, 0, 0, 0", expect = ACCEPTABLE, desc = "claimed BLOCKED: the waker took the count, woke the owner")
@Outcome(expect = FORBIDDEN, desc = "count not taken exactly once, two claims, owner not AWAKE, or owner stranded")
@State
public class WorkerSleepStateClaimTest {
    private final WorkerSleepStateRig rig = WorkerSleepStateRig.real(1).registered(false);

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
