package io.spindle.internal.sleep;

import io.spindle.internal.event.PoolEvents;
import io.spindle.internal.event.WakeReason;
import io.spindle.internal.job.Failures;
import io.spindle.internal.latch.CoreLatch;

import java.lang.invoke.VarHandle;
import java.util.function.IntFunction;

/**
 * The JOBS_EVENT_COUNTER sleep protocol (rayon-core's, from RFC 5). The prose description, with the invariants
 * J1..J6 and L1 cited below, is in this package's {@code package-info.java}.
 */
public final class JecSleep implements SleepProtocol {
    /**
     * The most yielding rounds before a worker announces it is sleepy (rayon's constant). Benchmarks may vary it with
     * the system property {@code spindle.jec.roundsUntilSleepy}.
     */
    public static final int ROUNDS_UNTIL_SLEEPY = Integer.getInteger("spindle.jec.roundsUntilSleepy", 32);
    /**
     * The fewest yielding rounds of the adaptive limit (A1 in package-info; property
     * {@code spindle.jec.minRoundsUntilSleepy}, default 0: a worker that woke for a lone job sleeps again without a
     * {@code sched_yield}; set it equal to {@link #ROUNDS_UNTIL_SLEEPY} for rayon's fixed count).
     */
    public static final int MIN_ROUNDS_UNTIL_SLEEPY = Math.min(ROUNDS_UNTIL_SLEEPY,
            Math.max(0, Integer.getInteger("spindle.jec.minRoundsUntilSleepy", 0)));
    /** How many sleepers a worker that found work while more stayed visible wakes at most (the cascade, A2). */
    public static final int CASCADE_WAKE_LIMIT = 2;

    /**
     * How a poster judges whether awake idle workers will take its job (RFC 5's open question, A3 in package-info).
     * Internal switch for measurement, chosen per JVM by the system property {@code spindle.jec.idleJudgement}
     * ({@code counters}, the default, or {@code queue}).
     */
    public enum IdleJudgement {
        /** Option B: the precise inactive and sleeping counts ({@code inactive - sleeping} awake idle workers). */
        COUNTERS,
        /** Option A: the local-queue heuristic; wake if everyone else sleeps or the queue already held work. */
        QUEUE
    }

    /** The JVM-wide default, from {@code -Dspindle.jec.idleJudgement}. */
    public static final IdleJudgement IDLE_JUDGEMENT = IdleJudgement.valueOf(
            System.getProperty("spindle.jec.idleJudgement", "counters").trim().toUpperCase(java.util.Locale.ROOT));

    static {
        // Link the failure paths' pause now: its call sites' first execution resolves them, which with the stack
        // exhausted would itself throw (see Failures.pauseAfterRuntimeFailure).
        Failures.pauseAfterRuntimeFailure(0);
    }

    private final JecCounters counters = new JecCounters();
    private final WorkerSleepState[] workers;
    private final IdleJudgement idleJudgement;
    private final PoolEvents events;

    public JecSleep(int threads) {
        this(threads, IDLE_JUDGEMENT);
    }

    public JecSleep(int threads, IdleJudgement idleJudgement) {
        this(threads, idleJudgement, PoolEvents.NONE);
    }

    public JecSleep(int threads, IdleJudgement idleJudgement, PoolEvents events) {
        this(threads, idleJudgement, events, null);
    }

    /** @param blockers each worker's blocker (its IO poller, docs/DESIGN.md §6), or null to park */
    public JecSleep(int threads, IdleJudgement idleJudgement, PoolEvents events,
                    IntFunction<? extends Blocker> blockers) {
        this.idleJudgement = idleJudgement;
        this.events = events;
        SleepProtocols.checkThreads(threads);
        workers = new WorkerSleepState[threads];
        for (int i = 0; i < threads; i++) {
            workers[i] = new WorkerSleepState(SleepProtocols.blockerFor(blockers, i));
        }
    }

    /** For tests and diagnostics. */
    public JecCounters counters() {
        return counters;
    }

    @Override
    public int maxRoundsUntilSleepy() {
        return ROUNDS_UNTIL_SLEEPY;
    }

    // --- the sleeping side ------------------------------------------------------------------------------------------

    @Override
    public void startLooking(IdleState idle) {
        idle.reset();
        if (!idle.countedInactive) {
            counters.addInactiveThread(); // "a thread enters the idle state: increment inactive"
            idle.countedInactive = true; // a plain store right after the step: no call between them can throw
        }
    }

    @Override
    public void leaveIdle(IdleState idle, boolean foundWork) {
        payLeavingDebts(idle, foundWork);
        if (foundWork && idle.foundBySearching()) {
            idle.adaptRoundsAfterFinding(ROUNDS_UNTIL_SLEEPY); // A1, after the debts (our own IO: no reward)
        }
    }

    /** Leaving the idle state: the inactive count, then the cascade (A2) or the hand-on (A4). */
    private void payLeavingDebts(IdleState idle, boolean foundWork) {
        if (!idle.countedInactive) {
            return; // a leaveIdle that threw after its decrement is being retried: the count is right already
        }
        // "A thread leaves the idle state: decrement inactive." SC getAndAdd (J3): the reads of A2 and A4 below come
        // after it in the synchronization order.
        int sleepers = counters.subInactiveThread();
        idle.countedInactive = false; // as in startLooking: the count and the flag move together, even on a throw
        if (sleepers == 0) {
            return; // the hot path: nobody to hand anything to, and no work view is read
        }
        if (foundWork && idle.moreWorkVisible()) {
            // A2: rayon wakes up to two sleepers here so that a burst of new work spreads (the cascade); we do only if
            // more work stayed visible where this job came from: one sparse job used to wake three workers, and the
            // posters' own wake rule already covers every post.
            wakeOwed(Math.min(sleepers, CASCADE_WAKE_LIMIT));
        } else if (idle.anyWorkVisible()) {
            // A4: posters may have counted on us as an awake idle worker (Option B) and woken nobody: several at once
            // (we take at most one job), or one whose job we never looked for (our latch was set, or a step threw).
            // Their counter accesses came before our decrement above, and each published its job before its access,
            // so a job still waiting is visible now: hand the wake-up on to one sleeper, which searches from scratch
            // (and cascades in turn if it finds more).
            wakeOwed(1);
        }
    }

    /**
     * The wake-ups {@link #leaveIdle} owes for work it saw: our inactive count is already gone, so this cannot be
     * undone and done again by the caller. A wake step that throws before it took a count undoes its claim, and one
     * that took it finishes itself (WorkerSleepState.wake); retry until done (E4 in the registry's package-info). A
     * retry after a partial success may wake one more: harmless.
     */
    private void wakeOwed(int numToWake) {
        // E4: exhaustion is retried until done, after a pause made inside the try: a catch block makes no call
        boolean retrying = false;
        while (true) {
            try {
                if (retrying) {
                    Failures.pauseAfterRuntimeFailure(Failures.RUNTIME_FAILURE_BACKOFF_NANOS);
                }
                wakeAnyThreads(numToWake, WakeReason.CASCADE);
                return;
            } catch (VirtualMachineError exhaustion) { // only exhaustion is retried: a bug's exception is thrown
                retrying = true;
            }
        }
    }

    @Override
    public void noWorkFound(IdleState idle, CoreLatch latch) {
        int untilSleepy = idle.roundsUntilSleepy; // adaptive (A1); rayon's fixed count is the upper bound
        if (idle.rounds < untilSleepy) {
            Thread.yield();
            idle.rounds++;
        } else if (idle.rounds == untilSleepy) {
            idle.jecSnapshot = announceSleepy();
            idle.rounds++;
            if (untilSleepy > 0) {
                Thread.yield(); // A1: at the floor (0) the search after announcing follows at once: no sched_yield
            }
        } else {
            // rounds == untilSleepy + 1: one search since announcing; try to sleep
            sleep(idle, latch);
        }
    }

    /** Gets sleepy: turns the JEC even and remembers it (J1: a later post makes it differ). */
    private int announceSleepy() {
        return JecCounters.jobsEventCounter(counters.incrementJecIfActive());
    }

    private void sleep(IdleState idle, CoreLatch latch) {
        int me = idle.workerIndex();
        WorkerSleepState state = workers[me];
        // E3: a sleep whose finally threw may have left its count, and SLEEPY or SLEEPING on this wait's latch; each
        // step below is cheap when there is nothing to repair (an owner-only field, a volatile read).
        undoOwnCount(state);
        latch.wakeUp();
        Object sleepEvent = events.sleepBegin(me); // JFR (null unless recording): before the sequence, by its rule
        // J6: PREPARING before anything a waker acts on (the latch's SLEEPING, our sleeping count), so a waker that saw
        // either can claim us.
        if (!state.prepare()) {
            state.settleEarlierSequence(); // an earlier sequence that threw left the word behind; sets ownsCount
            undoOwnCount(state);           // if it took BLOCKED back
            idle.wakeFully();
            return;
        }
        boolean woken = false;
        try {
            // L1: announce on the latch, so a set() from now on either fails our CASes or sees SLEEPING and wakes us.
            if (!latch.getSleepy()) {
                return; // the latch is set: the caller's probe will see it
            }
            if (!latch.fallAsleep()) {
                idle.wakeFully(); // the latch was set between getSleepy and now
                return;
            }
            while (true) {
                long word = counters.load();
                if (JecCounters.jobsEventCounter(word) != idle.jecSnapshot) {
                    // J1: work was posted since we got sleepy (and we did not find it): search once more.
                    idle.wakePartly(idle.roundsUntilSleepy);
                    return;
                }
                // J1: registering as sleeping is conditional on the JEC being unchanged, in one CAS.
                if (counters.tryAddSleepingThread(word)) {
                    state.ownsCount = true; // our registration, until blocking hands it to a waker (J2); no call since
                    break;
                }
            }
            // J5: one final look at the injector (and our broadcast queue) after the registration, separated from it
            // by a full fence. With the poster's fence (newInjectedJobs), either it sees us sleeping and wakes us, or
            // we see its job here, even if the JEC rolled over (J4).
            VarHandle.fullFence();
            if (idle.hasInjectedOrPrivateWork()) {
                idle.wakeFully();
                return;
            }
            long sleepStart = System.nanoTime(); // A1: how long the sleep lasted decides the next limit
            // J6: a waker claimed us while PREPARING (NOT_BLOCKED: the count stayed ours), or we blocked and a waker
            // took the count (WOKEN), or blocking threw and we took it back (TOOK_BACK: ownsCount again), or our own
            // IO ended the sleep and we took it back (OWN_EVENTS, J7: ownsCount again, undone below).
            int outcome = state.blockIfUnclaimed();
            idle.adaptRoundsAfterSleep(MIN_ROUNDS_UNTIL_SLEEPY, ROUNDS_UNTIL_SLEEPY, System.nanoTime() - sleepStart,
                    outcome == WorkerSleepState.OWN_EVENTS);
            woken = outcome == WorkerSleepState.WOKEN;
            if (outcome == WorkerSleepState.OWN_EVENTS) {
                events.sleepEnded(sleepEvent, me, WakeReason.IO_READY, PoolEvents.NOT_A_WORKER);
            }
            idle.wakeFully();
        } finally {
            // The shallow resets first; the count's undo, the deepest call, last: if it throws, ownsCount remembers it
            // for the next sleep (E3).
            state.endSequence(); // PREPARING or NOTIFIED back to AWAKE (BLOCKED is left to a waker: see prepare)
            latch.wakeUp(); // L1: back to UNSET (from SLEEPY or SLEEPING) unless set; even if a step above threw
            undoOwnCount(state);
        }
        if (woken) {
            // wokenFor/wokenBy were published by the waker's store of AWAKE, which blockIfUnclaimed read.
            events.sleepEnded(sleepEvent, me, state.wokenFor, state.wokenBy);
        }
    }

    /**
     * J2's exceptions: nobody will wake us, so we undo our own registration (after J5's check found work, a claim
     * while PREPARING, or a failed block that we took back). The flag is cleared only after the atomic step returned.
     */
    private void undoOwnCount(WorkerSleepState state) {
        if (state.ownsCount) {
            counters.subSleepingThread();
            state.ownsCount = false; // no call between the atomic step's return and this store
        }
    }

    // --- the posting side -------------------------------------------------------------------------------------------

    @Override
    public void newInternalJobs(int pusherIndex, int numJobs, boolean queueWasEmpty) {
        // No fence for internal jobs (J5): a sleeper that misses one leaves it to the pusher's return to the worker
        // loop, or to a later search or hand-on (package-info, "Internal pushes").
        newJobs(numJobs, queueWasEmpty, true, WakeReason.NEW_INTERNAL_JOB);
    }

    @Override
    public void newInjectedJobs(int numJobs, boolean queueWasEmpty) {
        // J5: the poster's fence, between publishing the job and reading the sleeping count.
        VarHandle.fullFence();
        newJobs(numJobs, queueWasEmpty, false, WakeReason.NEW_INJECTED_JOB);
    }

    @Override
    public void newBroadcastJobs() {
        // Like an injection (J5: the sleeper's final check also looks at its broadcast queue), but every worker has
        // its own job, so every sleeping worker must wake, not "enough" of them.
        VarHandle.fullFence();
        counters.incrementJecIfSleepy();
        for (int i = 0; i < workers.length; i++) {
            wakeSpecificThread(i, WakeReason.BROADCAST);
        }
    }

    /**
     * @param fromWorker whether the poster is one of the workers pushing onto its own deque (Option A applies only then)
     * @param why        what the woken workers' WorkerWoken events report
     */
    private void newJobs(int numJobs, boolean queueWasEmpty, boolean fromWorker, WakeReason why) {
        // J1: turn the JEC odd so that a sleepy worker's registration fails and it searches again.
        long word = counters.incrementJecIfSleepy();
        int sleepers = JecCounters.sleepingThreads(word);
        if (sleepers == 0) {
            return;
        }
        if (!queueWasEmpty) {
            // The queue already held work nobody took: the idle threads are not keeping up, so wake more.
            wakeAnyThreads(Math.min(numJobs, sleepers), why);
        } else if (idleJudgement == IdleJudgement.COUNTERS || !fromWorker) {
            // Option B, and always for injections (A3): Option A reads an empty local queue as "idle thieves are
            // about", which says nothing to a poster outside the pool; a busy worker would be taken for an idle one.
            // Option B: idle searchers will find up to awakeButIdle jobs on their own; wake sleepers for the rest.
            int awakeButIdle = JecCounters.awakeButIdleThreads(word);
            if (awakeButIdle < numJobs) {
                wakeAnyThreads(Math.min(numJobs - awakeButIdle, sleepers), why);
            }
        } else if (sleepers >= workers.length - 1) {
            // Option A, internal pushes only: an empty queue suggests idle thieves, unless everyone else is asleep.
            wakeAnyThreads(Math.min(numJobs, sleepers), why);
        }
    }

    @Override
    public void notifyWorkerLatchIsSet(int workerIndex) {
        wakeSpecificThread(workerIndex, WakeReason.LATCH_SET); // L1: only the latch's owner
    }

    @Override
    public void terminate() {
        // Each worker's terminate latch was set, which woke its owner if it slept on it (L1). Nothing more to do.
    }

    /**
     * Wakes up to {@code numToWake} workers: blocked ones first, then, if too few were blocked, ones still PREPARING.
     * A PREPARING worker may not have registered yet (the poster then counted it as awake and idle); claiming it while
     * a blocked one exists would leave that sleeper asleep for a post that needed it. The second pass keeps J6: a
     * registration the poster counted is claimable in either state.
     */
    private void wakeAnyThreads(int numToWake, WakeReason why) {
        for (int i = 0; numToWake > 0 && i < workers.length; i++) {
            if (wakeSpecificThread(i, why, true)) {
                numToWake--;
            }
        }
        for (int i = 0; numToWake > 0 && i < workers.length; i++) {
            if (wakeSpecificThread(i, why, false)) {
                numToWake--;
            }
        }
    }

    private boolean wakeSpecificThread(int index, WakeReason why) {
        return wakeSpecificThread(index, why, false);
    }

    private boolean wakeSpecificThread(int index, WakeReason why, boolean blockedOnly) {
        // J6: a registered sleeper is PREPARING or BLOCKED, never AWAKE. A PREPARING claim counts as a wake-up: that
        // worker will search instead of blocking. wake() takes the count itself (J2), in the frame of its claim (E4).
        return workers[index].wake(counters, why, blockedOnly) != WorkerSleepState.NOT_CLAIMED;
    }

    @Override
    public long sleeps(int workerIndex) {
        return workers[workerIndex].counts.sleeps();
    }

    @Override
    public long wakeups(int workerIndex) {
        return workers[workerIndex].counts.wakeups();
    }

    @Override
    public int idleWorkersEstimate() {
        return JecCounters.inactiveThreads(counters.load()); // inactive = searching or sleeping (J3's counters)
    }

    @Override
    public boolean isAtRest() {
        long word = counters.load(); // one snapshot of the packed word
        return JecCounters.inactiveThreads(word) == workers.length
                && JecCounters.sleepingThreads(word) == workers.length;
    }

    @Override
    public String toString() {
        return counters.toString();
    }
}
