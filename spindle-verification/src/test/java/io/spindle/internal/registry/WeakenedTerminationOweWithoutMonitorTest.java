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
 * {@link TerminationOweVsReleaseTest} with the owing site weakened: {@code owed++} without the monitor, racing with
 * the release's settle (which reads and zeroes {@code owed} inside it). Must fail: the settle zeroes over the owing,
 * the count is lost and the pool never terminates.
 */
@JCStressTest
@Description("WEAKENED (owing without the monitor): TerminationOweVsReleaseTest must see its forbidden outcome")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the release (or its settle) ended the count")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the release missed the owing; the waiter's settle ended the count")
@Outcome(id = {"0, 0", "1, 0"}, expect = FORBIDDEN, desc = "LOST COUNT: the pool never terminates")
@Outcome(expect = FORBIDDEN, desc = "terminated twice, or an impossible order")
@State
public class WeakenedTerminationOweWithoutMonitorTest {
    private final AtomicInteger terminations = new AtomicInteger();
    private final Termination termination = new Termination(terminations::incrementAndGet);

    public WeakenedTerminationOweWithoutMonitorTest() {
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
        termination.owed++; // WEAKENED: no monitor, so a concurrent settle's read-and-zero can erase it
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
