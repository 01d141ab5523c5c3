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
 * {@link HintLatchExitVsInjectTest} against {@link WeakenedHintPipeSleep}: leaveIdle as the old workFound (a hint read
 * and not followed is dropped; H8 removed). Must fail.
 */
@JCStressTest
@Description("WEAKENED (unused hint dropped): HintLatchExitVsInjectTest must see its forbidden outcome")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "W0 left before reading the hint; the hint went to W1")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "W0 read the hint, left through its latch, forwarded it to W1")
@Outcome(id = "2, 2", expect = FORBIDDEN, desc = "LOST WAKE-UP: W0 dropped the hint; job stranded, W1 asleep")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class WeakenedHintLatchExitDropHintTest {
    private final HintLatchExitRig rig =
            WeakenedHintPipeSleep.latchExitRig(WeakenedHintPipeSleep.Weakening.OLD_LATCH_EXIT);

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
