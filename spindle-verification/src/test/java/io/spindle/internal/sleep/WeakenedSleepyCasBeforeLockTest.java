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

/** {@link SleepyFallAsleepThenGetTickledTest} against {@link WeakenedSleepyWorkerSleep} (CAS to sleeping before taking the lock). Must fail. */
@JCStressTest
@Description("WEAKENED (CAS to sleeping before taking the lock): SleepyFallAsleepThenGetTickledTest must see its forbidden outcome")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the sleeper's search found the job")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "tickled while sleepy: the sleeper did not fall asleep")
@Outcome(id = "3, 0", expect = ACCEPTABLE, desc = "the sleeper fell asleep; the tickle saw it and woke it")
@Outcome(id = "3, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: the sleeper sleeps and nobody wakes it")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class WeakenedSleepyCasBeforeLockTest {
    private final SleepyRig rig = WeakenedSleepyWorkerSleep.rig(WeakenedSleepyWorkerSleep.Weakening.CAS_BEFORE_LOCK, SleepyRig.Stage.ABOUT_TO_FALL_ASLEEP);
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
