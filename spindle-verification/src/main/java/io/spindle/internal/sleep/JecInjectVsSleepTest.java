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
 * Post-to-injector versus going to sleep, with both fences (the proof sketch of rayon-core's sleep module; J5 in the
 * sleep package-info). The real {@link JecSleep}: the poster pushes a job (release store) and calls
 * {@code newInjectedJobs} (PushFence, ReadSleepers); the sleepy worker 0 searches the injector and then calls
 * {@code noWorkFound}, which registers (IncSleepers), fences (SleepFence) and checks the injector (ReadJob).
 *
 * <p>The JEC cannot help here: the rig stands in for a rolled-over JEC (J4, {@link JecRig#rolledOver()}), so the poster
 * finds the JEC odd and only reads the counters. The forbidden outcome is the proof sketch's impossible one: the
 * poster saw no sleeper AND the sleeper saw no job (it blocks and nobody wakes it).
 *
 * <p>r1: the sleeper (0 its search found the job, 2 its final check found it, or the poster claimed it while PREPARING
 * so it did not block (J6), 3 it blocked); r2: 1 if the wake-up was lost (the poster had to rescue the sleeper).
 */
@JCStressTest
@Description("JEC: injected job versus a sleeper, both fences (J5); JEC rolled over (J4)")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the sleeper's last search found the job")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "registered; its final check found the job, or the poster claimed it")
@Outcome(id = "3, 0", expect = ACCEPTABLE, desc = "the sleeper blocked, the poster saw it and woke it")
@Outcome(id = "3, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: poster saw no sleeper and sleeper saw no job")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class JecInjectVsSleepTest {
    private final JecRig rig = JecRig.real().rolledOver();

    @Actor
    public void poster(II_Result r) {
        rig.injectJob();
        rig.sleep.newInjectedJobs(1, true);
        r.r2 = rig.rescueIfLost();
    }

    @Actor
    public void sleeper(II_Result r) {
        r.r1 = rig.injectorHasJob() ? rig.sawItInSearch() : rig.tryToSleep();
    }
}
