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
 * {@link PromotionSlotsReclaimVsStealTest} against {@link WeakenedPromotionSlots} (reclaim and steal by a read and a
 * store, no CAS). Must fail: a double run of A, or B erased from its slot (a lost frame).
 */
@JCStressTest
@Description("WEAKENED (reclaim/steal without CAS): PromotionSlotsReclaimVsStealTest must see its forbidden outcome")
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
public class WeakenedPromotionSlotsReclaimNoCasTest {
    private final WeakenedPromotionSlots slots =
            new WeakenedPromotionSlots(WeakenedPromotionSlots.Weakening.RECLAIM_STEAL_WITHOUT_CAS);
    private final JoinJob a = PromotionSlotsSample.job();
    private final JoinJob b = PromotionSlotsSample.job();

    public WeakenedPromotionSlotsReclaimNoCasTest() {
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
