package io.spindle.internal.lazy;

import io.spindle.internal.join.JoinJob;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The owner's reclaim of a promoted frame versus a thief's steal, on the real {@link PromotionSlots} (LZ7: whoever
 * empties the slot by CAS runs the job; a promotion always makes a fresh job, so no ABA). Job A sits in slot 0 (the
 * promotion, made in the constructor). The owner does what a lazy join does with it and the next promotion:
 * {@code reclaim} A (the end of A's {@code a}), {@code freeSlot} and {@code publish} of a fresh job B into the slot just
 * emptied (a later join's promotion), then {@code reclaim} B. The thief steals twice, as an idle worker's searches do.
 * Each job must be run exactly once: the owner's reclaim of it succeeded, or the thief got it, never both (a double
 * run) and never neither (a lost frame: its owner would wait for ever on a latch nobody sets).
 *
 * <p>r1: 1 if the owner reclaimed A; r2: 1 if the owner reclaimed B; r3, r4: what the thief's first and second steal
 * got (0 nothing, 1 A, 2 B, 3 another job). The acceptable outcomes are every interleaving of the five atomic steps.
 */
@JCStressTest
@Description("PromotionSlots: owner's reclaim (and the slot's reuse) versus a thief's steal (LZ7)")
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "the owner reclaimed both; the thief found nothing")
@Outcome(id = "0, 1, 1, 0", expect = ACCEPTABLE, desc = "the thief took A, the owner reclaimed B")
@Outcome(id = "1, 0, 2, 0", expect = ACCEPTABLE, desc = "the owner reclaimed A, the thief took B (1st steal)")
@Outcome(id = "1, 0, 0, 2", expect = ACCEPTABLE, desc = "the owner reclaimed A, the thief took B (2nd steal)")
@Outcome(id = "0, 0, 1, 2", expect = ACCEPTABLE, desc = "the thief took both")
@Outcome(id = "1, 1, 1, 0", expect = FORBIDDEN, desc = "DOUBLE RUN: A both reclaimed and stolen")
@Outcome(id = "1, 0, 1, 0", expect = FORBIDDEN, desc = "DOUBLE RUN of A, and LOST FRAME: B erased from its slot")
@Outcome(id = "0, 0, 1, 0", expect = FORBIDDEN, desc = "LOST FRAME: B neither reclaimed nor stolen")
@Outcome(id = "1, 0, 1, 2", expect = FORBIDDEN, desc = "DOUBLE RUN: A both reclaimed and stolen")
@Outcome(id = {"0, 1, 1, 2", "1, 1, 0, 2"}, expect = FORBIDDEN, desc = "DOUBLE RUN: B both reclaimed and stolen")
@Outcome(expect = FORBIDDEN, desc = "a job run twice or never, or an impossible order")
@State
public class PromotionSlotsReclaimVsStealTest {
    private final PromotionSlots slots = new PromotionSlots();
    private final JoinJob a = PromotionSlotsSample.job();
    private final JoinJob b = PromotionSlotsSample.job();

    public PromotionSlotsReclaimVsStealTest() {
        slots.publish(0, a);
    }

    @Actor
    public void owner(IIII_Result r) {
        r.r1 = slots.reclaim(0, a) ? 1 : 0;
        int s = slots.freeSlot();
        slots.publish(s, b);
        r.r2 = slots.reclaim(s, b) ? 1 : 0;
    }

    @Actor
    public void thief(IIII_Result r) {
        r.r3 = PromotionSlotsSample.code(slots.steal(), a, b);
        r.r4 = PromotionSlotsSample.code(slots.steal(), a, b);
    }
}
