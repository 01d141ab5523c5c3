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
 * {@link HintInjectVsSleepTest} against {@link WeakenedHintPipeSleep} (relaxed, non-atomic registration; no final
 * injector check). Must fail.
 */
@JCStressTest
@Description("WEAKENED (relaxed registration, no final check): HintInjectVsSleepTest must see its forbidden outcome")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the sleeper's search found the job")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "registering took the notifier's credit; the search found the job")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "did not block: final check saw the job, or a hint was waiting")
@Outcome(id = "3, 0", expect = ACCEPTABLE, desc = "blocked; the notifier took its registration and wrote a hint")
@Outcome(id = "3, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: blocked, registration untaken, no hint coming")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class WeakenedHintInjectRelaxedRegisterTest {
    private final HintRig rig = WeakenedHintPipeSleep.rig(HintRig.Stage.ABOUT_TO_REGISTER);

    @Actor
    public void injector(II_Result r) {
        rig.injectJob();
        rig.sleep.newInjectedJobs(1, true);
        r.r2 = rig.rescueIfLost();
    }

    @Actor
    public void sleeper(II_Result r) {
        r.r1 = rig.sleeperLoop(rig::injectorHasJob);
    }

    @Arbiter
    public void close(II_Result r) {
        rig.close();
    }
}
