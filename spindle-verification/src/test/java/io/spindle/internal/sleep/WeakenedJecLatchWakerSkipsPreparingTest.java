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
 * {@link JecLatchSetVsSleepTest} against {@link WeakenedJecSleep}: the waker's claim skips a PREPARING sleeper (J6). A
 * setter that swapped the latch over SLEEPING before the owner's CAS to BLOCKED wakes nobody. Must fail.
 */
@JCStressTest
@Description("WEAKENED (waker skips PREPARING, J6): JecLatchSetVsSleepTest must see its forbidden outcome")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the owner's probe saw the latch SET")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "a latch CAS failed (or the setter claimed it while PREPARING)")
@Outcome(id = "3, 0", expect = ACCEPTABLE, desc = "the owner blocked; the setter saw SLEEPING and woke it")
@Outcome(id = "3, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: owner blocked while the latch is SET")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class WeakenedJecLatchWakerSkipsPreparingTest {
    private final JecRig rig = WeakenedJecSleep.rig(WeakenedJecSleep.Weakening.WAKER_SKIPS_PREPARING);

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
