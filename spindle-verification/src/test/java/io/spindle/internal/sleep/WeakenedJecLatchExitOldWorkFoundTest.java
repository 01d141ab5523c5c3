package io.spindle.internal.sleep;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link JecLatchExitVsInjectTest} against {@link WeakenedJecSleep}: leaveIdle as the old workFound (a latch exit wakes
 * nobody; A4 removed). Must fail.
 */
@JCStressTest
@Description("WEAKENED (no hand-on at a latch exit): JecLatchExitVsInjectTest must see its forbidden outcome")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "W0's search took the job; W1 was woken anyway")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "W0's search took the job; W1 sleeps on, nothing waits")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "W0 left through its latch; the poster or W0's hand-on woke W1")
@Outcome(id = "1, 2", expect = FORBIDDEN, desc = "LOST WAKE-UP: W0 left through its latch, job stranded, W1 asleep")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class WeakenedJecLatchExitOldWorkFoundTest {
    private final JecLatchExitRig rig = WeakenedJecSleep.latchExitRig(WeakenedJecSleep.Weakening.OLD_LATCH_EXIT);

    @Actor
    public void poster(II_Result r) {
        r.r2 = rig.post();
    }

    @Actor
    public void idleWorker(II_Result r) {
        r.r1 = rig.w0();
    }
}
