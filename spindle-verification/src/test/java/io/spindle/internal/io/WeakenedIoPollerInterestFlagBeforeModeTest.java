package io.spindle.internal.io;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link IoPollerInterestHandOffTest} on {@link WeakenedIoPollerFlagBeforeMode} (the owner consumes the flag in one
 * critical section and stores its mode in a later one). Must fail: "1, 0, 1" (the owner parks; the requester saw
 * RUNNING and delivered nothing).
 */
@JCStressTest
@Description("WEAKENED (flag and mode in two critical sections): IoPollerInterestHandOffTest must see its forbidden outcome")
@Outcome(id = {"0, 0, 1", "0, 0, 2", "0, 0, 3", "0, 0, 4"}, expect = ACCEPTABLE,
        desc = "owner consumed the pending wake-up and returns at once (its loop then sees the request)")
@Outcome(id = "1, 0, 3", expect = ACCEPTABLE, desc = "owner would park: the requester's unpark left a permit")
@Outcome(id = {"2, 1, 1", "2, 1, 2", "2, 1, 3", "2, 1, 4"}, expect = ACCEPTABLE,
        desc = "owner would select: it found the request first and leaves its sleep")
@Outcome(id = "2, 0, 2", expect = ACCEPTABLE, desc = "owner would select: the requester's wakeup is sticky")
@Outcome(expect = FORBIDDEN, desc = "owner would block with the request queued and no wake-up delivered")
@State
public class WeakenedIoPollerInterestFlagBeforeModeTest {
    private final IoPollerHandOffModel poller = new WeakenedIoPollerFlagBeforeMode(0, false);

    @Actor
    public void owner(III_Result r) {
        r.r1 = poller.ownerBlock();
        r.r2 = poller.foundRequest() ? 1 : 0;
    }

    @Actor
    public void requester(III_Result r) {
        r.r3 = poller.requestInterest();
    }
}
