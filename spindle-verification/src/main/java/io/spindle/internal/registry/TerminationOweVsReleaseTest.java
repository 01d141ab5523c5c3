package io.spindle.internal.registry;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * E1's give-back without a call ({@code Termination.owed}) on the real {@link Termination}, after shutdown: a
 * submission that failed owes its count (inside the monitor, as Registry's catch blocks do) while the last running
 * job releases its own and settles what it sees owed (an earlier failure's count is owed from the start, so that the
 * settle's read-and-zero races with the owing). The arbiter then settles as a wait for termination does.
 * The pool must terminate exactly once: an owed count lost (never settled) or settled twice is forbidden.
 *
 * <p>r1: terminations seen right after both actors (0 if the release missed the owing: the wait settles it); r2:
 * terminations after the arbiter's settle.
 */
@JCStressTest
@Description("Termination: a failed submission's owed count versus the last job's release, after shutdown (E1)")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the release (or its settle) ended the count")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the release missed the owing; the waiter's settle ended the count")
@Outcome(id = {"0, 0", "1, 0"}, expect = FORBIDDEN, desc = "LOST COUNT: the pool never terminates")
@Outcome(expect = FORBIDDEN, desc = "terminated twice, or an impossible order")
@State
public class TerminationOweVsReleaseTest {
    private final AtomicInteger terminations = new AtomicInteger();
    private final Termination termination = new Termination(terminations::incrementAndGet);

    public TerminationOweVsReleaseTest() {
        termination.tryAcquireExternal(); // the running job
        termination.tryAcquireExternal(); // the submission that will fail
        termination.tryAcquireExternal(); // an earlier failed one, already owed: the release has a settle to make
        termination.shutdown();
        synchronized (termination) {
            termination.owed++;
        }
    }

    @Actor
    public void failedSubmission() {
        synchronized (termination) {
            termination.owed++;
        }
    }

    @Actor
    public void lastJobEnds() {
        termination.release();
    }

    @Arbiter
    public void waiter(II_Result r) {
        r.r1 = terminations.get();
        termination.settleOwed();
        r.r2 = terminations.get();
    }
}
