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
 * Legacy seed, scenario 1 "tickle-then-get-sleepy" (S2, S3 in the sleep package-info), on the real
 * {@link SleepyWorkerSleep}: a thread injects a job and tickles while worker 0, awake, fails a search, becomes the
 * sleepy worker (CAS), searches once more and falls asleep. If the tickle's load came before the CAS and saw nobody
 * sleepy, the search after the CAS must see the job; if after, the tickle must see the sleepy worker. (Also covers
 * scenario 2's outcome when the tickle comes later.) Forbidden: the sleeper sleeps and nobody wakes it.
 *
 * <p>r1: the sleeper (0 its search found the job, 1 it was tickled while sleepy, 3 it blocked); r2: 1 if the
 * wake-up was lost.
 */
@JCStressTest
@Description("SLEEPY_WORKER scenario 1: tickle-then-get-sleepy (S2, S3)")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the sleeper's search found the job")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "tickled while sleepy: the sleeper did not fall asleep")
@Outcome(id = "3, 0", expect = ACCEPTABLE, desc = "the sleeper fell asleep; the tickle saw it and woke it")
@Outcome(id = "3, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: the sleeper sleeps and nobody wakes it")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class SleepyTickleThenGetSleepyTest {
    private final SleepyRig rig = SleepyRig.real(SleepyRig.Stage.ABOUT_TO_GET_SLEEPY);

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
