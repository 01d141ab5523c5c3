package io.spindle.internal.sleep;

/**
 * {@link LatchExitRig} for the JOBS_EVENT_COUNTER protocol. W0 is idle and awake: it started looking (counted as
 * inactive) and keeps yielding in {@code noWorkFound} (its round limit is lifted, so it never gets sleepy: a worker
 * in its spinning rounds). W1 started looking and announced itself sleepy in the constructor (built by the real
 * {@link JecSleep}'s own methods, as {@link JecRig} does); its actor's {@code noWorkFound} registers and blocks, which
 * nothing disturbs, since the poster waits until W1 has blocked. So the poster's {@code newInjectedJobs} reads
 * sleeping = 1 and inactive = 2 until W0 leaves: Option B counts W0 as the awake idle worker who will take the job,
 * and wakes nobody (A3). The A4 rule in {@code leaveIdle} is what must then hand the wake-up on.
 */
public final class JecLatchExitRig extends LatchExitRig {
    private final JecCounters counters;

    /** A rig on the real {@link JecSleep}. */
    public static JecLatchExitRig real() {
        JecSleep s = new JecSleep(2);
        return new JecLatchExitRig(s, s.counters());
    }

    /** For variants (the weakened copies in the test sources): any protocol that keeps its state in JecCounters. */
    public JecLatchExitRig(SleepProtocol sleep, JecCounters counters) {
        super(sleep);
        this.counters = counters;
        sleep.newInternalJobs(1, 1, true);      // earlier work: the JEC is odd (active)
        sleep.startLooking(idle0);              // W0 goes idle: inactive = 1
        idle0.roundsUntilSleepy = Integer.MAX_VALUE; // W0 keeps spinning (yielding rounds) until its latch is set
        sleep.startLooking(idle1);              // W1 goes idle: inactive = 2
        idle1.rounds = idle1.roundsUntilSleepy; // the round that announces (the adaptive limit, A1)
        sleep.noWorkFound(idle1, latch1);       // W1 gets sleepy: JEC even, remembered; its next round sleeps
        long word = counters.load();
        if (idle1.rounds != idle1.roundsUntilSleepy + 1 || JecCounters.jobsEventCounter(word) != idle1.jecSnapshot
                || JecCounters.inactiveThreads(word) != 2 || JecCounters.sleepingThreads(word) != 0) {
            throw new IllegalStateException("rig is not set up: " + JecCounters.describe(word));
        }
    }

    public JecCounters counters() {
        return counters;
    }

    @Override
    protected boolean sleepersAreAsleep() {
        // W1 counts its sleep after its registration, its final check (J5) and its move to BLOCKED, just before it
        // parks: from here a waker finds it BLOCKED and claims it (J6).
        return sleep.sleeps(1) > 0;
    }

    @Override
    protected boolean w1Unwoken() {
        // J2: the waker that claims W1 BLOCKED removes its registration before letting W1 go. W0 never registers (it
        // never gets sleepy), so a sleeping count above 0 is W1, still blocked, and after every waker returned, unwoken.
        return JecCounters.sleepingThreads(counters.load()) > 0;
    }
}
