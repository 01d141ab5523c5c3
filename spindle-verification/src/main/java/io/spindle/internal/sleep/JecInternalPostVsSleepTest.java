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
 * An internal post (no fence) versus a sleepy worker falling asleep (J1: the JEC detects posts made while a worker is
 * sleepy; the legacy seed's "get-sleepy-then-get-tickled" for the JEC protocol). The real {@link JecSleep} and a real
 * {@link ChaseLevDeque}: worker 1 pushes a job and calls {@code newInternalJobs}; the sleepy worker 0 tries to steal
 * it and, failing, calls {@code noWorkFound} to fall asleep. Either its steal finds the job, or its registration CAS
 * sees the changed JEC, or the poster sees it registered and wakes it. Forbidden: it blocks and nobody wakes it.
 *
 * <p>r1: the sleeper (0 stole the job, 1 the JEC had changed, 2 the poster claimed it after its registration and before
 * it blocked, so it did not block (J6), 3 it blocked); r2: 1 if the wake-up was lost.
 */
@JCStressTest
@Description("JEC: internal push versus a sleepy worker falling asleep (J1)")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the sleeper's last steal found the job")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the JEC changed: the sleeper did not register")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "registered first; the poster claimed it before it blocked (J6)")
@Outcome(id = "3, 0", expect = ACCEPTABLE, desc = "the sleeper registered first; the poster saw it and woke it")
@Outcome(id = "3, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: the post was slept through")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class JecInternalPostVsSleepTest {
    private final JecRig rig = JecRig.real();
    private final ChaseLevDeque<Object> deque1 = new ChaseLevDeque<>();

    @Actor
    public void poster(II_Result r) {
        boolean wasEmpty = deque1.isEmpty();
        deque1.push("job");
        rig.sleep.newInternalJobs(1, 1, wasEmpty);
        r.r2 = rig.rescueIfLost();
    }

    @Actor
    public void sleeper(II_Result r) {
        r.r1 = deque1.steal() != null ? rig.sawItInSearch() : rig.tryToSleep();
    }
}
