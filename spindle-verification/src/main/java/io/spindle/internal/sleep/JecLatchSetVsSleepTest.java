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
 * Latch set versus its owner falling asleep (rayon's RFC 5, appendix A; L1 in the sleep package-info), on
 * the real {@link JecSleep} and a real {@code WorkerLatch} whose owner wakes through the protocol as the registry
 * does. Worker 0 is sleepy and waits for the latch: it probes it and, unset, calls {@code noWorkFound} (PREPARING,
 * UNSET to SLEEPY, SLEEPY to SLEEPING, register, BLOCKED, park); another thread sets the latch (swap to SET; if it was
 * SLEEPING, claim the owner: from PREPARING it will not block, from BLOCKED wake it). Forbidden: the owner blocks while the latch is SET and nobody wakes it.
 *
 * <p>r1: the owner (0 its probe saw SET, 2 a latch CAS failed, or the setter claimed it while PREPARING (J6), so it did
 * not block, 3 it blocked); r2: 1 if the wake-up was lost.
 */
@JCStressTest
@Description("Latch set versus its owner falling asleep (RFC 5 appendix A, L1), on JecSleep")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the owner's probe saw the latch SET")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "a latch CAS failed, or the setter claimed it before it blocked")
@Outcome(id = "3, 0", expect = ACCEPTABLE, desc = "the owner blocked; the setter saw SLEEPING and woke it")
@Outcome(id = "3, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: owner blocked while the latch is SET")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class JecLatchSetVsSleepTest {
    private final JecRig rig = JecRig.real();

    @Actor
    public void setter(II_Result r) {
        rig.latch.set();
        r.r2 = rig.rescueIfLost();
    }

    @Actor
    public void owner(II_Result r) {
        r.r1 = rig.latch.probe() ? rig.sawItInSearch() : rig.tryToSleep();
    }
}
