package io.spindle.internal.sleep;

import io.spindle.internal.event.WakeReason;

import io.spindle.internal.latch.CoreLatch;

import java.lang.invoke.VarHandle;

/**
 * TEST ONLY, NEVER IN THE LIBRARY: a copy of {@link JecSleep} with one deliberate weakening, to show that the jcstress
 * tests of the real class can fail (each {@code Weakened*Test} here has the shape of a real test and must report its
 * forbidden outcome). Only the parts the tests reach are copied (the adaptive round limit A1 is not); the sleep step
 * and the posting side are as in JecSleep apart from the marked lines.
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
        OLD_LATCH_EXIT
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
            Thread.yield();
        } else {
            sleep(idle, latch);
        }
    }

    private void sleep(IdleState idle, CoreLatch latch) {
        if (!latch.getSleepy()) {
            return;
        }
        WorkerSleepState state = workers[idle.workerIndex()];
        state.lock.lock();
        try {
            if (!latch.fallAsleep()) {
                idle.wakeFully();
                return;
            }
            while (true) {
                long word = counters.load();
                if (JecCounters.jobsEventCounter(word) != idle.jecSnapshot) {
                    idle.wakePartly(idle.roundsUntilSleepy);
                    latch.wakeUp();
                    return;
                }
                if (weakening == Weakening.SPLIT_REGISTRATION) {
                    word = counters.load(); // WEAKENED: the CAS no longer covers the JEC that was compared
                }
                if (counters.tryAddSleepingThread(word)) {
                    break;
                }
            }
            VarHandle.fullFence();
            if (weakening != Weakening.NO_FINAL_CHECK && idle.hasInjectedOrPrivateWork()) {
                counters.subSleepingThread();
            } else {
                state.isBlocked = true;
                state.blockUntilWoken();
            }
        } finally {
            state.lock.unlock();
        }
        idle.wakeFully();
        latch.wakeUp();
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
        for (int i = 0; numToWake > 0 && i < workers.length; i++) {
            if (wakeSpecificThread(i)) {
                numToWake--;
            }
        }
    }

    private boolean wakeSpecificThread(int index) {
        WorkerSleepState state = workers[index];
        state.lock.lock();
        try {
            if (!state.isBlocked) {
                return false;
            }
            state.signalLocked(WakeReason.NEW_INJECTED_JOB); // the reason only feeds JFR, which these tests do not read
            counters.subSleepingThread();
            state.isBlocked = false;
            return true;
        } finally {
            state.lock.unlock();
        }
    }

    @Override
    public long sleeps(int workerIndex) {
        return workers[workerIndex].counts.sleeps();
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
