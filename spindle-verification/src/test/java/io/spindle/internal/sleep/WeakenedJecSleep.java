package io.spindle.internal.sleep;

import io.spindle.internal.event.WakeReason;

import io.spindle.internal.latch.CoreLatch;

import java.lang.invoke.VarHandle;

/**
 * TEST ONLY, NEVER IN THE LIBRARY: a copy of {@link JecSleep} with one deliberate weakening, to show that the jcstress
 * tests of the real class can fail (each {@code Weakened*Test} here has the shape of a real test and must report its
 * forbidden outcome). Only the parts the tests reach are copied (the adaptive round limit A1, the JFR events and the
 * retries of {@code wakeOwed} after a failed step, E4, are not); the sleep step ({@code sleep}: the repair of what a
 * failed sequence left, prepare or settleEarlierSequence, latch, registration and {@code ownsCount}, final check,
 * blockIfUnclaimed, endSequence, the undo of an owned count), the wake step ({@code wakeSpecificThread}:
 * {@code WorkerSleepState.wake}) and the posting side are as in JecSleep apart from the marked lines. The sleeper's
 * state is the real {@link WorkerSleepState}.
 */
final class WeakenedJecSleep implements SleepProtocol {
    enum Weakening {
        /** newInjectedJobs without its full fence (J5's PushFence removed). */
        NO_POSTER_FENCE,
        /** The sleeper blocks without the final injector check (J5's ReadJob removed). */
        NO_FINAL_CHECK,
        /**
         * The sleeper compares the JEC, then registers with a CAS from a fresh read of the word: the check and the
         * registration are no longer one atomic step (J1 broken: ordering relaxed).
         */
        SPLIT_REGISTRATION,
        /**
         * leaveIdle as the old {@code workFound} was: it wakes sleepers only when the worker found a job and more work
         * stayed visible (A2's cascade), never on a latch exit, so a post that counted on this awake idle worker
         * (Option B) is not handed on (A4 removed).
         */
        OLD_LATCH_EXIT,
        /**
         * A waker's claim treats PREPARING as not claimable (as if the sleeper were awake): only BLOCKED is claimed
         * ({@code wake} with {@code blockedOnly} always set). A waker that saw the registration (or the latch's
         * SLEEPING) before the sleeper's CAS to BLOCKED (in {@code blockIfUnclaimed}) wakes nobody, and the sleeper
         * then blocks (J6 broken).
         */
        WAKER_SKIPS_PREPARING
    }

    private final Weakening weakening;
    private final JecCounters counters = new JecCounters();
    private final WorkerSleepState[] workers;

    WeakenedJecSleep(int threads, Weakening weakening) {
        this.weakening = weakening;
        workers = new WorkerSleepState[threads];
        for (int i = 0; i < threads; i++) {
            workers[i] = new WorkerSleepState();
        }
    }

    JecCounters counters() {
        return counters;
    }

    @Override
    public void startLooking(IdleState idle) {
        counters.addInactiveThread();
        idle.reset();
    }

    @Override
    public void leaveIdle(IdleState idle, boolean foundWork) {
        int sleepers = counters.subInactiveThread();
        if (sleepers == 0) {
            return;
        }
        if (foundWork && idle.moreWorkVisible()) {
            wakeAnyThreads(Math.min(sleepers, JecSleep.CASCADE_WAKE_LIMIT));
        } else if (weakening == Weakening.OLD_LATCH_EXIT) {
            return; // WEAKENED (OLD_LATCH_EXIT): no hand-on (A4 removed)
        } else if (idle.anyWorkVisible()) {
            wakeAnyThreads(1); // A4
        }
    }

    @Override
    public void noWorkFound(IdleState idle, CoreLatch latch) {
        int untilSleepy = idle.roundsUntilSleepy;
        if (idle.rounds < untilSleepy) {
            Thread.yield();
            idle.rounds++;
        } else if (idle.rounds == untilSleepy) {
            idle.jecSnapshot = JecCounters.jobsEventCounter(counters.incrementJecIfActive());
            idle.rounds++;
            if (untilSleepy > 0) {
                Thread.yield();
            }
        } else {
            sleep(idle, latch);
        }
    }

    /** As {@code JecSleep.sleep}, minus its JFR events and the adaptive round limit (A1). */
    private void sleep(IdleState idle, CoreLatch latch) {
        WorkerSleepState state = workers[idle.workerIndex()];
        // E3: what a sleep whose finally threw left behind (never in these tests; kept as in JecSleep)
        undoOwnCount(state);
        latch.wakeUp();
        // J6: PREPARING before anything a waker acts on (the latch's SLEEPING, our sleeping count)
        if (!state.prepare()) {
            state.settleEarlierSequence(); // only after a step threw, which the tests never provoke
            undoOwnCount(state);
            idle.wakeFully();
            return;
        }
        try {
            if (!latch.getSleepy()) {
                return;
            }
            if (!latch.fallAsleep()) {
                idle.wakeFully();
                return;
            }
            while (true) {
                long word = counters.load();
                if (JecCounters.jobsEventCounter(word) != idle.jecSnapshot) {
                    idle.wakePartly(idle.roundsUntilSleepy);
                    return;
                }
                if (weakening == Weakening.SPLIT_REGISTRATION) {
                    word = counters.load(); // WEAKENED: the CAS no longer covers the JEC that was compared
                }
                if (counters.tryAddSleepingThread(word)) {
                    state.ownsCount = true; // our registration, until blocking hands it to a waker (J2)
                    break;
                }
            }
            VarHandle.fullFence();
            if (weakening != Weakening.NO_FINAL_CHECK && idle.hasInjectedOrPrivateWork()) {
                idle.wakeFully();
                return;
            } // WEAKENED (NO_FINAL_CHECK): the sleeper blocks without looking at the injector
            // J6: NOT_BLOCKED (claimed while PREPARING: the count stayed ours), WOKEN, or TOOK_BACK (ownsCount again)
            state.blockIfUnclaimed();
            idle.wakeFully();
        } finally {
            state.endSequence();
            latch.wakeUp();
            undoOwnCount(state); // J2's exceptions
        }
    }

    /** As {@code JecSleep.undoOwnCount}. */
    private void undoOwnCount(WorkerSleepState state) {
        if (state.ownsCount) {
            counters.subSleepingThread();
            state.ownsCount = false;
        }
    }

    @Override
    public void newInternalJobs(int pusherIndex, int numJobs, boolean queueWasEmpty) {
        newJobs(numJobs, queueWasEmpty);
    }

    @Override
    public void newInjectedJobs(int numJobs, boolean queueWasEmpty) {
        if (weakening != Weakening.NO_POSTER_FENCE) {
            VarHandle.fullFence();
        } // WEAKENED (NO_POSTER_FENCE): the job's store may pass the counters' load below
        newJobs(numJobs, queueWasEmpty);
    }

    @Override
    public void newBroadcastJobs() {
        VarHandle.fullFence();
        counters.incrementJecIfSleepy();
        for (int i = 0; i < workers.length; i++) {
            wakeSpecificThread(i);
        }
    }

    private void newJobs(int numJobs, boolean queueWasEmpty) {
        long word = counters.incrementJecIfSleepy();
        int sleepers = JecCounters.sleepingThreads(word);
        if (sleepers == 0) {
            return;
        }
        int awakeButIdle = JecCounters.awakeButIdleThreads(word);
        if (!queueWasEmpty) {
            wakeAnyThreads(Math.min(numJobs, sleepers));
        } else if (awakeButIdle < numJobs) {
            wakeAnyThreads(Math.min(numJobs - awakeButIdle, sleepers));
        }
    }

    @Override
    public void notifyWorkerLatchIsSet(int workerIndex) {
        wakeSpecificThread(workerIndex);
    }

    @Override
    public void terminate() {}

    private void wakeAnyThreads(int numToWake) {
        for (int i = 0; numToWake > 0 && i < workers.length; i++) { // blocked workers first, as in JecSleep
            if (wakeSpecificThread(i, true)) {
                numToWake--;
            }
        }
        for (int i = 0; numToWake > 0 && i < workers.length; i++) {
            if (wakeSpecificThread(i, false)) {
                numToWake--;
            }
        }
    }

    private boolean wakeSpecificThread(int index) {
        return wakeSpecificThread(index, false);
    }

    private boolean wakeSpecificThread(int index, boolean blockedOnly) {
        // WEAKENED (WAKER_SKIPS_PREPARING): PREPARING is left alone, like AWAKE, by every wake, so a sleeper that
        // registered and has not yet blocked blocks with nobody waking it. The reason only feeds JFR, which these tests
        // do not read.
        boolean onlyBlocked = blockedOnly || weakening == Weakening.WAKER_SKIPS_PREPARING;
        return workers[index].wake(counters, WakeReason.NEW_INJECTED_JOB, onlyBlocked) != WorkerSleepState.NOT_CLAIMED;
    }

    @Override
    public long sleeps(int workerIndex) {
        return workers[workerIndex].counts.sleeps();
    }

    @Override
    public int idleWorkersEstimate() {
        return JecCounters.inactiveThreads(counters.load()); // as JecSleep: not weakened
    }

    @Override
    public boolean isAtRest() {
        throw new UnsupportedOperationException("the jcstress tests never ask a weakened protocol whether it rests");
    }

    @Override
    public long wakeups(int workerIndex) {
        return workers[workerIndex].counts.wakeups();
    }

    static JecRig rig(Weakening weakening) {
        WeakenedJecSleep s = new WeakenedJecSleep(2, weakening);
        return new JecRig(s, s.counters(), null);
    }

    static JecLatchExitRig latchExitRig(Weakening weakening) {
        WeakenedJecSleep s = new WeakenedJecSleep(2, weakening);
        return new JecLatchExitRig(s, s.counters());
    }
}
