package io.spindle.internal.registry;

import io.spindle.internal.job.InjectedJob;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * IO6's owed jobs on the real {@link OwedLatchWakes}: a thread owes a job (a job {@code Registry.injectKept} could not
 * queue, or a list of finished IO operations whose hand-out overflowed, {@code FinishedOps}): it links the job under
 * the owes' monitor and then sets {@code any}, with no call, while a worker delivers a job an earlier owe left. The
 * second job must end delivered exactly once, or still owed with {@code any} set: otherwise its operations never
 * complete and the pool never terminates.
 *
 * <p>r1: the delivery handed the second job to its injector; r2: the second job still linked as owed afterwards; r3:
 * {@code any} afterwards.
 */
@JCStressTest
@Description("OwedLatchWakes: an owed job (link, then any) versus a delivery of an earlier owed job (IO6)")
@Outcome(id = {"true, false, false", "true, false, true"}, expect = ACCEPTABLE,
        desc = "the delivery took the list after the second job was linked: delivered once")
@Outcome(id = "false, true, true", expect = ACCEPTABLE,
        desc = "the second job was linked after the delivery took the list: still owed, and any says so")
@Outcome(id = {"false, false, false", "false, false, true"}, expect = FORBIDDEN,
        desc = "LOST JOB: neither delivered nor owed")
@Outcome(id = "false, true, false", expect = FORBIDDEN,
        desc = "STRANDED: owed, but any is false, so no worker looks")
@Outcome(id = {"true, true, false", "true, true, true"}, expect = FORBIDDEN,
        desc = "TWICE: delivered and still owed, so it would be injected again")
@State
public class OwedJobOweVsDeliverTest {
    private final OwedLatchWakes owed = new OwedLatchWakes(2);
    private final InjectedJob second = new NoJob();
    private boolean deliveredSecond;

    public OwedJobOweVsDeliverTest() {
        InjectedJob earlier = new NoJob(); // an earlier owe's, for the delivery to find
        earlier.nextOwed = owed.owedJobs;
        owed.owedJobs = earlier;
        owed.any = true;
    }

    @Actor
    public void owe() {
        // FinishedOps.owe, and Registry.injectKept's catch block: link under the monitor, then any (volatile)
        synchronized (owed) {
            second.nextOwed = owed.owedJobs;
            owed.owedJobs = second;
        }
        owed.any = true;
    }

    @Actor
    public void worker() {
        owed.deliver(index -> { }, null, null, job -> {
            if (job == second) {
                deliveredSecond = true;
            }
        });
    }

    @Arbiter
    public void after(ZZZ_Result r) {
        r.r1 = deliveredSecond;
        boolean linked = false;
        synchronized (owed) {
            for (InjectedJob j = owed.owedJobs; j != null; j = j.nextOwed) {
                linked |= j == second;
            }
        }
        r.r2 = linked;
        r.r3 = owed.any;
    }

    /** A job that is only owed and delivered here, never run. */
    static final class NoJob extends InjectedJob {
        @Override
        public void execute() {
        }
    }
}
