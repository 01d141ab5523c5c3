package io.spindle.internal.sleep;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/** {@link SleepyTickleThenGetSleepyTest} against {@link WeakenedSleepyWorkerSleep} (becoming sleepy is a release store). Must fail. */
@JCStressTest
@Description("WEAKENED (becoming sleepy is a release store): SleepyTickleThenGetSleepyTest must see its forbidden outcome")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the sleeper's search found the job")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "tickled while sleepy: the sleeper did not fall asleep")
@Outcome(id = "3, 0", expect = ACCEPTABLE, desc = "the sleeper fell asleep; the tickle saw it and woke it")
@Outcome(id = "3, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: the sleeper sleeps and nobody wakes it")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class WeakenedSleepyRelaxedGetSleepyTest {
    private final SleepyRig rig = WeakenedSleepyWorkerSleep.rig(WeakenedSleepyWorkerSleep.Weakening.RELAXED_GET_SLEEPY, SleepyRig.Stage.ABOUT_TO_GET_SLEEPY);

    @Actor
    public void tickler(II_Result r) {
        rig.injectJob(); // a real ConcurrentLinkedQueue append (volatile CAS), as Registry.inject
        rig.sleep.newInjectedJobs(1, true); // tickle
        r.r2 = rig.rescueIfLost();
    }

    @Actor
    public void sleeper(II_Result r) {
        r.r1 = rig.sleeperLoop(rig::injectorHasJob);
    }
}
