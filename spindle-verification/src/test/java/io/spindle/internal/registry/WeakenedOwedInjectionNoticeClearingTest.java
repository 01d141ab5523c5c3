package io.spindle.internal.registry;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link OwedInjectionNoticeOweVsDeliverTest} with the delivery weakened: it clears the notice after running it
 * instead of before (and takes {@code any} with a getAndSet of its own VarHandle, the real one's being private, so
 * that the clear's place is the only difference). Must fail: an injection that owes between the notice and the clear
 * loses its notice, and its job sits in the injector with nobody told.
 */
@JCStressTest
@Description("WEAKENED (notice cleared after it ran): OwedInjectionNoticeOweVsDeliverTest must see its forbidden outcome")
@Outcome(id = {"true, false, false", "true, false, true"}, expect = ACCEPTABLE,
        desc = "the delivery's notice came after the second job was queued: it covers the second owe")
@Outcome(id = {"false, true, true", "true, true, true"}, expect = ACCEPTABLE,
        desc = "the second owe came after the delivery cleared the notice: still owed, and any says so")
@Outcome(id = {"false, false, false", "false, false, true"}, expect = FORBIDDEN,
        desc = "LOST NOTICE: the second owe was cleared and no notice after its job was queued covered it")
@Outcome(id = {"false, true, false", "true, true, false"}, expect = FORBIDDEN,
        desc = "STRANDED: owed, but any is false, so no worker looks")
@State
public class WeakenedOwedInjectionNoticeClearingTest {
    private static final VarHandle ANY;

    static {
        try {
            ANY = MethodHandles.lookup().findVarHandle(OwedLatchWakes.class, "any", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final OwedLatchWakes owed = new OwedLatchWakes(2);
    private volatile boolean secondJobQueued;
    private boolean noticeSawSecondJob;

    public WeakenedOwedInjectionNoticeClearingTest() {
        owed.injectionNoticeOwed = true; // an earlier injection's, for the delivery to find
        owed.any = true;
    }

    @Actor
    public void injectionNoticeThrew() {
        secondJobQueued = true; // volatile: the injector's add that precedes the owe
        owed.injectionNoticeOwed = true; // volatile store, then any (volatile)
        owed.any = true;
    }

    @Actor
    public void worker() {
        // OwedLatchWakes.deliver for the notice, with the clear moved after the notice
        if ((boolean) ANY.getAndSet(owed, false) && owed.injectionNoticeOwed) { // volatile RMW, volatile load
            noticeSawSecondJob = secondJobQueued; // the notice: volatile load
            owed.injectionNoticeOwed = false; // WEAKENED (volatile store): erases an owe made since the notice
        }
    }

    @Arbiter
    public void after(ZZZ_Result r) {
        r.r1 = noticeSawSecondJob;
        r.r2 = owed.injectionNoticeOwed;
        r.r3 = owed.any;
    }
}
