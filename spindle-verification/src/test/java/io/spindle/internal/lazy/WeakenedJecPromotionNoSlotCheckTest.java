package io.spindle.internal.lazy;

import io.spindle.internal.sleep.JecRig;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.lang.invoke.VarHandle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link JecPromotionVsSleepTest} with the sleeper's side of LZ6 removed: its final check reads the injector only (as
 * {@code WorkerThread.hasInjectedOrPrivateWork} did before lazy joins), not the promotion slots. The promoter and the
 * slots are the real ones. Must fail.
 */
@JCStressTest
@Description("WEAKENED (final check skips the slots): JecPromotionVsSleepTest must see its forbidden outcome")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the sleeper's last search stole the job")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "registered; its final check saw the slot, or it was claimed")
@Outcome(id = "3, 0", expect = ACCEPTABLE, desc = "the sleeper blocked, the promoter saw it and woke it")
@Outcome(id = "3, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: promoter saw no sleeper and sleeper saw no job")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class WeakenedJecPromotionNoSlotCheckTest {
    private final PromotionSlots slots = new PromotionSlots();
    private final JecRig rig = JecRig.real().rolledOver(); // WEAKENED: the final check reads the (empty) injector only

    @Actor
    public void promoter(II_Result r) {
        slots.publish(slots.freeSlot(), PromotionSlotsSample.job());
        VarHandle.fullFence();
        rig.sleep.newInternalJobs(1, 1, true);
        r.r2 = rig.rescueIfLost();
    }

    @Actor
    public void sleeper(II_Result r) {
        r.r1 = slots.steal() != null ? rig.sawItInSearch() : rig.tryToSleep();
    }
}
