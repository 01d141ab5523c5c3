package io.spindle.internal.io;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link IoPollerWakeVsFirstSelectTest} on {@link WeakenedIoPollerSelectorAfterMode} (the owner opens its selector
 * after the critical section that stores SELECTING). Must fail: "2, 4" (the owner selects; the waker saw SELECTING and
 * no selector, and delivered nothing).
 */
@JCStressTest
@Description("WEAKENED (selector opened after SELECTING): IoPollerWakeVsFirstSelectTest must see its forbidden outcome")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "owner consumed the wake-up and returns at once")
@Outcome(id = "2, 2", expect = ACCEPTABLE, desc = "owner would select: the waker's wakeup is sticky")
@Outcome(id = "2, 4", expect = FORBIDDEN, desc = "LOST: owner selects; the waker saw SELECTING with no selector")
@Outcome(expect = FORBIDDEN, desc = "other")
@State
public class WeakenedIoPollerFirstSelectOpenAfterModeTest {
    private final IoPollerHandOffModel poller = new WeakenedIoPollerSelectorAfterMode(1, false);

    @Actor
    public void owner(II_Result r) {
        r.r1 = poller.ownerBlock();
    }

    @Actor
    public void waker(II_Result r) {
        r.r2 = poller.unblock();
    }
}
