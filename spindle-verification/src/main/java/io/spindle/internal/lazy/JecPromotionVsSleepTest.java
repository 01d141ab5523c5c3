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
 * A promotion versus a worker falling asleep (LZ6: a promotion is a new internal job that is not slept through), on
 * the real {@link io.spindle.internal.sleep.JecSleep JOBS_EVENT_COUNTER} protocol and the real {@link PromotionSlots}. The promoter, worker 1,
 * makes {@code LazyWorker.promote}'s steps for one frame: {@code publish} a fresh job into a free slot (volatile store),
 * then {@code announcePromotions}: {@code VarHandle.fullFence()}, {@code newInternalJobs(1, 1, true)} (which reads the
 * sleep counters). The sleepy
 * worker 0 searches (its steal from worker 1's slots, as {@code WorkerThread.stealFrom}) and, finding nothing, calls
 * {@code noWorkFound}, which registers (CAS), fences (J5) and makes the final check, here what
 * {@code WorkerThread.hasInjectedOrPrivateWork} adds for lazy joins: {@code isEmpty()} of the slots (volatile reads).
 *
 * <p>The JEC cannot help (J4, {@link JecRig#rolledOver()}): the promoter finds it odd and only reads the counters, so
 * only the Dekker pair (the slot store and fence against the counters read; the registration and fence against the
 * slot read) can save the job. Forbidden: the poster saw no sleeper AND the sleeper saw no job (it blocks, and only
 * the rescue wakes it). In the pool the owner would still reclaim the frame (LZ7): this is lost parallelism, not a lost
 * job, but LZ6 promises it does not happen.
 *
 * <p>The promoter runs {@code promote}'s publication ({@code PromotionSlots.publish}) and its announcement
 * ({@code LazyWorker.announcePromotions}: the fence and the protocol call), not {@code promote} itself, which needs a
 * {@code WorkerThread} of a running pool. r1: the sleeper (0 its steal got the job, 2 its final check saw it, or the promoter claimed it
 * while PREPARING so it did not block (J6), 3 it blocked); r2: 1 if the wake-up was lost (the rescue woke it).
 */
@JCStressTest
@Description("JEC: a promotion (slot store, fence, newInternalJobs) versus a sleeper whose final check reads the slots")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the sleeper's last search stole the job")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "registered; its final check saw the slot, or it was claimed")
@Outcome(id = "3, 0", expect = ACCEPTABLE, desc = "the sleeper blocked, the promoter saw it and woke it")
@Outcome(id = "3, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: promoter saw no sleeper and sleeper saw no job")
@Outcome(expect = FORBIDDEN, desc = "impossible path")
@State
public class JecPromotionVsSleepTest {
    private final PromotionSlots slots = new PromotionSlots();
    private final JecRig rig = JecRig.real(() -> !slots.isEmpty()).rolledOver();

    @Actor
    public void promoter(II_Result r) {
        slots.publish(slots.freeSlot(), PromotionSlotsSample.job());
        LazyWorker.announcePromotions(rig.sleep, 1, 1);
        r.r2 = rig.rescueIfLost();
    }

    @Actor
    public void sleeper(II_Result r) {
        r.r1 = slots.steal() != null ? rig.sawItInSearch() : rig.tryToSleep();
    }
}
