package io.spindle.internal.sleep;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/** {@link JecCountersBottomLimitsTest} against {@link WeakenedJecCounters} (non-atomic subtract). Must fail. */
@JCStressTest
@Description("WEAKENED (non-atomic subtract): JecCountersBottomLimitsTest must see its forbidden outcome")
@Outcome(id = "1, 1, 0, 0, 1", expect = ACCEPTABLE, desc = "the worker left idle before the waker's decrement")
@Outcome(id = "0, 1, 0, 0, 1", expect = ACCEPTABLE, desc = "the waker's decrement came first")
@Outcome(expect = FORBIDDEN, desc = "a lost update or a borrow from a neighbour field")
@State
public class WeakenedJecCountersBottomLimitsTest {
    private final WeakenedJecCounters c = new WeakenedJecCounters((1L << 16) | 1L);

    @Actor
    public void leavesIdle(IIIII_Result r) {
        r.r1 = c.subInactiveThread();
    }

    @Actor
    public void waker(IIIII_Result r) {
        c.subSleepingThread();
        r.r2 = JecCounters.jobsEventCounter(c.incrementJecIfSleepy());
    }

    @Arbiter
    public void check(IIIII_Result r) {
        long w = c.load();
        r.r3 = JecCounters.inactiveThreads(w);
        r.r4 = JecCounters.sleepingThreads(w);
        r.r5 = JecCounters.jobsEventCounter(w);
    }
}
