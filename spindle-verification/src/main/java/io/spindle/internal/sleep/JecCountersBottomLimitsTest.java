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

/**
 * The packed counters at their bottom limits ({@link JecCounters}): one inactive, sleeping worker; a waker removes
 * its registration (J2) and posts (JEC even to odd) while another worker leaves the idle state. Both thread fields go
 * to exactly 0 with no borrow out of a neighbour field, and the cascade count {@code subInactiveThread} returns is
 * min(sleeping, 2) of the word it changed: 1 or 0 depending on which came first.
 *
 * <p>r1: cascade count; r2: the JEC the post returned; r3..r5: final inactive, sleeping, JEC.
 */
@JCStressTest
@Description("JecCounters at zero: atomic decrements, no borrow between fields")
@Outcome(id = "1, 1, 0, 0, 1", expect = ACCEPTABLE, desc = "the worker left idle before the waker's decrement")
@Outcome(id = "0, 1, 0, 0, 1", expect = ACCEPTABLE, desc = "the waker's decrement came first")
@Outcome(expect = FORBIDDEN, desc = "a lost update or a borrow from a neighbour field")
@State
public class JecCountersBottomLimitsTest {
    private final JecCounters c = new JecCounters((0L << 32) | (1L << 16) | 1L);

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
