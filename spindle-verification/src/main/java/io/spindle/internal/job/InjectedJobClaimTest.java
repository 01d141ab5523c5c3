package io.spindle.internal.job;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * E1 in the registry package: an injected job whose poster's notification threw is taken back by its poster, unless a
 * worker that polled it claimed it first. The real {@link InjectedJob#claim()} on both sides (the poster's side in
 * {@code Registry.inject} is the same body written out inline, so that it makes no call at a stack edge). Exactly one
 * must own the job: both would run a task whose poster was told it failed (and release its count twice); neither
 * would drop it unrun while its poster waits for it.
 *
 * <p>r1: 1 if the worker's claim succeeded (it runs the job); r2: 1 if the poster's take-back did (it throws).
 */
@JCStressTest
@Description("InjectedJob: a worker's claim versus the poster's take-back (registry E1)")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the worker runs it; the injection stands")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the poster took it back and throws; the worker drops it")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "DOUBLE OWNER: run although its poster was told it failed")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "LOST JOB: nobody owns it")
@State
public class InjectedJobClaimTest {
    private final InjectedJob job = new InjectedJob() {
        @Override
        public void execute() {
        }
    };

    @Actor
    public void worker(II_Result r) {
        r.r1 = job.claim() ? 1 : 0;
    }

    @Actor
    public void poster(II_Result r) {
        r.r2 = job.claim() ? 1 : 0;
    }
}
