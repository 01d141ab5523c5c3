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
 * {@link JecInjectVsSleepTest} against {@link WeakenedJecSleep}: the waker's claim skips a PREPARING sleeper (J6), JEC
 * rolled over (J4). A poster that saw the registration before the sleeper's CAS to BLOCKED wakes nobody. Must fail.
 */
@JCStressTest
@Description("WEAKENED (waker skips PREPARING, J6): JecInjectVsSleepTest must see its forbidden outcome")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the sleeper's last search found the job")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "registered; its final check found the job, or it was claimed")
@Outcome(id = "3, 0", expect = ACCEPTABLE, desc = "the sleeper blocked, the poster saw it and woke it")
@Outcome(id = "3, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: poster saw no sleeper and sleeper saw no job")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class WeakenedJecInjectWakerSkipsPreparingTest {
    private final JecRig rig = WeakenedJecSleep.rig(WeakenedJecSleep.Weakening.WAKER_SKIPS_PREPARING).rolledOver();

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
