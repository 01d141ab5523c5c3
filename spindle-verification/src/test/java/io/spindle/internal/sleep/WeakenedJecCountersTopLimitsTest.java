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

/** {@link JecCountersTopLimitsTest} against {@link WeakenedJecCounters} (non-atomic add). Must fail. */
@JCStressTest
@Description("WEAKENED (non-atomic add): JecCountersTopLimitsTest must see its forbidden outcome")
@Outcome(id = "0, 1, 65535, 65534, 0", expect = ACCEPTABLE, desc = "every field exact; the JEC rolled over to 0")
@Outcome(expect = FORBIDDEN, desc = "a lost update or a carry into a neighbour field")
@State
public class WeakenedJecCountersTopLimitsTest {
    private final WeakenedJecCounters c = new WeakenedJecCounters((0xFFFF_FFFFL << 32) | (0xFFFEL << 16) | 0xFFFDL);

    @Actor
    public void worker(IIIII_Result r) {
        c.addInactiveThread();
        boolean ok = false;
        for (int i = 0; i < 1000 && !ok; i++) {
            ok = c.tryAddSleepingThread(c.load());
        }
        r.r2 = ok ? 1 : 0;
    }

    @Actor
    public void sleepy(IIIII_Result r) {
        r.r1 = JecCounters.jobsEventCounter(c.incrementJecIfActive());
    }

    @Arbiter
    public void check(IIIII_Result r) {
        long w = c.load();
        r.r3 = JecCounters.inactiveThreads(w);
        r.r4 = JecCounters.sleepingThreads(w);
        r.r5 = JecCounters.jobsEventCounter(w);
    }
}
