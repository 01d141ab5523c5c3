package io.spindle.internal.sleep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindle.internal.latch.CoreLatch;
import io.spindle.internal.latch.WorkerLatch;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Drives the SLEEPY_WORKER protocol's steps directly: the seed's three scenarios, one sleepy worker at a time, a
 * tickle waking every sleeper, latches (L1), interrupts. Invariants S1..S6 are in package-info.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SleepyWorkerSleepTest {

    private static WorkerLatch latchFor(SleepyWorkerSleep sleep, int worker) {
        return new WorkerLatch(sleep::notifyWorkerLatchIsSet, worker);
    }

    /** Idles until the worker is at the fall-asleep step (it must be able to get sleepy). */
    private static void idleUntilAsleepRound(SleepyWorkerSleep sleep, IdleState idle, CoreLatch latch) {
        sleep.startLooking(idle);
        while (idle.rounds < SleepyWorkerSleep.ROUNDS_UNTIL_ASLEEP) {
            sleep.noWorkFound(idle, latch);
        }
    }

    /** Idles until the worker just became the sleepy one. */
    private static void idleUntilSleepy(SleepyWorkerSleep sleep, IdleState idle, CoreLatch latch) {
        sleep.startLooking(idle);
        while (idle.rounds <= SleepyWorkerSleep.ROUNDS_UNTIL_SLEEPY) {
            sleep.noWorkFound(idle, latch);
        }
    }

    private static long totalSleeps(SleepyWorkerSleep sleep, int threads) {
        long n = 0;
        for (int i = 0; i < threads; i++) {
            n += sleep.sleeps(i);
        }
        return n;
    }

    private static void awaitSleeps(SleepyWorkerSleep sleep, int threads, long n) {
        while (totalSleeps(sleep, threads) < n) {
            LockSupport.parkNanos(100_000L);
        }
    }

    /** A thread that idles to the fall-asleep step and makes exactly one sleep attempt. */
    private static Thread sleeper(SleepyWorkerSleep sleep, int index, CoreLatch latch) {
        Thread t = new Thread(() -> {
            IdleState idle = new IdleState(index, () -> false);
            idleUntilAsleepRound(sleep, idle, latch);
            sleep.noWorkFound(idle, latch);
        }, "sleepy-test-" + index);
        t.setDaemon(true);
        t.start();
        return t;
    }

    // --- A1: adaptive spinning --------------------------------------------------------------------------------------

    @Test
    void spinningHalvesAfterEachWastedSpinDownToTheMinimum() throws Exception {
        SleepyWorkerSleep sleep = new SleepyWorkerSleep(1);
        IdleState idle = new IdleState(0, () -> false, SleepyWorkerSleep.ROUNDS_UNTIL_SLEEPY);
        int max = SleepyWorkerSleep.ROUNDS_UNTIL_SLEEPY;
        int expected = max;
        assertEquals(expected, idle.roundsUntilSleepy(max), "starts at the seed's count");
        for (int cycle = 0; cycle < 8; cycle++) {
            WorkerLatch latch = latchFor(sleep, 0);
            long before = sleep.sleeps(0);
            Thread worker = new Thread(() -> {
                sleep.startLooking(idle);
                while (!latch.probe()) {
                    sleep.noWorkFound(idle, latch); // ends in a sleep: a wasted spin (A1)
                }
                sleep.leaveIdle(idle, true);
            });
            worker.setDaemon(true);
            worker.start();
            awaitSleeps(sleep, 1, before + 1);
            JecSleepTest.outlastAShortSleep(); // a long sleep: the spinning could not have found the work (A1)
            latch.set();
            worker.join();
            expected = Math.max(SleepyWorkerSleep.MIN_ROUNDS_UNTIL_SLEEPY, expected / 2);
            assertEquals(expected, idle.roundsUntilSleepy(max), "after blocking " + (cycle + 1) + " times");
            assertEquals(SleepyWorkerSleep.AWAKE, sleep.loadState() & ~SleepyWorkerSleep.SLEEPING, "nobody sleepy");
        }
    }

    @Test
    void spinningGrowsBackWhenALateSearchFindsWork() {
        SleepyWorkerSleep sleep = new SleepyWorkerSleep(1);
        IdleState idle = new IdleState(0, () -> false, SleepyWorkerSleep.ROUNDS_UNTIL_SLEEPY);
        idle.roundsUntilSleepy = SleepyWorkerSleep.MIN_ROUNDS_UNTIL_SLEEPY;
        WorkerLatch latch = latchFor(sleep, 0);
        int max = SleepyWorkerSleep.ROUNDS_UNTIL_SLEEPY;
        while (idle.roundsUntilSleepy(max) < max) {
            int before = idle.roundsUntilSleepy(max);
            sleep.startLooking(idle);
            // fail searches up to the limit (at a limit of 0, the round that gets sleepy), then find work
            while (idle.rounds < Math.max(1, before)) {
                sleep.noWorkFound(idle, latch);
            }
            sleep.leaveIdle(idle, true);
            assertEquals(Math.min(max, Math.max(2, before * 2)), idle.roundsUntilSleepy(max));
            assertFalse(SleepyWorkerSleep.anyWorkerSleepy(sleep.loadState()), "S6: one that found work is not sleepy");
        }
    }

    @Test
    void aLatchLeftSleepyByAFailedSleepIsRepairedAndTheWorkerSleepsAgain() throws Exception {
        SleepyWorkerSleep sleep = new SleepyWorkerSleep(1);
        WorkerLatch latch = latchFor(sleep, 0);
        assertTrue(latch.getSleepy(), "as a sleep that threw after announcing leaves it (E3)");
        Thread worker = new Thread(() -> {
            IdleState idle = new IdleState(0, () -> false, SleepyWorkerSleep.ROUNDS_UNTIL_SLEEPY);
            sleep.startLooking(idle);
            while (!latch.probe()) {
                sleep.noWorkFound(idle, latch);
            }
            sleep.leaveIdle(idle, false);
        });
        worker.setDaemon(true);
        worker.start();
        awaitSleeps(sleep, 1, 1); // without the repair every getSleepy fails and the worker never blocks
        latch.set();
        worker.join();
    }

    @Test
    void theRoundsWhileSleepyScaleWithTheLimitAndLeaveAtLeastOneSearch() {
        assertEquals(SleepyWorkerSleep.ROUNDS_UNTIL_ASLEEP,
                SleepyWorkerSleep.roundsUntilAsleep(SleepyWorkerSleep.ROUNDS_UNTIL_SLEEPY), "the seed's count");
        for (int limit = 0; limit <= SleepyWorkerSleep.ROUNDS_UNTIL_SLEEPY; limit++) {
            assertTrue(SleepyWorkerSleep.roundsUntilAsleep(limit) > limit, "S3 at a limit of " + limit);
        }
    }

    @Test
    void roundsUntilAsleepLeaveAtLeastOneSearchWhileSleepy() {
        assertTrue(SleepyWorkerSleep.ROUNDS_UNTIL_ASLEEP > SleepyWorkerSleep.ROUNDS_UNTIL_SLEEPY, "S3");
    }

    @Test
    void theWordPacksTheSleepyWorkerAndTheAsleepBit() {
        assertEquals(2L, SleepyWorkerSleep.sleepyId(0));
        assertEquals(3L, SleepyWorkerSleep.sleepyId(0) | SleepyWorkerSleep.SLEEPING);
        assertTrue(SleepyWorkerSleep.workerIsSleepy(SleepyWorkerSleep.sleepyId(7) | 1, 7));
        assertFalse(SleepyWorkerSleep.workerIsSleepy(SleepyWorkerSleep.sleepyId(7), 6));
        assertFalse(SleepyWorkerSleep.anyWorkerSleepy(SleepyWorkerSleep.SLEEPING));
        assertTrue(SleepyWorkerSleep.anyoneSleeping(SleepyWorkerSleep.SLEEPING));
        assertTrue(SleepyWorkerSleep.workerIsSleepy(SleepyWorkerSleep.sleepyId(0xFFFE), 0xFFFE));
    }

    @Test
    void aTickleWithNobodySleepyOrAsleepChangesNothing() {
        SleepyWorkerSleep sleep = new SleepyWorkerSleep(2);
        sleep.newInternalJobs(0, 1, true);
        sleep.newInjectedJobs(1, true);
        sleep.newBroadcastJobs();
        assertEquals(SleepyWorkerSleep.AWAKE, sleep.loadState());
    }

    @Test
    void onlyOneWorkerIsSleepyAtATime() {
        SleepyWorkerSleep sleep = new SleepyWorkerSleep(2);
        IdleState idle0 = new IdleState(0, () -> false);
        IdleState idle1 = new IdleState(1, () -> false);
        WorkerLatch latch0 = latchFor(sleep, 0);
        WorkerLatch latch1 = latchFor(sleep, 1);
        idleUntilSleepy(sleep, idle0, latch0);
        assertEquals(SleepyWorkerSleep.sleepyId(0), sleep.loadState(), "S1");

        sleep.startLooking(idle1);
        for (int i = 0; i < SleepyWorkerSleep.ROUNDS_UNTIL_SLEEPY + 10; i++) {
            sleep.noWorkFound(idle1, latch1);
        }
        assertEquals(SleepyWorkerSleep.ROUNDS_UNTIL_SLEEPY, idle1.rounds, "worker 1 waits its turn to get sleepy");
        assertEquals(SleepyWorkerSleep.sleepyId(0), sleep.loadState());

        sleep.leaveIdle(idle0, true); // S6: worker 0 gives the role up
        assertEquals(SleepyWorkerSleep.AWAKE, sleep.loadState());
        sleep.noWorkFound(idle1, latch1);
        assertEquals(SleepyWorkerSleep.sleepyId(1), sleep.loadState());
    }

    /**
     * Scenario 1, tickle-then-get-sleepy: a tickle that finds nobody sleepy leaves the word alone, and the worker
     * still gets sleepy, then searches again (S3). If the tickle was a latch set, the latch protocol (L1) keeps the
     * worker from falling asleep.
     */
    @Test
    void scenario1TickleThenGetSleepy() {
        SleepyWorkerSleep sleep = new SleepyWorkerSleep(2);
        IdleState idle = new IdleState(0, () -> false);
        WorkerLatch latch = latchFor(sleep, 0);
        sleep.startLooking(idle);
        while (idle.rounds < SleepyWorkerSleep.ROUNDS_UNTIL_SLEEPY) {
            sleep.noWorkFound(idle, latch);
        }
        latch.set(); // the latch was UNSET: no notification, and the tickle would have found nobody sleepy anyway
        sleep.newInternalJobs(1, 1, true);
        assertEquals(SleepyWorkerSleep.AWAKE, sleep.loadState());
        sleep.noWorkFound(idle, latch); // gets sleepy: the next search (S3) runs after the post
        assertEquals(SleepyWorkerSleep.ROUNDS_UNTIL_SLEEPY + 1, idle.rounds);
        while (idle.rounds > 0) {
            sleep.noWorkFound(idle, latch); // the fall-asleep step sees the set latch (L1) and does not block
        }
        assertEquals(0, sleep.sleeps(0));
        assertEquals(CoreLatch.SET, latch.state());
        assertEquals(SleepyWorkerSleep.AWAKE, sleep.loadState(), "S6: the sleepy role was given up");
    }

    /** Scenario 2, get-sleepy-then-get-tickled: the tickle clears the sleepy id and the worker starts over. */
    @Test
    void scenario2GetSleepyThenGetTickled() {
        SleepyWorkerSleep sleep = new SleepyWorkerSleep(2);
        IdleState idle = new IdleState(0, () -> false);
        WorkerLatch latch = latchFor(sleep, 0);
        idleUntilSleepy(sleep, idle, latch);
        sleep.newInjectedJobs(1, true);
        assertEquals(SleepyWorkerSleep.AWAKE, sleep.loadState(), "the tickle swapped the word to AWAKE");
        sleep.noWorkFound(idle, latch);
        assertEquals(0, idle.rounds, "no longer sleepy: awake again");
    }

    /** Scenario 2 at the last moment: tickled just before the fall-asleep CAS, the worker does not block. */
    @Test
    void scenario2TickledAtTheFallAsleepStepDoesNotBlock() {
        SleepyWorkerSleep sleep = new SleepyWorkerSleep(2);
        IdleState idle = new IdleState(0, () -> false);
        WorkerLatch latch = latchFor(sleep, 0);
        idleUntilAsleepRound(sleep, idle, latch);
        sleep.newInternalJobs(1, 1, false);
        sleep.noWorkFound(idle, latch); // must return at once
        assertEquals(0, sleep.sleeps(0));
        assertEquals(0, idle.rounds);
        assertEquals(CoreLatch.UNSET, latch.state(), "the latch went back to UNSET");
        assertEquals(SleepyWorkerSleep.AWAKE, sleep.loadState());
    }

    /** Scenario 3, fall-asleep-then-get-tickled: the tickle sees the asleep bit and wakes the sleeper. */
    @Test
    void scenario3FallAsleepThenGetTickled() throws Exception {
        SleepyWorkerSleep sleep = new SleepyWorkerSleep(2);
        WorkerLatch latch = latchFor(sleep, 0);
        Thread t = sleeper(sleep, 0, latch);
        awaitSleeps(sleep, 2, 1);
        assertEquals(SleepyWorkerSleep.SLEEPING, sleep.loadState(), "asleep bit set, nobody sleepy");
        sleep.newInjectedJobs(1, true);
        t.join();
        assertEquals(SleepyWorkerSleep.AWAKE, sleep.loadState());
        assertEquals(1, sleep.sleeps(0));
        assertEquals(1, sleep.wakeups(0));
        assertEquals(CoreLatch.UNSET, latch.state());
    }

    @Test
    void oneTickleWakesEverySleeper() throws Exception {
        int n = 4;
        SleepyWorkerSleep sleep = new SleepyWorkerSleep(n);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            threads.add(sleeper(sleep, i, latchFor(sleep, i)));
        }
        awaitSleeps(sleep, n, n); // they fall asleep one after another (one sleepy worker at a time)
        sleep.newInternalJobs(0, 1, true);
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < n; i++) {
            assertEquals(1, sleep.wakeups(i), "worker " + i);
        }
        assertEquals(SleepyWorkerSleep.AWAKE, sleep.loadState());
    }

    /** L1 and S5: setting a latch its owner sleeps on wakes the owner (and, as the seed says, everyone). */
    @Test
    void settingALatchWakesItsOwnerAndEveryoneElse() throws Exception {
        SleepyWorkerSleep sleep = new SleepyWorkerSleep(2);
        WorkerLatch latch0 = latchFor(sleep, 0);
        WorkerLatch latch1 = latchFor(sleep, 1);
        Thread other = sleeper(sleep, 0, latch0);
        Thread owner = new Thread(() -> {
            IdleState idle = new IdleState(1, () -> false);
            sleep.startLooking(idle);
            while (!latch1.probe()) {
                sleep.noWorkFound(idle, latch1);
            }
            sleep.leaveIdle(idle, true);
        });
        owner.start();
        awaitSleeps(sleep, 2, 2);
        assertEquals(CoreLatch.SLEEPING, latch1.state());
        latch1.set();
        owner.join();
        other.join();
        assertEquals(1, sleep.wakeups(1));
        assertEquals(1, sleep.wakeups(0), "the legacy protocol wakes every sleeper");
        assertEquals(CoreLatch.UNSET, latch0.state());
    }

    @Test
    void aLatchSetWhileSleepyStopsTheWorkerFromBlockingAndFreesTheSleepyRole() {
        SleepyWorkerSleep sleep = new SleepyWorkerSleep(2);
        IdleState idle = new IdleState(0, () -> false);
        WorkerLatch latch = latchFor(sleep, 0);
        idleUntilAsleepRound(sleep, idle, latch);
        latch.set();
        sleep.noWorkFound(idle, latch);
        assertEquals(0, sleep.sleeps(0));
        assertEquals(SleepyWorkerSleep.AWAKE, sleep.loadState(), "S6");
        assertFalse(latch.getSleepy());
    }

    @Test
    void interruptsDoNotEndASleepAndSurviveIt() throws Exception {
        SleepyWorkerSleep sleep = new SleepyWorkerSleep(1);
        WorkerLatch latch = latchFor(sleep, 0);
        AtomicBoolean interruptedAfter = new AtomicBoolean();
        Thread t = new Thread(() -> {
            IdleState idle = new IdleState(0, () -> false);
            idleUntilAsleepRound(sleep, idle, latch);
            sleep.noWorkFound(idle, latch);
            interruptedAfter.set(Thread.currentThread().isInterrupted());
        });
        t.start();
        awaitSleeps(sleep, 1, 1);
        for (int i = 0; i < 5; i++) {
            t.interrupt();
            Thread.sleep(10);
        }
        assertTrue(t.isAlive(), "an interrupt is not a tickle");
        assertEquals(0, sleep.wakeups(0));
        sleep.terminate();
        t.join();
        assertTrue(interruptedAfter.get(), "the interrupt status is kept for the caller");
        assertEquals(1, sleep.wakeups(0));
    }

    /**
     * A protocol-level lost wake-up hunt: a small worker loop over a shared job counter, an outside poster that posts
     * one job at a time (often after every worker fell asleep) and waits for it to be taken, and latch sets on a
     * worker waiting for its own latch. Any lost wake-up hangs, which the timeout turns into a failure.
     */
    @Test
    void postsAndLatchSetsAreNeverSleptThrough() throws Exception {
        int n = 4;
        SleepyWorkerSleep sleep = new SleepyWorkerSleep(n);
        ProtocolHarness h = new ProtocolHarness(sleep, n);
        long seed = Long.getLong("spindle.test.seed", 42L);
        h.run(new SplittableRandom(seed), Integer.getInteger("spindle.test.harnessRounds", 1_000));
        assertEquals(SleepyWorkerSleep.AWAKE, sleep.loadState());
    }

    /**
     * A tiny worker loop with the shape of {@code WorkerThread.waitUntil}, for protocol-level stress tests. Jobs are a
     * counter that every worker takes (as in a pool, where every search looks everywhere); workers 0..n-2 wait for
     * their stop latch, worker n-1 waits on one latch after another, which the driver sets, often after the worker
     * fell asleep on it. A step that does not complete within {@link #STEP_NANOS} fails with the protocol's state.
     */
    static final class ProtocolHarness {
        static final long STEP_NANOS = TimeUnit.SECONDS.toNanos(20);
        final SleepProtocol sleep;
        final int n;
        final AtomicInteger jobs = new AtomicInteger();
        final AtomicInteger taken = new AtomicInteger();
        final AtomicInteger latchRoundsDone = new AtomicInteger();
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        ProtocolHarness(SleepProtocol sleep, int n) {
            this.sleep = sleep;
            this.n = n;
        }

        boolean tryTake() {
            while (true) {
                int j = jobs.get();
                if (j == 0) {
                    return false;
                }
                if (jobs.compareAndSet(j, j - 1)) {
                    taken.incrementAndGet();
                    return true;
                }
            }
        }

        void waitUntil(IdleState idle, CoreLatch latch) {
            outer:
            while (!latch.probe()) {
                sleep.startLooking(idle);
                while (!latch.probe()) {
                    if (tryTake()) {
                        sleep.leaveIdle(idle, true);
                        continue outer;
                    }
                    sleep.noWorkFound(idle, latch);
                }
                sleep.leaveIdle(idle, true);
                return;
            }
        }

        long totalSleeps() {
            long s = 0;
            for (int i = 0; i < n; i++) {
                s += sleep.sleeps(i);
            }
            return s;
        }

        private Thread start(String name, Runnable body) {
            Thread t = new Thread(() -> {
                try {
                    body.run();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, name);
            t.setDaemon(true); // a failed run must not keep the test JVM alive
            t.start();
            return t;
        }

        /** Waits (up to 50 ms, not a failure) until some worker blocks again, to post into a sleeping pool. */
        private void awaitAnotherSleep() {
            long before = totalSleeps();
            long deadline = System.nanoTime() + 50_000_000L;
            while (totalSleeps() <= before && System.nanoTime() < deadline) {
                LockSupport.parkNanos(20_000L);
            }
        }

        private void awaitStep(java.util.function.BooleanSupplier done, java.util.function.Supplier<String> what) {
            long deadline = System.nanoTime() + STEP_NANOS;
            while (!done.getAsBoolean() && failure.get() == null) {
                if (System.nanoTime() > deadline || Thread.currentThread().isInterrupted()) {
                    throw new AssertionError(what.get() + "; jobs=" + jobs.get() + " taken=" + taken.get()
                            + " sleeps=" + totalSleeps() + " protocol=[" + sleep + "]");
                }
                Thread.onSpinWait();
            }
        }

        void run(SplittableRandom rnd, int rounds) throws Exception {
            int latchWorker = n - 1;
            WorkerLatch[] stop = new WorkerLatch[n - 1];
            WorkerLatch[] latches = new WorkerLatch[rounds];
            for (int r = 0; r < rounds; r++) {
                latches[r] = new WorkerLatch(sleep::notifyWorkerLatchIsSet, latchWorker);
            }
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < n - 1; i++) {
                int index = i;
                stop[i] = new WorkerLatch(sleep::notifyWorkerLatchIsSet, i);
                threads.add(start("harness-" + i,
                        () -> waitUntil(new IdleState(index, () -> jobs.get() > 0), stop[index])));
            }
            threads.add(start("harness-latch", () -> {
                IdleState idle = new IdleState(latchWorker, () -> jobs.get() > 0);
                for (int r = 0; r < rounds; r++) {
                    waitUntil(idle, latches[r]);
                    latchRoundsDone.set(r + 1);
                }
            }));
            int nextLatch = 0;
            for (int r = 0; r < rounds; r++) {
                int mode = rnd.nextInt(3);
                if (mode == 0) {
                    awaitAnotherSleep();
                } else if (mode == 1) {
                    LockSupport.parkNanos(rnd.nextInt(200_000));
                }
                if (rnd.nextBoolean()) {
                    int k = 1 + rnd.nextInt(3);
                    int want = taken.get() + k;
                    jobs.addAndGet(k);
                    sleep.newInjectedJobs(k, true);
                    int round = r;
                    awaitStep(() -> taken.get() >= want,
                            () -> "round " + round + ": " + k + " injected jobs not taken");
                } else {
                    int latchRound = ++nextLatch;
                    latches[latchRound - 1].set();
                    int round = r;
                    awaitStep(() -> latchRoundsDone.get() >= latchRound,
                            () -> "round " + round + ": the latch worker slept through latch " + (latchRound - 1));
                }
                if (failure.get() != null) {
                    throw new AssertionError("round " + r, failure.get());
                }
            }
            for (int r = nextLatch; r < rounds; r++) {
                latches[r].set();
            }
            for (WorkerLatch s : stop) {
                s.set();
            }
            sleep.terminate();
            for (Thread t : threads) {
                t.join();
            }
            assertNull(failure.get());
        }
    }
}
