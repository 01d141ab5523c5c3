package io.spindle.internal.sleep;

import java.lang.reflect.Field;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * {@link SleeperRig} for the SLEEPY_WORKER protocol ({@link SleepyWorkerSleep}, rayon-core's legacy sleep module): a
 * one-worker pool whose worker 0 is idle at one of the seed's three stages. The injector is a real
 * {@code ConcurrentLinkedQueue}, as in the registry: the protocol's scenario-1 argument relies on its append being a
 * volatile CAS (S5 in package-info).
 *
 * <p>The sleeper runs the worker loop's idle rounds ({@link #sleeperLoop}) with a fake search. The yielding rounds
 * between getting sleepy and falling asleep are cut: a worker that gets sleepy in the loop searches once more and
 * then falls asleep, as with ROUNDS_UNTIL_ASLEEP = ROUNDS_UNTIL_SLEEPY + 1, the least S3 allows; stage
 * {@link Stage#SLEEPY} keeps one round that re-reads the word (scenario 2's check) before that.
 *
 * <p>Lost wake-up, without timing: after the tickler's call returned, the sleeper is waiting on the protocol's
 * condition. A tickle that saw the sleeping bit signals under the lock before it returns, and a sleeper waits only
 * after its CAS, holding that lock; so a sleeper still waiting after the only tickle returned was not woken and never
 * will be. The rig reads the protocol's private lock, condition and generation by reflection (observation only).
 */
public final class SleepyRig extends SleeperRig {
    /** Where worker 0 is when the actors start. */
    public enum Stage {
        /** Awake; its next failed search makes it try to become the sleepy worker (scenario 1). */
        ABOUT_TO_GET_SLEEPY,
        /** The sleepy worker; it searches and checks it is still sleepy before it falls asleep (scenario 2). */
        SLEEPY,
        /** The sleepy worker at the round that falls asleep (scenario 3). */
        ABOUT_TO_FALL_ASLEEP
    }

    private final ReentrantLock lock;
    private final Condition tickled;
    private final Field generation;

    public static SleepyRig real(Stage stage) {
        return new SleepyRig(new SleepyWorkerSleep(1), stage);
    }

    /** For variants (the weakened copy in the test sources), which must have the same private fields. */
    public SleepyRig(SleepProtocol sleep, Stage stage) {
        super(sleep, null, true);
        try {
            Field l = sleep.getClass().getDeclaredField("lock");
            Field c = sleep.getClass().getDeclaredField("tickled");
            generation = sleep.getClass().getDeclaredField("generation");
            l.setAccessible(true);
            c.setAccessible(true);
            generation.setAccessible(true);
            lock = (ReentrantLock) l.get(sleep);
            tickled = (Condition) c.get(sleep);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        sleep.startLooking(idle);
        idle.rounds = SleepyWorkerSleep.ROUNDS_UNTIL_SLEEPY;
        if (stage != Stage.ABOUT_TO_GET_SLEEPY) {
            sleep.noWorkFound(idle, latch); // becomes the sleepy worker
            if (idle.rounds != SleepyWorkerSleep.ROUNDS_UNTIL_SLEEPY + 1) {
                throw new IllegalStateException("rig did not get sleepy: " + sleep);
            }
            idle.rounds = stage == Stage.SLEEPY ? lastSleepyRound() : SleepyWorkerSleep.ROUNDS_UNTIL_ASLEEP;
        }
    }

    private static int lastSleepyRound() {
        return Math.max(SleepyWorkerSleep.ROUNDS_UNTIL_SLEEPY + 1, SleepyWorkerSleep.ROUNDS_UNTIL_ASLEEP - 1);
    }

    /**
     * Sleeper: the worker loop's inner loop (search, else noWorkFound) until it finds work, is told work came (it is no
     * longer the sleepy one), or has blocked and been woken.
     */
    public int sleeperLoop(BooleanSupplier search) {
        while (true) {
            if (search.getAsBoolean()) {
                sleep.leaveIdle(idle, true);
                return sawItInSearch();
            }
            int before = idle.rounds;
            sleep.noWorkFound(idle, latch);
            if (sleep.sleeps(0) > 0) {
                return tryToSleepDone(BLOCKED);
            }
            if (before >= SleepyWorkerSleep.ROUNDS_UNTIL_ASLEEP || idle.rounds == 0) {
                return tryToSleepDone(COUNTER_SAW_IT); // tickled: no longer the sleepy one (scenario 2)
            }
            if (before == SleepyWorkerSleep.ROUNDS_UNTIL_SLEEPY && idle.rounds == before + 1) {
                idle.rounds = SleepyWorkerSleep.ROUNDS_UNTIL_ASLEEP; // got sleepy: one more search, then fall asleep
            }
        }
    }

    @Override
    protected boolean blockedAndUnwoken() {
        if (sleep.sleeps(0) == 0) {
            return false;
        }
        lock.lock(); // a sleeper between its CAS and its wait holds the lock: this waits until it waits
        try {
            return lock.hasWaiters(tickled);
        } finally {
            lock.unlock();
        }
    }

    @Override
    protected void rescue() {
        lock.lock();
        try {
            generation.setInt(sleep, generation.getInt(sleep) + 1);
            tickled.signalAll();
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    protected int sleeperPathCode() {
        return COUNTER_SAW_IT;
    }
}
