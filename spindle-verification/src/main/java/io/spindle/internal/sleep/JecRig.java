package io.spindle.internal.sleep;

import io.spindle.internal.latch.CoreLatch;
import io.spindle.internal.latch.LatchOwner;

import java.util.function.Function;

/**
 * {@link SleeperRig} for the JOBS_EVENT_COUNTER protocol: worker 0 of a two-worker pool is sleepy (it announced and
 * remembered the JEC, and its last search is done), so its next {@code noWorkFound} tries to fall asleep. Built by
 * the real {@link JecSleep}'s own methods; only the yielding rounds before "sleepy" are skipped ({@code idle.rounds}
 * is set to the round that announces: those rounds only call {@code Thread.yield}).
 *
 * <p>Worker 1 is the internal poster when a test needs one; it is awake (not inactive), as a pushing worker is.
 */
public final class JecRig extends SleeperRig {
    private final JecCounters counters;

    /** A rig on the real {@link JecSleep}. */
    public static JecRig real() {
        JecSleep s = new JecSleep(2);
        return new JecRig(s, s.counters(), null);
    }

    /** A rig on the real {@link JecSleep} whose sleeper waits for {@code latch(sleep)} instead of a plain latch. */
    public static JecRig real(Function<LatchOwner, CoreLatch> latch) {
        JecSleep s = new JecSleep(2);
        return new JecRig(s, s.counters(), latch);
    }

    /**
     * A rig on the real {@link JecSleep} whose sleeper's final check (J5) reads {@code finalCheck} instead of the
     * injector: the promotion tests ({@code io.spindle.internal.lazy}) give it the promotion slots (LZ6).
     */
    public static JecRig real(IdleState.WorkView finalCheck) {
        JecSleep s = new JecSleep(2);
        return new JecRig(s, s.counters(), null, finalCheck);
    }

    /** For variants (the weakened copies in the test sources): any protocol that keeps its state in JecCounters. */
    public JecRig(SleepProtocol sleep, JecCounters counters, Function<LatchOwner, CoreLatch> latch) {
        this(sleep, counters, latch, null);
    }

    /** As the constructor above, with the sleeper's final check given (null: the injector). */
    public JecRig(SleepProtocol sleep, JecCounters counters, Function<LatchOwner, CoreLatch> latch,
            IdleState.WorkView finalCheck) {
        super(sleep, latch, false, finalCheck);
        this.counters = counters;
        sleep.newInternalJobs(1, 1, true);      // earlier work by worker 1: the JEC is odd (active)
        sleep.startLooking(idle);               // worker 0 goes idle: inactive = 1
        idle.rounds = idle.roundsUntilSleepy;   // the round that announces (the adaptive limit, A1)
        sleep.noWorkFound(idle, this.latch);    // gets sleepy: JEC even, remembered in idle.jecSnapshot
        if (idle.rounds != idle.roundsUntilSleepy + 1 || JecCounters.jobsEventCounter(counters.load())
                != idle.jecSnapshot) {
            throw new IllegalStateException("rig is not sleepy: " + counters + ", rounds=" + idle.rounds);
        }
    }

    public JecCounters counters() {
        return counters;
    }

    /**
     * Puts the rig where the JEC cannot help (J4, J5): a post by worker 1 after the sleeper got sleepy, after which the
     * sleeper's remembered JEC equals the current, odd one. An injector then finds the JEC odd and only reads the
     * counters, as when its post came before the sleeper's announcement in the JEC's order, or after 2^32 events
     * (roll-over). From here only the two fences and the final injector check (J5) can save an injected job. (The
     * spin model shows the poster's fence is needed even without roll-over: spindle-verification/model/jec.pml, POSTER_FENCE=0.)
     */
    public JecRig rolledOver() {
        sleep.newInternalJobs(1, 1, true);
        idle.jecSnapshot = JecCounters.jobsEventCounter(counters.load());
        return this;
    }

    @Override
    protected boolean blockedAndUnwoken() {
        // J2: the waker that claims the sleeper BLOCKED removes its registration before it lets the sleeper go (and a
        // sleeper claimed while PREPARING never blocks: sleeps stays 0). After the waker's own post has returned, a
        // blocked sleeper that is still counted has nobody waking it.
        return sleep.sleeps(0) > 0 && JecCounters.sleepingThreads(counters.load()) > 0;
    }

    @Override
    protected int sleeperPathCode() {
        if (idle.rounds == idle.roundsUntilSleepy) {
            return COUNTER_SAW_IT;              // wakePartly: the JEC changed (J1)
        }
        return FINAL_CHECK_OR_LATCH_SAW_IT;    // wakeFully after the final check (J5) or a failed latch CAS (L1),
                                                // or rounds unchanged: getSleepy failed because the latch was set
    }
}
