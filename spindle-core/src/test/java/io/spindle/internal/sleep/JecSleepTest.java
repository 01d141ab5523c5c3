package io.spindle.internal.sleep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.spindle.internal.latch.CoreLatch;
import io.spindle.internal.latch.LatchOwner;
import io.spindle.internal.latch.WorkerLatch;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Drives the JOBS_EVENT_COUNTER protocol's steps directly, one invariant of package-info at a time. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JecSleepTest {

    private static WorkerLatch latchFor(JecSleep sleep, int worker) {
        LatchOwner owner = sleep::notifyWorkerLatchIsSet;
        return new WorkerLatch(owner, worker);
    }

    /** Runs noWorkFound until the worker is at the sleep step (announced sleepy, searched once more). */
    private static void idleUntilSleepy(JecSleep sleep, IdleState idle, CoreLatch latch) {
        sleep.startLooking(idle);
        while (idle.rounds <= idle.roundsUntilSleepy) {
            sleep.noWorkFound(idle, latch);
        }
    }

    private static void awaitSleeping(JecSleep sleep, int n) throws InterruptedException {
        while (JecCounters.sleepingThreads(sleep.counters().load()) != n) {
            Thread.sleep(1);
        }
    }

    @Test
    void aPostAfterGettingSleepyKeepsTheWorkerAwake() {
        JecSleep sleep = new JecSleep(2);
        IdleState idle = new IdleState(0, () -> false);
        WorkerLatch latch = latchFor(sleep, 0);
        idleUntilSleepy(sleep, idle, latch);
        sleep.newInternalJobs(1, 1, true); // J1: JEC turns odd, differs from the snapshot
        sleep.noWorkFound(idle, latch);  // must return without blocking
        assertEquals(0, JecCounters.sleepingThreads(sleep.counters().load()));
        assertEquals(idle.roundsUntilSleepy, idle.rounds, "searches once more, then gets sleepy again");
        assertEquals(CoreLatch.UNSET, latch.state());
        assertEquals(0, sleep.sleeps(0));
    }

    @Test
    void theFinalInjectorCheckUndoesTheRegistration() {
        JecSleep sleep = new JecSleep(1);
        AtomicBoolean injected = new AtomicBoolean(true); // e.g. posted while the JEC rolled over
        IdleState idle = new IdleState(0, injected::get);
        WorkerLatch latch = latchFor(sleep, 0);
        idleUntilSleepy(sleep, idle, latch);
        sleep.noWorkFound(idle, latch); // registers, fences, sees the injected job: must not block (J5)
        long word = sleep.counters().load();
        assertEquals(0, JecCounters.sleepingThreads(word), "the worker undid its own registration (J2's exception)");
        assertEquals(1, JecCounters.inactiveThreads(word));
        assertEquals(0, sleep.sleeps(0));
        assertEquals(0, idle.rounds, "woken fully");
    }

    @Test
    void anInjectionWakesASleeperAndTheWakerDecrementsSleeping() throws Exception {
        JecSleep sleep = new JecSleep(2);
        IdleState idle = new IdleState(0, () -> false);
        WorkerLatch latch = latchFor(sleep, 0);
        Thread worker = new Thread(() -> {
            idleUntilSleepy(sleep, idle, latch);
            sleep.noWorkFound(idle, latch); // blocks
        });
        worker.start();
        awaitSleeping(sleep, 1);
        // The counters show the worker registered, which it is before it blocks: a wake-up that came now would claim it
        // while PREPARING, and it would never block nor count a sleep (CI once saw sleeps 0 here). Its sleep counts
        // once it is BLOCKED, just before it blocks: from then on a wake-up is a blocked sleeper's.
        while (sleep.sleeps(0) == 0) {
            Thread.sleep(1);
        }
        sleep.newInjectedJobs(1, true); // no awake idle thread (worker 1 never started looking): wake one
        worker.join();
        assertEquals(0, JecCounters.sleepingThreads(sleep.counters().load()));
        assertEquals(1, JecCounters.inactiveThreads(sleep.counters().load()), "still idle: it searches again");
        assertEquals(1, sleep.sleeps(0));
        assertEquals(1, sleep.wakeups(0));
    }

    @Test
    void anInternalPostDoesNotWakeWhenAnAwakeIdleThreadCanTakeIt() throws Exception {
        JecSleep sleep = new JecSleep(3);
        IdleState idle = new IdleState(0, () -> false);
        WorkerLatch latch = latchFor(sleep, 0);
        Thread worker = new Thread(() -> {
            idleUntilSleepy(sleep, idle, latch);
            sleep.noWorkFound(idle, latch);
        });
        worker.start();
        awaitSleeping(sleep, 1);
        sleep.startLooking(new IdleState(1, () -> false)); // worker 1 is awake and idle
        sleep.newInternalJobs(1, 1, true);
        Thread.sleep(50);
        assertTrue(worker.isAlive(), "the idle worker is expected to find the job: no wake-up");
        sleep.newInternalJobs(1, 1, false); // the queue was not empty: idle threads are not keeping up
        worker.join();
        assertEquals(0, JecCounters.sleepingThreads(sleep.counters().load()));
    }

    @Test
    void settingALatchWakesOnlyItsOwner() throws Exception {
        JecSleep sleep = new JecSleep(2);
        IdleState idle0 = new IdleState(0, () -> false);
        IdleState idle1 = new IdleState(1, () -> false);
        WorkerLatch latch0 = latchFor(sleep, 0);
        WorkerLatch latch1 = latchFor(sleep, 1);
        Thread w0 = new Thread(() -> {
            idleUntilSleepy(sleep, idle0, latch0);
            while (!latch0.probe()) {
                sleep.noWorkFound(idle0, latch0);
            }
        });
        Thread w1 = new Thread(() -> {
            idleUntilSleepy(sleep, idle1, latch1);
            while (!latch1.probe()) {
                sleep.noWorkFound(idle1, latch1);
            }
        });
        w0.start();
        w1.start();
        awaitSleeping(sleep, 2);
        latch1.set(); // L1
        w1.join();
        Thread.sleep(50);
        assertTrue(w0.isAlive(), "worker 0 sleeps on another latch and must not be disturbed");
        assertEquals(0, sleep.wakeups(0));
        assertEquals(1, JecCounters.sleepingThreads(sleep.counters().load()));
        latch0.set();
        w0.join();
        assertEquals(0, JecCounters.sleepingThreads(sleep.counters().load()));
    }

    @Test
    void aLatchSetBeforeSleepingStopsTheWorkerFromBlocking() {
        JecSleep sleep = new JecSleep(1);
        IdleState idle = new IdleState(0, () -> false);
        WorkerLatch latch = latchFor(sleep, 0);
        idleUntilSleepy(sleep, idle, latch);
        latch.set();
        sleep.noWorkFound(idle, latch);
        assertFalse(latch.getSleepy());
        assertEquals(0, sleep.sleeps(0));
    }

    /**
     * Lets a sleep that already began last longer than A1's short sleep, so that it counts as a long one: a lower
     * bound on a duration, which the clock guarantees (no timing is asserted).
     */
    static void outlastAShortSleep() {
        long until = System.nanoTime() + 2 * IdleState.SHORT_SLEEP_NANOS + 1_000_000L;
        while (System.nanoTime() - until < 0) {
            LockSupport.parkNanos(until - System.nanoTime());
        }
    }

    @Test
    void aShortSleepDoublesTheLimitAndALongOneHalvesIt() {
        assumeTrue(IdleState.SHORT_SLEEP_NANOS > 0, "spindle.idle.shortSleepMicros=0 turns the rule off");
        IdleState idle = new IdleState(0, () -> false, 32);
        idle.adaptRoundsAfterSleep(0, 32, IdleState.SHORT_SLEEP_NANOS, false); // not shorter: long
        assertEquals(16, idle.roundsUntilSleepy);
        idle.adaptRoundsAfterSleep(0, 32, 10 * IdleState.SHORT_SLEEP_NANOS + 1_000_000L, false);
        assertEquals(8, idle.roundsUntilSleepy);
        idle.adaptRoundsAfterSleep(0, 32, IdleState.SHORT_SLEEP_NANOS - 1, false); // spinning would have saved it
        assertEquals(16, idle.roundsUntilSleepy);
        for (int i = 0; i < 8; i++) {
            idle.adaptRoundsAfterSleep(0, 32, 0L, false);
        }
        assertEquals(32, idle.roundsUntilSleepy, "at most the fixed count");
        idle.roundsUntilSleepy = 0;
        idle.adaptRoundsAfterSleep(0, 32, 0L, false);
        assertEquals(2, idle.roundsUntilSleepy, "from 0 to at least 2");
        for (int i = 0; i < 8; i++) {
            idle.adaptRoundsAfterSleep(4, 32, Long.MAX_VALUE, false);
        }
        assertEquals(4, idle.roundsUntilSleepy, "at least the minimum");
    }

    @Test
    void aShortSleepThatOwnIoEndedHalvesTheLimitAsALongOneDoes() {
        IdleState idle = new IdleState(0, () -> false, 32);
        idle.adaptRoundsAfterSleep(0, 32, 0L, true); // the selector returned at once: spinning would not have seen it
        assertEquals(16, idle.roundsUntilSleepy);
        idle.adaptRoundsAfterSleep(0, 32, IdleState.SHORT_SLEEP_NANOS - 1, true);
        assertEquals(8, idle.roundsUntilSleepy);
        idle.adaptRoundsAfterSleep(0, 32, 0L, false); // a waker's short wake-up still doubles it
        assertEquals(IdleState.SHORT_SLEEP_NANOS > 0 ? 16 : 4, idle.roundsUntilSleepy);
        for (int i = 0; i < 8; i++) {
            idle.adaptRoundsAfterSleep(0, 32, 0L, true);
        }
        assertEquals(0, idle.roundsUntilSleepy, "down to the minimum");
    }

    @Test
    void spinningHalvesAfterEachWastedSpinDownToTheMinimum() throws Exception {
        JecSleep sleep = new JecSleep(1);
        IdleState idle = new IdleState(0, () -> false);
        assertEquals(JecSleep.ROUNDS_UNTIL_SLEEPY, idle.roundsUntilSleepy, "starts at rayon's count");
        int expected = JecSleep.ROUNDS_UNTIL_SLEEPY;
        for (int cycle = 0; cycle < 8; cycle++) {
            WorkerLatch latch = latchFor(sleep, 0);
            Thread worker = new Thread(() -> {
                idleUntilSleepy(sleep, idle, latch);
                while (!latch.probe()) {
                    sleep.noWorkFound(idle, latch); // blocks: a wasted spin (A1)
                }
                sleep.leaveIdle(idle, true);
            });
            worker.start();
            awaitSleeping(sleep, 1);
            outlastAShortSleep(); // a long sleep: the spinning could not have found the work (A1)
            latch.set();
            worker.join();
            expected = Math.max(JecSleep.MIN_ROUNDS_UNTIL_SLEEPY, expected / 2);
            assertEquals(expected, idle.roundsUntilSleepy, "after blocking " + (cycle + 1) + " times");
        }
    }

    @Test
    void spinningGrowsBackWhenALateSearchFindsWork() {
        JecSleep sleep = new JecSleep(1);
        IdleState idle = new IdleState(0, () -> false);
        idle.roundsUntilSleepy = JecSleep.MIN_ROUNDS_UNTIL_SLEEPY;
        WorkerLatch latch = latchFor(sleep, 0);
        while (idle.roundsUntilSleepy < JecSleep.ROUNDS_UNTIL_SLEEPY) {
            int before = idle.roundsUntilSleepy;
            sleep.startLooking(idle);
            // fail searches up to the limit (at a limit of 0, the announcing round), then find work
            while (idle.rounds < Math.max(1, before)) {
                sleep.noWorkFound(idle, latch);
            }
            sleep.leaveIdle(idle, true);
            assertEquals(Math.min(JecSleep.ROUNDS_UNTIL_SLEEPY, Math.max(2, before * 2)), idle.roundsUntilSleepy);
        }
        sleep.startLooking(idle);
        sleep.noWorkFound(idle, latch);
        sleep.leaveIdle(idle, true); // found after one round: no change
        assertEquals(JecSleep.ROUNDS_UNTIL_SLEEPY, idle.roundsUntilSleepy);
    }

    @Test
    void theCascadeWakesUpToTwoSleepersOnlyWhenMoreWorkIsVisible() throws Exception {
        JecSleep sleep = new JecSleep(4);
        Thread[] sleepers = new Thread[3];
        WorkerLatch[] latches = new WorkerLatch[3];
        for (int i = 0; i < 3; i++) {
            IdleState idle = new IdleState(i, () -> false);
            WorkerLatch latch = latches[i] = latchFor(sleep, i);
            sleepers[i] = new Thread(() -> {
                idleUntilSleepy(sleep, idle, latch);
                sleep.noWorkFound(idle, latch); // blocks until woken by anyone
            });
            sleepers[i].start();
        }
        awaitSleeping(sleep, 3);
        AtomicBoolean moreAtSource = new AtomicBoolean();
        IdleState finder = new IdleState(3, new IdleState.WorkView() {
            @Override
            public boolean hasInjectedOrPrivateWork() {
                return false;
            }

            @Override
            public boolean moreWorkAt(int source) {
                return source == 0 && moreAtSource.get();
            }
        });
        sleep.startLooking(finder);
        finder.foundWork(0); // e.g. took worker 0's only job
        sleep.leaveIdle(finder, true);
        Thread.sleep(50);
        assertEquals(3, JecCounters.sleepingThreads(sleep.counters().load()), "A2: nothing visible, nobody woken");

        sleep.startLooking(finder);
        finder.foundWork(0);
        moreAtSource.set(true); // worker 0's deque still holds work
        sleep.leaveIdle(finder, true);
        assertEquals(1, JecCounters.sleepingThreads(sleep.counters().load()), "cascade: two woken");
        for (WorkerLatch l : latches) {
            l.set();
        }
        for (Thread t : sleepers) {
            t.join();
        }
    }

    /** Starts {@code n} sleepers (workers 0..n-1) and waits until all are blocked. */
    private static Thread[] startSleepers(JecSleep sleep, WorkerLatch[] latches) throws InterruptedException {
        Thread[] sleepers = new Thread[latches.length];
        for (int i = 0; i < sleepers.length; i++) {
            IdleState idle = new IdleState(i, () -> false);
            WorkerLatch latch = latches[i] = latchFor(sleep, i);
            sleepers[i] = new Thread(() -> {
                idleUntilSleepy(sleep, idle, latch);
                sleep.noWorkFound(idle, latch); // blocks once; a woken sleeper ends, so counts stay put
            });
            sleepers[i].start();
        }
        awaitSleeping(sleep, sleepers.length);
        // Registered is not yet blocked: a sleeper counts itself, then makes its final check while PREPARING, and a
        // waker that claims it there leaves the count for the sleeper to undo (J2, J6) a moment later. The tests
        // below read the counts right after a post, so they start from sleepers that are parked for good.
        long deadline = System.nanoTime() + 10_000_000_000L;
        for (Thread t : sleepers) {
            while (t.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(Thread.State.WAITING, t.getState(), "a registered sleeper never blocked");
        }
        return sleepers;
    }

    private static void stopSleepers(Thread[] sleepers, WorkerLatch[] latches) throws InterruptedException {
        for (WorkerLatch l : latches) {
            l.set();
        }
        for (Thread t : sleepers) {
            t.join();
        }
    }

    @Test
    void aLatchExitHandsTheWakeUpOnOnlyWhenWorkIsVisible() throws Exception {
        JecSleep sleep = new JecSleep(3);
        WorkerLatch[] latches = new WorkerLatch[2];
        Thread[] sleepers = startSleepers(sleep, latches);
        AtomicBoolean injected = new AtomicBoolean();
        IdleState leaver = new IdleState(2, injected::get);

        sleep.startLooking(leaver); // worker 2: awake and idle, so a poster counts on it (Option B)
        sleep.newInjectedJobs(1, true);
        assertEquals(2, JecCounters.sleepingThreads(sleep.counters().load()), "Option B: the idle worker will find it");
        sleep.leaveIdle(leaver, false); // ...but its latch was set; the job has been taken meanwhile
        assertEquals(2, JecCounters.sleepingThreads(sleep.counters().load()), "A4: nothing visible, nobody woken");

        sleep.startLooking(leaver);
        injected.set(true);
        sleep.newInjectedJobs(1, true);
        assertEquals(2, JecCounters.sleepingThreads(sleep.counters().load()));
        sleep.leaveIdle(leaver, false); // the latch was set and the injected job still waits
        assertEquals(1, JecCounters.sleepingThreads(sleep.counters().load()), "A4: exactly one sleeper woken");

        sleep.startLooking(leaver); // two posts at once counted on the same idle worker, which takes only one job
        sleep.newInjectedJobs(1, true);
        assertEquals(1, JecCounters.sleepingThreads(sleep.counters().load()));
        leaver.foundWork(0); // took a job from worker 0's deque, which held no more (no A2 cascade)...
        sleep.leaveIdle(leaver, true); // ...while the injected one still waits
        assertEquals(0, JecCounters.sleepingThreads(sleep.counters().load()), "A4: the other post is handed on");
        stopSleepers(sleepers, latches);
    }

    @Test
    void injectionsAreJudgedByTheCountersEvenUnderOptionA() throws Exception {
        JecSleep sleep = new JecSleep(2, JecSleep.IdleJudgement.QUEUE);
        WorkerLatch[] latches = new WorkerLatch[1];
        Thread[] sleepers = startSleepers(sleep, latches); // worker 0 sleeps, worker 1 is busy (not inactive)
        sleep.newInjectedJobs(1, true); // Option A would take the busy worker for an idle thief and wake nobody
        assertEquals(0, JecCounters.sleepingThreads(sleep.counters().load()), "A3: the sleeper is woken");
        stopSleepers(sleepers, latches);
    }

    @Test
    void optionAWakesOnAnEmptyQueueOnlyWhenEveryoneElseSleeps() throws Exception {
        JecSleep sleep = new JecSleep(3, JecSleep.IdleJudgement.QUEUE);
        Thread[] sleepers = new Thread[2];
        WorkerLatch[] latches = new WorkerLatch[2];
        for (int i = 0; i < 2; i++) {
            IdleState idle = new IdleState(i, () -> false);
            WorkerLatch latch = latches[i] = latchFor(sleep, i);
            sleepers[i] = new Thread(() -> {
                idleUntilSleepy(sleep, idle, latch);
                sleep.noWorkFound(idle, latch); // blocks once; a woken sleeper ends, so counts stay put
            });
        }
        sleepers[0].start();
        awaitSleeping(sleep, 1);
        sleep.newInternalJobs(2, 1, true); // worker 1 is (for all A knows) awake: no wake-up
        assertEquals(1, JecCounters.sleepingThreads(sleep.counters().load()));
        sleepers[1].start();
        awaitSleeping(sleep, 2);
        sleep.newInternalJobs(2, 1, true); // every other worker sleeps: wake one
        assertEquals(1, JecCounters.sleepingThreads(sleep.counters().load()));
        sleep.newInternalJobs(2, 1, false); // the queue held work: wake one more
        assertEquals(0, JecCounters.sleepingThreads(sleep.counters().load()));
        for (WorkerLatch l : latches) {
            l.set();
        }
        for (Thread t : sleepers) {
            t.join();
        }
    }

    @Test
    void interruptsDoNotWakeASleeper() throws Exception {
        JecSleep sleep = new JecSleep(1);
        IdleState idle = new IdleState(0, () -> false);
        WorkerLatch latch = latchFor(sleep, 0);
        java.util.concurrent.atomic.AtomicBoolean keptStatus = new java.util.concurrent.atomic.AtomicBoolean();
        Thread worker = new Thread(() -> {
            idleUntilSleepy(sleep, idle, latch);
            while (!latch.probe()) {
                sleep.noWorkFound(idle, latch);
            }
            keptStatus.set(Thread.currentThread().isInterrupted());
        });
        worker.start();
        awaitSleeping(sleep, 1);
        worker.interrupt();
        Thread.sleep(50);
        assertTrue(worker.isAlive());
        assertEquals(1, JecCounters.sleepingThreads(sleep.counters().load()));
        latch.set();
        worker.join();
        assertTrue(keptStatus.get(), "the sleep ignores the interrupt but keeps the status for the caller");
    }
}
