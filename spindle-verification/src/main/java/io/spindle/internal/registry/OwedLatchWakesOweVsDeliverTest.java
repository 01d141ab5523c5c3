package io.spindle.internal.registry;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * E4 at the stack's edge on the real {@link OwedLatchWakes}: a waker sets its latch and, its wake-up having
 * overflowed, owes it (two volatile stores, as {@code Registry.wakeLatchOwner}'s catch block does), while a worker
 * delivers what an earlier waker owed to the same owner. The second owe must end covered by a wake-up made after its
 * latch was set, or still owed with {@code any} set: otherwise its owner sleeps on a set latch for ever.
 *
 * <p>r1: the delivery's wake-up saw the second latch set; r2: still owed afterwards; r3: {@code any} afterwards.
 */
@JCStressTest
@Description("OwedLatchWakes: a waker's owe versus a delivery of an earlier owe to the same worker (E4)")
@Outcome(id = {"true, false, false", "true, false, true"}, expect = ACCEPTABLE,
        desc = "the delivery's wake-up came after the second latch was set: it covers the second owe")
@Outcome(id = {"false, true, true", "true, true, true"}, expect = ACCEPTABLE,
        desc = "the second owe came after the delivery cleared the flag: still owed, and any says so")
@Outcome(id = {"false, false, false", "false, false, true"}, expect = FORBIDDEN,
        desc = "LOST WAKE-UP: the second owe was cleared and no wake-up after its latch covered it")
@Outcome(id = {"false, true, false", "true, true, false"}, expect = FORBIDDEN,
        desc = "STRANDED: owed, but any is false, so no worker looks")
@State
public class OwedLatchWakesOweVsDeliverTest {
    private final OwedLatchWakes owed = new OwedLatchWakes(2);
    private volatile boolean secondLatchSet;
    private boolean wakeSawSecondLatch;

    public OwedLatchWakesOweVsDeliverTest() {
        owed.flags[1].owed = true; // an earlier waker's, for the delivery to find
        owed.any = true;
    }

    @Actor
    public void wakerOverflowed() {
        secondLatchSet = true; // the latch set (volatile) that precedes the owe
        owed.flags[1].owed = true;
        owed.any = true;
    }

    @Actor
    public void worker() {
        owed.deliver(index -> wakeSawSecondLatch = secondLatchSet); // the woken owner would read its latch
    }

    @Arbiter
    public void after(ZZZ_Result r) {
        r.r1 = wakeSawSecondLatch;
        r.r2 = owed.owedTo(1);
        r.r3 = owed.any;
    }
}
