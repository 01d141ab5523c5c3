package io.spindle.internal.deque;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/** {@link DequeLastElementTest} against {@link WeakenedChaseLevDeque} (pop without the CAS). Must fail. */
@JCStressTest
@Description("WEAKENED (pop takes the last element without CAS): DequeLastElementTest must fail")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the owner got it")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the thief got it")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "both got it: the job would run twice")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "neither got it: the job is lost")
@State
public class WeakenedDequeLastElementNoCasTest {
    private final WeakenedChaseLevDeque<Integer> deque =
            new WeakenedChaseLevDeque<>(WeakenedChaseLevDeque.Weakening.POP_WITHOUT_CAS);

    public WeakenedDequeLastElementNoCasTest() {
        deque.push(1);
    }

    @Actor
    public void owner(II_Result r) {
        r.r1 = deque.pop() != null ? 1 : 0;
    }

    @Actor
    public void thief(II_Result r) {
        r.r2 = deque.steal() != null ? 1 : 0;
    }
}
