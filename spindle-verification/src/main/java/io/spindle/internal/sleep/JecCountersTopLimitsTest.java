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
 * The packed counters at their top limits, under concurrent updates ({@link JecCounters}): inactive goes to 0xFFFF
 * (ThreadPool.MAX_THREADS), a sleeper registers to 0xFFFE, and the JEC rolls over from 0xFFFFFFFF to 0 (J4: the
 * carry falls off the word). Each field must end exact, whatever the interleaving: no update lost (the operations
 * are atomic on the one word) and no carry into a neighbour field.
 *
 * <p>r1: the JEC getting sleepy returned; r2: whether the registration CAS ever succeeded (1); r3..r5: final
 * inactive, sleeping, JEC.
 */
@JCStressTest
@Description("JecCounters at the 16-bit and 32-bit limits: atomic, no carry between fields, JEC roll-over")
@Outcome(id = "0, 1, 65535, 65534, 0", expect = ACCEPTABLE, desc = "every field exact; the JEC rolled over to 0")
@Outcome(expect = FORBIDDEN, desc = "a lost update or a carry into a neighbour field")
@State
public class JecCountersTopLimitsTest {
    private final JecCounters c = new JecCounters((0xFFFF_FFFFL << 32) | (0xFFFEL << 16) | 0xFFFDL);

    @Actor
    public void worker(IIIII_Result r) {
        c.addInactiveThread();
        // Register as sleeping the way JecSleep does: a CAS from the word just read, retried while it changes.
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
