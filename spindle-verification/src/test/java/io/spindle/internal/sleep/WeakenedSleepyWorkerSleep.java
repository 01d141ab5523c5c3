package io.spindle.internal.sleep;

import io.spindle.internal.latch.CoreLatch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * TEST ONLY, NEVER IN THE LIBRARY: a copy of {@link SleepyWorkerSleep} with one deliberate weakening per legacy-seed
 * scenario, to show that the scenario tests can fail. Field names match the real class ({@link SleepyRig} observes
 * {@code lock}, {@code tickled}, {@code generation}); apart from the marked lines it is the real algorithm.
 */
final class WeakenedSleepyWorkerSleep implements SleepProtocol {
    enum Weakening {
        /** Scenario 1: becoming sleepy is a release store, not a SeqCst CAS (the following search may pass it). */
        RELAXED_GET_SLEEPY,
        /** Scenario 2: falling asleep checks "still sleepy", then stores the sleeping bit: two steps, not one CAS. */
        CHECK_THEN_FALL_ASLEEP,
        /** Scenario 3: the sleeper CASes to the sleeping bit before it takes the lock it waits under. */
        CAS_BEFORE_LOCK
    }

    static final long AWAKE = 0L;
    static final long SLEEPING = 1L;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(WeakenedSleepyWorkerSleep.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Weakening weakening;
    private volatile long state;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition tickled = lock.newCondition();
    private int generation;
    private final SleepCounts[] counts;

    WeakenedSleepyWorkerSleep(int threads, Weakening weakening) {
        this.weakening = weakening;
        counts = SleepCounts.forWorkers(threads);
    }

    static SleepyRig rig(Weakening weakening, SleepyRig.Stage stage) {
        return new SleepyRig(new WeakenedSleepyWorkerSleep(1, weakening), stage);
    }

    @Override
    public void startLooking(IdleState idle) {
        idle.reset();
    }

    @Override
    public void leaveIdle(IdleState idle, boolean foundWork) {
        if (idle.rounds > SleepyWorkerSleep.ROUNDS_UNTIL_SLEEPY) {
            stopBeingSleepy(idle.workerIndex());
        }
        idle.reset();
    }

    @Override
    public void noWorkFound(IdleState idle, CoreLatch latch) {
        int rounds = idle.rounds;
        if (rounds < SleepyWorkerSleep.ROUNDS_UNTIL_SLEEPY) {
            Thread.yield();
            idle.rounds = rounds + 1;
        } else if (rounds == SleepyWorkerSleep.ROUNDS_UNTIL_SLEEPY) {
            Thread.yield();
            if (getSleepy(idle.workerIndex())) {
                idle.rounds = rounds + 1;
            }
        } else if (rounds < SleepyWorkerSleep.ROUNDS_UNTIL_ASLEEP) {
            Thread.yield();
            if (SleepyWorkerSleep.workerIsSleepy((long) STATE.getVolatile(this), idle.workerIndex())) {
                idle.rounds = rounds + 1;
            } else {
                idle.rounds = 0;
            }
        } else {
            sleep(idle, latch);
        }
    }

    private boolean getSleepy(int workerIndex) {
        while (true) {
            long word = (long) STATE.getVolatile(this);
            if (SleepyWorkerSleep.anyWorkerSleepy(word)) {
                return false;
            }
            if (weakening == Weakening.RELAXED_GET_SLEEPY) {
                STATE.setRelease(this, word | SleepyWorkerSleep.sleepyId(workerIndex)); // WEAKENED: not SeqCst
                return true;
            }
            if (STATE.compareAndSet(this, word, word | SleepyWorkerSleep.sleepyId(workerIndex))) {
                return true;
            }
        }
    }

    private void stopBeingSleepy(int workerIndex) {
        long word = (long) STATE.getVolatile(this);
        if (SleepyWorkerSleep.workerIsSleepy(word, workerIndex)) {
            STATE.compareAndSet(this, word, word & SLEEPING);
        }
    }

    private void sleep(IdleState idle, CoreLatch latch) {
        int me = idle.workerIndex();
        if (!latch.getSleepy()) {
            stopBeingSleepy(me);
            idle.wakeFully();
            return;
        }
        SleepCounts count = counts[me];
        boolean casFirst = weakening == Weakening.CAS_BEFORE_LOCK;
        boolean fellAsleep = false;
        if (casFirst) {
            long word = (long) STATE.getVolatile(this);
            // WEAKENED: the CAS to the sleeping bit happens before we hold the lock we wait under
            fellAsleep = SleepyWorkerSleep.workerIsSleepy(word, me) && STATE.compareAndSet(this, word, SLEEPING);
        }
        lock.lock();
        try {
            if (!latch.fallAsleep()) {
                stopBeingSleepy(me);
                idle.wakeFully();
                return;
            }
            if (!casFirst) {
                long word = (long) STATE.getVolatile(this);
                if (!SleepyWorkerSleep.workerIsSleepy(word, me)) {
                    latch.wakeUp();
                    idle.wakeFully();
                    return;
                }
                if (weakening == Weakening.CHECK_THEN_FALL_ASLEEP) {
                    STATE.setVolatile(this, SLEEPING); // WEAKENED: a store after the check, not a CAS from it
                    fellAsleep = true;
                } else {
                    fellAsleep = STATE.compareAndSet(this, word, SLEEPING);
                }
            }
            int ourGeneration = generation;
            if (fellAsleep) {
                count.countSleep();
                do {
                    tickled.awaitUninterruptibly();
                } while (generation == ourGeneration);
                count.countWakeup();
            }
        } finally {
            lock.unlock();
        }
        latch.wakeUp();
        idle.wakeFully();
    }

    private void tickle() {
        if ((long) STATE.getVolatile(this) != AWAKE) {
            long old = (long) STATE.getAndSet(this, AWAKE);
            if (SleepyWorkerSleep.anyoneSleeping(old)) {
                lock.lock();
                try {
                    generation++;
                    tickled.signalAll();
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    @Override
    public void newInternalJobs(int pusherIndex, int numJobs, boolean queueWasEmpty) {
        tickle();
    }

    @Override
    public void newInjectedJobs(int numJobs, boolean queueWasEmpty) {
        tickle();
    }

    @Override
    public void newBroadcastJobs() {
        tickle();
    }

    @Override
    public void notifyWorkerLatchIsSet(int workerIndex) {
        tickle();
    }

    @Override
    public void terminate() {
        tickle();
    }

    @Override
    public long sleeps(int workerIndex) {
        return counts[workerIndex].sleeps();
    }

    @Override
    public int idleWorkersEstimate() {
        long s = state; // as SleepyWorkerSleep: not weakened
        return s == 0L ? 0 : (s & 1L) != 0L ? counts.length - 1 : 1;
    }

    @Override
    public boolean isAtRest() {
        throw new UnsupportedOperationException("the jcstress tests never ask a weakened protocol whether it rests");
    }

    @Override
    public long wakeups(int workerIndex) {
        return counts[workerIndex].wakeups();
    }
}
