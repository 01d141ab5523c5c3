package io.spindle.internal.sleep;

import io.spindle.internal.deque.ChaseLevDeque;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Legacy seed, scenario 2 "get-sleepy-then-get-tickled" (S1, S2), on the real {@link SleepyWorkerSleep}: worker 0 is
 * already the sleepy worker; it searches (steals from worker 1's real deque), re-reads the word to check it is still
 * sleepy, searches again and falls asleep, while worker 1 pushes a job and tickles. The tickle's SC load must see the
 * sleepy worker and swap it out, and the sleeper must notice before it blocks. Forbidden: it sleeps and nobody wakes
 * it.
 *
 * <p>r1: the sleeper (0 it stole the job, 1 it was tickled while sleepy, 3 it blocked); r2: 1 if the wake-up was
 * lost.
 */
@JCStressTest
@Description("SLEEPY_WORKER scenario 2: get-sleepy-then-get-tickled (S1, S2)")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the sleeper's search found the job")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "tickled while sleepy: the sleeper did not fall asleep")
@Outcome(id = "3, 0", expect = ACCEPTABLE, desc = "the sleeper fell asleep; the tickle saw it and woke it")
@Outcome(id = "3, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: the sleeper sleeps and nobody wakes it")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class SleepyGetSleepyThenGetTickledTest {
    private final SleepyRig rig = SleepyRig.real(SleepyRig.Stage.SLEEPY);
    private final ChaseLevDeque<Object> deque1 = new ChaseLevDeque<>();

    @Actor
    public void tickler(II_Result r) {
        deque1.push("job"); // worker 1 pushes onto its real deque
        rig.sleep.newInternalJobs(1, 1, true); // tickle
        r.r2 = rig.rescueIfLost();
    }

    @Actor
    public void sleeper(II_Result r) {
        r.r1 = rig.sleeperLoop(() -> deque1.steal() != null);
    }
}
