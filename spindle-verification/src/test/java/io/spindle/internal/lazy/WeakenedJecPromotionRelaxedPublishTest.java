package io.spindle.internal.lazy;

import io.spindle.internal.sleep.JecRig;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link JecPromotionVsSleepTest} with the promoter's side of LZ6 removed: a release store into the slot
 * ({@link WeakenedPromotionSlots.Weakening#RELAXED_PUBLISH}) and no full fence before {@code newInternalJobs}. The
 * sleeper is as in the real test (final check of the slots after its registration and fence). Must fail.
 */
@JCStressTest
@Description("WEAKENED (promotion: release store, no fence): JecPromotionVsSleepTest must see its forbidden outcome")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the sleeper's last search stole the job")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "registered; its final check saw the slot, or it was claimed")
@Outcome(id = "3, 0", expect = ACCEPTABLE, desc = "the sleeper blocked, the promoter saw it and woke it")
@Outcome(id = "3, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: promoter saw no sleeper and sleeper saw no job")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class WeakenedJecPromotionRelaxedPublishTest {
    private final WeakenedPromotionSlots slots =
            new WeakenedPromotionSlots(WeakenedPromotionSlots.Weakening.RELAXED_PUBLISH);
    private final JecRig rig = JecRig.real(() -> !slots.isEmpty()).rolledOver();

    @Actor
    public void promoter(II_Result r) {
        slots.publish(slots.freeSlot(), PromotionSlotsSample.job());
        // WEAKENED: no VarHandle.fullFence() here
        rig.sleep.newInternalJobs(1, 1, true);
        r.r2 = rig.rescueIfLost();
    }

    @Actor
    public void sleeper(II_Result r) {
        r.r1 = slots.steal() != null ? rig.sawItInSearch() : rig.tryToSleep();
    }
}
