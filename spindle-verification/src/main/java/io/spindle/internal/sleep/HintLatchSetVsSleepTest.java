package io.spindle.internal.sleep;

import io.spindle.internal.latch.WorkerLatch;
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
 * HINT_PIPE: a latch set versus its registered owner blocking on the real pipe (L1, H5): the owner's latch CASes, its
 * blocked flag and final check, its watch of the pipe, against the setter's swap and wake request (unpark or
 * selector wake-up). Forbidden: the owner blocks while the latch is SET and the setter did not ask to wake it. (A wake
 * request that is asked for but missed, H5, leaves the owner blocked: jcstress reports that as a timeout.)
 *
 * <p>r1: the owner (0 its probe saw SET, 2 a latch CAS failed so it did not block, 3 it blocked and was woken);
 * r2: 1 if the wake-up was lost.
 */
@JCStressTest
@Description("HINT_PIPE: latch set versus its owner blocking on the pipe (L1, H5)")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the owner's probe saw the latch SET")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "the owner's latch CAS failed: it did not block")
@Outcome(id = "3, 0", expect = ACCEPTABLE, desc = "the owner blocked; the setter asked to wake it and it woke")
@Outcome(id = "3, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: owner blocked while the latch is SET")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class HintLatchSetVsSleepTest {
    private final HintRig rig = HintRig.realForLatch(HintRig.Stage.REGISTERED, owner -> new WorkerLatch(owner, 0));

    @Actor
    public void setter(II_Result r) {
        rig.latch.set();
        r.r2 = rig.rescueIfLost();
    }

    @Actor
    public void owner(II_Result r) {
        r.r1 = rig.sleeperLoop(() -> false);
    }

    @Arbiter
    public void close(II_Result r) {
        rig.close();
    }
}
