package io.spindle.internal.latch;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The core latch alone (rayon's RFC 5, appendix A; L1): the owner's two CASes UNSET to SLEEPY to SLEEPING
 * (after which it would block) against a setter's swap to SET (which wakes the owner if it swapped over SLEEPING). The
 * real {@link WorkerLatch}; its {@link LatchOwner} is a fake that records the wake-up. Exactly one of "the owner does
 * not block" and "the setter wakes it" must hold.
 *
 * <p>r1: 1 if the owner would block (both CASes succeeded); r2: 1 if the setter woke it.
 */
@JCStressTest
@Description("CoreLatch: set versus fall asleep (RFC 5 appendix A, L1)")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the owner saw SET and does not block; no wake needed")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the owner blocks; the setter saw SLEEPING and wakes it")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "LOST WAKE-UP: the owner blocks while the latch is SET")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "a wake-up for an owner that is not asleep on this latch")
@State
public class CoreLatchSetVsFallAsleepTest {
    private volatile int woken;
    private final WorkerLatch latch = new WorkerLatch(index -> woken = 1, 0);

    @Actor
    public void owner(II_Result r) {
        r.r1 = latch.getSleepy() && latch.fallAsleep() ? 1 : 0;
    }

    @Actor
    public void setter(II_Result r) {
        latch.set();
        r.r2 = woken; // the wake-up is called synchronously inside set()
    }
}
