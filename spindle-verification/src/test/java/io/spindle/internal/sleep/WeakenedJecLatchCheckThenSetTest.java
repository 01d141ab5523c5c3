package io.spindle.internal.sleep;

import io.spindle.internal.latch.WeakenedCheckThenSetLatch;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link JecLatchSetVsSleepTest} on the real {@link JecSleep}, with the latch's setter weakened: it decides whether to
 * wake from a read made before its swap ({@link WeakenedCheckThenSetLatch}). Must fail.
 */
@JCStressTest
@Description("WEAKENED (setter reads, then swaps): JecLatchSetVsSleepTest must see its forbidden outcome")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the owner's probe saw the latch SET")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "the owner's getSleepy/fallAsleep CAS failed: it did not block")
@Outcome(id = "3, 0", expect = ACCEPTABLE, desc = "the owner blocked; the setter saw SLEEPING and woke it")
@Outcome(id = "3, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: owner blocked while the latch is SET")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class WeakenedJecLatchCheckThenSetTest {
    private final JecRig rig = JecRig.real(owner -> new WeakenedCheckThenSetLatch(owner, 0));

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
