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
 * {@link OwedLatchWakesOweVsDeliverTest} with the delivery weakened: it clears the owner's flag after the wake-up
 * instead of before (and takes {@code any} with a read and a store, not a getAndSet, since the real one's VarHandle is
 * private). Must fail: a waker that owes between the wake-up and the clear loses its wake-up, and that owner sleeps on
 * a set latch for ever.
 */
@JCStressTest
@Description("WEAKENED (flag cleared after the wake-up): OwedLatchWakesOweVsDeliverTest must see its forbidden outcome")
@Outcome(id = {"true, false, false", "true, false, true"}, expect = ACCEPTABLE,
        desc = "the delivery's wake-up came after the second latch was set: it covers the second owe")
@Outcome(id = {"false, true, true", "true, true, true"}, expect = ACCEPTABLE,
        desc = "the second owe came after the delivery cleared the flag: still owed, and any says so")
@Outcome(id = {"false, false, false", "false, false, true"}, expect = FORBIDDEN,
        desc = "LOST WAKE-UP: the second owe was cleared and no wake-up after its latch covered it")
@Outcome(id = {"false, true, false", "true, true, false"}, expect = FORBIDDEN,
        desc = "STRANDED: owed, but any is false, so no worker looks")
@State
public class WeakenedOwedLatchWakesClearingTest {
    private final OwedLatchWakes owed = new OwedLatchWakes(2);
    private volatile boolean secondLatchSet;
    private boolean wakeSawSecondLatch;

    public WeakenedOwedLatchWakesClearingTest() {
        owed.flags[1].owed = true; // an earlier waker's, for the delivery to find
        owed.any = true;
    }

    @Actor
    public void wakerOverflowed() {
        secondLatchSet = true;
        owed.flags[1].owed = true;
        owed.any = true;
    }

    @Actor
    public void worker() {
        // OwedLatchWakes.deliver for index 1, with the clear moved after the wake-up
        boolean any = owed.any;
        owed.any = false;
        if (any && owed.flags[1].owed) {
            wakeSawSecondLatch = secondLatchSet;
            owed.flags[1].owed = false; // WEAKENED: erases an owe made since the wake-up
        }
    }

    @Arbiter
    public void after(ZZZ_Result r) {
        r.r1 = wakeSawSecondLatch;
        r.r2 = owed.owedTo(1);
        r.r3 = owed.any;
    }
}
