package io.spindle.internal.registry;

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
 * IO6's owed injection notice (E4) on the real {@link OwedLatchWakes}: an injection queues its job and, the sleep
 * protocol's notification having thrown, owes the notice (two volatile stores, as {@code Registry.injectKept}'s catch
 * block does), while a worker delivers the notice an earlier injection owed. The second owe must end covered by a
 * notice made after its job was queued, or still owed with {@code any} set: otherwise the job sits in the injector
 * with nobody told, and every worker may sleep past it.
 *
 * <p>r1: the delivery's notice saw the second job queued; r2: the notice still owed afterwards; r3: {@code any}
 * afterwards.
 */
@JCStressTest
@Description("OwedLatchWakes: an injection's owed notice versus a delivery of an earlier owed notice (IO6, E4)")
@Outcome(id = {"true, false, false", "true, false, true"}, expect = ACCEPTABLE,
        desc = "the delivery's notice came after the second job was queued: it covers the second owe")
@Outcome(id = {"false, true, true", "true, true, true"}, expect = ACCEPTABLE,
        desc = "the second owe came after the delivery cleared the notice: still owed, and any says so")
@Outcome(id = {"false, false, false", "false, false, true"}, expect = FORBIDDEN,
        desc = "LOST NOTICE: the second owe was cleared and no notice after its job was queued covered it")
@Outcome(id = {"false, true, false", "true, true, false"}, expect = FORBIDDEN,
        desc = "STRANDED: owed, but any is false, so no worker looks")
@State
public class OwedInjectionNoticeOweVsDeliverTest {
    private final OwedLatchWakes owed = new OwedLatchWakes(2);
    private volatile boolean secondJobQueued;
    private boolean noticeSawSecondJob;

    public OwedInjectionNoticeOweVsDeliverTest() {
        owed.injectionNoticeOwed = true; // an earlier injection's, for the delivery to find
        owed.any = true;
    }

    @Actor
    public void injectionNoticeThrew() {
        secondJobQueued = true; // volatile: the injector's add (a CAS in the queue's offer) that precedes the owe
        owed.injectionNoticeOwed = true; // volatile store, then any (volatile): injectKept's catch block
        owed.any = true;
    }

    @Actor
    public void worker() {
        // the notice wakes a sleeper, which reads the injector; no flag is owed, so the waker is never called
        owed.deliver(index -> { }, () -> noticeSawSecondJob = secondJobQueued);
    }

    @Arbiter
    public void after(ZZZ_Result r) {
        r.r1 = noticeSawSecondJob;
        r.r2 = owed.injectionNoticeOwed;
        r.r3 = owed.any;
    }
}
