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
 * {@link JecInternalPostVsSleepTest} against {@link WeakenedJecSleep}: the JEC check and the sleeping registration
 * split into two steps (J1). Must fail.
 */
@JCStressTest
@Description("WEAKENED (JEC check split from the registration CAS): JecInternalPostVsSleepTest must fail")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the sleeper's last steal found the job")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the JEC changed: the sleeper did not register")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "registered first; the poster claimed it before it blocked (J6)")
@Outcome(id = "3, 0", expect = ACCEPTABLE, desc = "the sleeper registered first; the poster saw it and woke it")
@Outcome(id = "3, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: the post was slept through")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class WeakenedJecInternalSplitRegistrationTest {
    private final JecRig rig = WeakenedJecSleep.rig(WeakenedJecSleep.Weakening.SPLIT_REGISTRATION);
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
