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
 * IO10 at a poller's first select ({@link IoPollerHandOffModel}): an operation was placed on a channel homed here by
 * another thread (pendingOps 1, its interest request not queued yet) and the selector was never opened (IO2: opened on
 * first use). The owner blocks: it holds IO, so it opens the selector, then, in one critical section, consumes the flag
 * or stores SELECTING, and selects. A waker (a job's wake through WorkerSleepState, or the request's own unblock)
 * unblocks at the same time. Forbidden: the owner selects and the waker delivered nothing: it read SELECTING and a
 * null selector, so it made no {@code wakeup()} (IoPoller's throws, and its finally clears the flag), and the owner
 * sleeps until its select times out (IO8's sweep interval, 1 s) or its IO is ready. Opening the selector before the
 * critical section rules it out: a waker that reads SELECTING entered the monitor after the owner left it, so it sees
 * the selector the owner opened before.
 *
 * <p>r1: the owner (0 returned at once, 2 would select); r2: the waker's unblock (as in
 * {@link IoPollerInterestHandOffTest}).
 */
@JCStressTest
@Description("IoPoller IO10: unblock versus the owner's first select (selector opened before SELECTING)")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "owner consumed the wake-up and returns at once")
@Outcome(id = "2, 2", expect = ACCEPTABLE, desc = "owner would select: the waker's wakeup is sticky")
@Outcome(id = "2, 4", expect = FORBIDDEN, desc = "LOST: owner selects; the waker saw SELECTING with no selector")
@Outcome(expect = FORBIDDEN, desc = "other")
@State
public class IoPollerWakeVsFirstSelectTest {
    private final IoPollerHandOffModel poller = new IoPollerHandOffModel(1, false);

    @Actor
    public void owner(II_Result r) {
        r.r1 = poller.ownerBlock();
    }

    @Actor
    public void waker(II_Result r) {
        r.r2 = poller.unblock();
    }
}
