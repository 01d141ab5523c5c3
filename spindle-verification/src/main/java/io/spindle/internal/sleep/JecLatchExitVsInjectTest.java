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
 * JEC: an idle worker leaving through its latch versus an injection that counted on it (A4 in the sleep
 * package-info; {@link LatchExitRig}, {@link JecLatchExitRig}). W0 is awake and idle (counted inactive, yielding);
 * W1 is asleep (blocked on a helper thread before the race). An outside thread sets W0's latch and injects a job:
 * while W0 is still counted, Option B takes it for the awake idle worker that will find the job and wakes nobody. W0
 * then leaves through its latch without searching; its {@code leaveIdle(idle, false)} must hand the wake-up on to W1
 * (A4: its SC decrement of inactive comes after the poster's read of the counters, so it sees the job the poster
 * published before that read). Forbidden: the job stays in the injector while W1 sleeps and nobody is left to wake it.
 *
 * <p>r1: W0 (0 its search took the job, 1 it left through its latch); r2: W1 (0 woken by the protocol, 1 still asleep
 * but the job was taken, 2 still asleep with the job in the injector: LOST).
 */
@JCStressTest
@Description("JEC: idle worker leaves through its latch while an injection counted on it (A4)")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "W0's search took the job; W1 was woken anyway")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "W0's search took the job; W1 sleeps on, nothing waits")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "W0 left through its latch; the poster or W0's hand-on woke W1")
@Outcome(id = "1, 2", expect = FORBIDDEN, desc = "LOST WAKE-UP: W0 left through its latch, job stranded, W1 asleep")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class JecLatchExitVsInjectTest {
    private final JecLatchExitRig rig = JecLatchExitRig.real();

    @Actor
    public void poster(II_Result r) {
        r.r2 = rig.post();
    }

    @Actor
    public void idleWorker(II_Result r) {
        r.r1 = rig.w0();
    }
}
