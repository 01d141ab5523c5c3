package io.spindle.internal.deque;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The owner's pop versus a thief's steal of the last element of the real {@link ChaseLevDeque} (invariant I3: one
 * CAS on {@code top} arbitrates). Exactly one of them gets it.
 *
 * <p>r1: 1 if the owner's pop got it; r2: 1 if the thief's steal got it.
 */
@JCStressTest
@Description("ChaseLevDeque: pop versus steal of the last element (I3)")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the owner got it")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the thief got it")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "both got it: the job would run twice")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "neither got it: the job is lost")
@State
public class DequeLastElementTest {
    private final ChaseLevDeque<Integer> deque = new ChaseLevDeque<>();

    public DequeLastElementTest() {
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
