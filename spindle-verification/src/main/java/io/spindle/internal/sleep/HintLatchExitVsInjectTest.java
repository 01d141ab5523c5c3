package io.spindle.internal.sleep;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * HINT_PIPE: a sleeping worker woken through its latch versus an injection whose hint it reads (H8 in the sleep
 * package-info; {@link LatchExitRig}, {@link HintLatchExitRig}). W0 and W1 are registered and blocked, W0 watching the
 * pipe. An outside thread sets W0's latch (a wake request) and injects a job (notifyAnywhere: one registration off the
 * count, one hint in the pipe). If W0 reads that hint, it holds the only wake-up written for the job, yet leaves
 * through its latch without following it: its {@code leaveIdle(idle, false)} must forward the hint (notifyAnywhere
 * again, which takes W1's registration and writes W1 a hint). Forbidden: the job stays in the injector while W1 sleeps
 * with its registration untaken, so that no hint will ever come.
 *
 * <p>r1: W0 (1 it left through its latch before reading a hint, 2 it read the hint, then left through its latch); r2:
 * W1 (0 woken by a hint, 2 still asleep with the job in the injector: LOST).
 */
@JCStressTest
@Description("HINT_PIPE: worker woken through its latch reads the injection's hint and leaves (H8)")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "W0 left before reading the hint; the hint went to W1")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "W0 read the hint, left through its latch, forwarded it to W1")
@Outcome(id = "2, 2", expect = FORBIDDEN, desc = "LOST WAKE-UP: W0 dropped the hint; job stranded, W1 asleep")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class HintLatchExitVsInjectTest {
    private final HintLatchExitRig rig = HintLatchExitRig.real();

    @Actor
    public void poster(II_Result r) {
        r.r2 = rig.post();
    }

    @Actor
    public void idleWorker(II_Result r) {
        r.r1 = rig.w0();
    }

    @Arbiter
    public void close(II_Result r) {
        rig.close();
    }
}
