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
 * IO10: a registration handed to a sleeping owner ({@link IoPollerHandOffModel}). A thread that is not the owner
 * queues an interest request and unblocks; the owner, holding no IO yet, enters {@code block()} (holdsIo, the selector
 * opened if it selects, then one critical section that consumes the wake flag or stores its mode, then, if it
 * selects, its look at the queue). Forbidden: the owner decides to block (park or select) while the request stays
 * queued and nothing was delivered (no unpark, no wakeup): the request would wait for an unrelated wake-up.
 *
 * <p>r1: the owner (0 returned at once, 1 would park, 2 would select); r2: its look at the queue before selecting
 * found the request (1: it leaves its sleep and registers it); r3: the requester's unblock (0 flag already set,
 * 1 saw RUNNING, 2 wakeup, 3 unpark, 4 SELECTING but no selector yet).
 */
@JCStressTest
@Description("IoPoller IO10: interest request + unblock versus the owner's block(): no lost hand-off")
@Outcome(id = {"0, 0, 1", "0, 0, 2", "0, 0, 3", "0, 0, 4"}, expect = ACCEPTABLE,
        desc = "owner consumed the pending wake-up and returns at once (its loop then sees the request)")
@Outcome(id = "1, 0, 3", expect = ACCEPTABLE, desc = "owner would park: the requester's unpark left a permit")
@Outcome(id = {"2, 1, 1", "2, 1, 2", "2, 1, 3", "2, 1, 4"}, expect = ACCEPTABLE,
        desc = "owner would select: it found the request first and leaves its sleep")
@Outcome(id = "2, 0, 2", expect = ACCEPTABLE, desc = "owner would select: the requester's wakeup is sticky")
@Outcome(expect = FORBIDDEN, desc = "owner would block with the request queued and no wake-up delivered")
@State
public class IoPollerInterestHandOffTest {
    private final IoPollerHandOffModel poller = new IoPollerHandOffModel(0, false);

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
