package io.spindle.internal.latch;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/** {@link CoreLatchSetVsFallAsleepTest} with {@link WeakenedCheckThenSetLatch}. Must fail. */
@JCStressTest
@Description("WEAKENED (setter reads, then swaps): CoreLatchSetVsFallAsleepTest must see its forbidden outcome")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the owner saw SET and does not block; no wake needed")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the owner blocks; the setter saw SLEEPING and wakes it")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "LOST WAKE-UP: the owner blocks while the latch is SET")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "a wake-up for an owner that is not asleep on this latch")
@State
public class WeakenedCoreLatchCheckThenSetTest {
    private volatile int woken;
    private final CoreLatch latch = new WeakenedCheckThenSetLatch(index -> woken = 1, 0);

    @Actor
    public void owner(II_Result r) {
        r.r1 = latch.getSleepy() && latch.fallAsleep() ? 1 : 0;
    }

    @Actor
    public void setter(II_Result r) {
        latch.set();
        r.r2 = woken;
    }
}
