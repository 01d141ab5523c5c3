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
 * {@link InjectedJobClaimTest} against {@link WeakenedInjectedJob} (the claim without its monitor). Must fail: both the
 * worker and the poster own the job.
 */
@JCStressTest
@Description("WEAKENED (claim without a monitor): InjectedJobClaimTest must see its forbidden outcome")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the worker runs it; the injection stands")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the poster took it back and throws; the worker drops it")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "DOUBLE OWNER: run although its poster was told it failed")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "LOST JOB: nobody owns it")
@State
public class WeakenedInjectedJobClaimNoMonitorTest {
    private final WeakenedInjectedJob job = new WeakenedInjectedJob();

    @Actor
    public void worker(II_Result r) {
        r.r1 = job.claim() ? 1 : 0;
    }

    @Actor
    public void poster(II_Result r) {
        r.r2 = job.claim() ? 1 : 0;
    }
}
