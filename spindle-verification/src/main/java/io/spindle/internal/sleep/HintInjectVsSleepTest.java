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
 * HINT_PIPE: an injected job (notifyAnywhere, H3) versus a worker registering as a sleeper, searching once more and
 * blocking on the real pipe (H1, H3, H4 in the sleep package-info). Either the sleeper's search after registering finds
 * the job, or registering takes the notifier's credit (the count was negative), or the notifier takes the
 * registration off the count and writes a hint the sleeper reads. Forbidden: it blocks with its registration still
 * counted after the notifier returned (no hint will ever come).
 *
 * <p>r1: the sleeper (0 its search found the job, 1 it took a credit then found it, 2 it did not block: its final check found it or a hint was
 * already in the pipe,
 * 3 it blocked and read a hint); r2: 1 if the wake-up was lost.
 */
@JCStressTest
@Description("HINT_PIPE: injected job (notifyAnywhere) versus a worker registering and blocking (H1, H3, H4)")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the sleeper's search found the job")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "registering took the notifier's credit; the search found the job")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "did not block: final check saw the job, or a hint was waiting")
@Outcome(id = "3, 0", expect = ACCEPTABLE, desc = "blocked; the notifier took its registration and wrote a hint")
@Outcome(id = "3, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: blocked, registration untaken, no hint coming")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class HintInjectVsSleepTest {
    private final HintRig rig = HintRig.real(HintRig.Stage.ABOUT_TO_REGISTER);

    @Actor
    public void injector(II_Result r) {
        rig.injectJob(); // a real ConcurrentLinkedQueue append, as Registry.inject
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
