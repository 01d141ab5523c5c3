package io.spindle.internal.deque;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Growth during steals (the real {@link ChaseLevDeque}; I4: the array and its mask travel together in one field). The
 * deque starts full at its initial capacity 64 with {@code top} = 64 (64 pushed and stolen, then 64 more pushed:
 * indices 64..127), so indices wrap and old and new masks pick different slots. The owner pushes 128 (which grows
 * the array to 128) and 129 and pops; the thief steals twice meanwhile. Every element must be taken exactly once,
 * and the thief must get the two oldest.
 *
 * <p>r1: the owner's pop; r2, r3: the steals; r4: 0 if every element was taken exactly once (the arbiter drains the
 * rest), 1 if one was taken twice, 2 if one was lost.
 */
@JCStressTest
@Description("ChaseLevDeque: growth while a thief steals, with wrapped indices (I4)")
@Outcome(id = "129, 64, 65, 0", expect = ACCEPTABLE, desc = "owner popped its newest, thief got the two oldest")
@Outcome(expect = FORBIDDEN, desc = "a wrong element, or an element taken twice or lost")
@State
public class DequeGrowthDuringStealsTest {
    private final ChaseLevDeque<Integer> deque = new ChaseLevDeque<>();

    public DequeGrowthDuringStealsTest() {
        for (int i = 0; i < 64; i++) {
            deque.push(i);
        }
        for (int i = 0; i < 64; i++) {
            deque.steal();
        }
        for (int i = 64; i < 128; i++) {
            deque.push(i); // top = 64, bottom = 128: full at capacity 64
        }
    }

    @Actor
    public void owner(IIII_Result r) {
        deque.push(128); // grows
        deque.push(129);
        Integer x = deque.pop();
        r.r1 = x == null ? -1 : x;
    }

    @Actor
    public void thief(IIII_Result r) {
        Integer a = deque.steal();
        Integer b = deque.steal();
        r.r2 = a == null ? -1 : a;
        r.r3 = b == null ? -1 : b;
    }

    @Arbiter
    public void check(IIII_Result r) {
        int[] seen = new int[130];
        int dup = 0;
        for (int v : new int[] {r.r1, r.r2, r.r3}) {
            if (v >= 0 && ++seen[v] > 1) {
                dup = 1;
            }
        }
        for (Integer x; (x = deque.pop()) != null; ) {
            if (++seen[x] > 1) {
                dup = 1;
            }
        }
        int lost = 0;
        for (int v = 64; v < 130; v++) {
            if (seen[v] == 0) {
                lost = 2;
            }
        }
        r.r4 = dup != 0 ? dup : lost;
    }
}
