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
 * {@link OwedJobOweVsDeliverTest} with the owe weakened: it sets {@code any} before it links the job instead of after.
 * Must fail: a delivery that takes {@code any} and the list between the two leaves the job linked with {@code any}
 * false, so no worker looks for it until some other owe.
 */
@JCStressTest
@Description("WEAKENED (any set before the link): OwedJobOweVsDeliverTest must see its forbidden outcome")
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
public class WeakenedOwedJobSignalBeforeLinkTest {
    private final OwedLatchWakes owed = new OwedLatchWakes(2);
    private final InjectedJob second = new OwedJobOweVsDeliverTest.NoJob();
    private boolean deliveredSecond;

    public WeakenedOwedJobSignalBeforeLinkTest() {
        InjectedJob earlier = new OwedJobOweVsDeliverTest.NoJob();
        earlier.nextOwed = owed.owedJobs;
        owed.owedJobs = earlier;
        owed.any = true;
    }

    @Actor
    public void owe() {
        owed.any = true; // WEAKENED: the signal before the link
        synchronized (owed) {
            second.nextOwed = owed.owedJobs;
            owed.owedJobs = second;
        }
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
}
