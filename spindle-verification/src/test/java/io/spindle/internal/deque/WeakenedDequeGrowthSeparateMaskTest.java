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

/** {@link DequeGrowthDuringStealsTest} against {@link WeakenedChaseLevDeque} (mask published apart from the array). Must fail. */
@JCStressTest
@Description("WEAKENED (mask published apart from the array): DequeGrowthDuringStealsTest must fail")
@Outcome(id = "129, 64, 65, 0", expect = ACCEPTABLE, desc = "owner popped its newest, thief got the two oldest")
@Outcome(expect = FORBIDDEN, desc = "a wrong element, or an element taken twice or lost")
@State
public class WeakenedDequeGrowthSeparateMaskTest {
    private final WeakenedChaseLevDeque<Integer> deque =
            new WeakenedChaseLevDeque<>(WeakenedChaseLevDeque.Weakening.SEPARATE_MASK);

    public WeakenedDequeGrowthSeparateMaskTest() {
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
