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
 * The owner's pop versus two steals on a deque of two elements (the real {@link ChaseLevDeque}). This is where the
 * owner's Store-Load order matters (I3): the owner stores the decremented {@code bottom} and then loads {@code top};
 * if the load could pass the store, the thief could take both elements while the owner, reading a stale {@code top},
 * takes the second one without a CAS.
 *
 * <p>r1: what the owner popped (0 none); r2, r3: what the two steals got; r4: 0 if every element was taken exactly
 * once (the arbiter drains the rest), 1 if one was taken twice, 2 if one was lost.
 */
@JCStressTest
@Description("ChaseLevDeque: pop versus two steals (Store-Load order in pop, I3)")
@Outcome(id = "2, 1, 0, 0", expect = ACCEPTABLE, desc = "owner popped 2, thief stole 1 then found it empty")
@Outcome(id = "0, 1, 2, 0", expect = ACCEPTABLE, desc = "thief stole both, owner found it empty")
@Outcome(expect = FORBIDDEN, desc = "an element taken twice or lost")
@State
public class DequePopVsTwoStealsTest {
    private final ChaseLevDeque<Integer> deque = new ChaseLevDeque<>();

    public DequePopVsTwoStealsTest() {
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
