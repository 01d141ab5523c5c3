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

/** {@link DequePopVsTwoStealsTest} against {@link WeakenedChaseLevDeque} (pop's release/acquire instead of volatile). Must fail. */
@JCStressTest
@Description("WEAKENED (release/acquire in pop): DequePopVsTwoStealsTest must fail")
@Outcome(id = "2, 1, 0, 0", expect = ACCEPTABLE, desc = "owner popped 2, thief stole 1 then found it empty")
@Outcome(id = "0, 1, 2, 0", expect = ACCEPTABLE, desc = "thief stole both, owner found it empty")
@Outcome(expect = FORBIDDEN, desc = "an element taken twice or lost")
@State
public class WeakenedDequePopVsTwoStealsRelaxedTest {
    private final WeakenedChaseLevDeque<Integer> deque =
            new WeakenedChaseLevDeque<>(WeakenedChaseLevDeque.Weakening.RELAXED_POP);

    public WeakenedDequePopVsTwoStealsRelaxedTest() {
        deque.push(1);
        deque.push(2);
    }

    @Actor
    public void owner(IIII_Result r) {
        r.r1 = value(deque.pop());
    }

    @Actor
    public void thief(IIII_Result r) {
        r.r2 = value(deque.steal());
        r.r3 = value(deque.steal());
    }

    @Arbiter
    public void check(IIII_Result r) {
        int[] seen = new int[3];
        seen[r.r1]++;
        seen[r.r2]++;
        seen[r.r3]++;
        for (Integer x; (x = deque.pop()) != null; ) { // the actors are done: the arbiter may act as the owner
            seen[x]++;
        }
        r.r4 = seen[1] > 1 || seen[2] > 1 ? 1 : seen[1] == 0 || seen[2] == 0 ? 2 : 0;
    }

    private static int value(Integer x) {
        return x == null ? 0 : x;
    }
}
