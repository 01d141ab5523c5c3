package io.spindle.internal.sleep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindle.internal.latch.CoreLatch;
import io.spindle.internal.latch.WorkerLatch;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Drives the HINT_PIPE protocol's steps directly: the notifier-side decrement (H1, H2), credit (H3), hints naming the
 * right place, one watcher (H6), latch and broadcast wake-ups of specific workers (H5, L1), interrupts (H7), and
 * closing. Invariants are in package-info.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HintPipeSleepTest {
    private final List<HintPipeSleep> opened = new ArrayList<>();

    private HintPipeSleep open(int threads) {
        HintPipeSleep sleep = new HintPipeSleep(threads);
        opened.add(sleep);
        return sleep;
    }

    @AfterEach
    void closeAll() {
        for (HintPipeSleep s : opened) {
            s.close();
        }
    }

    private static WorkerLatch latchFor(HintPipeSleep sleep, int worker) {
        return new WorkerLatch(sleep::notifyWorkerLatchIsSet, worker);
    }

    /** Idles until the worker registered and is at the blocking step. */
    private static void idleUntilRegistered(HintPipeSleep sleep, IdleState idle, CoreLatch latch) {
        sleep.startLooking(idle);
        while (idle.rounds <= idle.roundsUntilSleepy(HintPipeSleep.ROUNDS_UNTIL_SLEEPY)) {
            sleep.noWorkFound(idle, latch);
        }
    }

    /** A worker thread that registers, makes one sleep attempt, and reports what it saw when it returned. */
    static final class Sleeper {
        final int index;
        final Thread thread;
        final WorkerLatch latch;
        final AtomicInteger hint = new AtomicInteger(Integer.MIN_VALUE);
        final AtomicBoolean interruptedAfter = new AtomicBoolean();

        Sleeper(HintPipeSleep sleep, int index) {
            this.index = index;
            this.latch = latchFor(sleep, index);
            this.thread = new Thread(() -> {
                IdleState idle = new IdleState(index, () -> false);
                idleUntilRegistered(sleep, idle, latch);
                sleep.noWorkFound(idle, latch);
                hint.set(idle.takeHint());
                interruptedAfter.set(Thread.currentThread().isInterrupted());
            }, "hint-pipe-test-" + index);
            thread.setDaemon(true); // a failed test must not keep the test JVM alive
            thread.start();
        }

        void join() throws InterruptedException {
            thread.join();
        }
    }

    private static List<Sleeper> blockedSleepers(HintPipeSleep sleep, int... indices) {
        List<Sleeper> out = new ArrayList<>();
        long[] before = new long[indices.length];
        for (int k = 0; k < indices.length; k++) {
            before[k] = sleep.sleeps(indices[k]);
            out.add(new Sleeper(sleep, indices[k]));
        }
        for (int k = 0; k < indices.length; k++) {
            awaitBlocked(sleep, indices[k], before[k] + 1);
        }
        return out;
    }

    private static void awaitBlocked(HintPipeSleep sleep, int worker, long sleeps) {
        while (sleep.sleeps(worker) < sleeps) {
            LockSupport.parkNanos(100_000L);
        }
    }

    private static long totalWakeups(HintPipeSleep sleep, int threads) {
        long n = 0;
        for (int i = 0; i < threads; i++) {
            n += sleep.wakeups(i);
        }
        return n;
    }

    // --- hints ------------------------------------------------------------------------------------------------------

    @Test
    void aHintNamesThePushersDeque() throws Exception {
        HintPipeSleep sleep = open(4);
        Sleeper s = blockedSleepers(sleep, 0).get(0);
        assertEquals(1, sleep.sleepersCount());
        sleep.newInternalJobs(3, 1, true);
        s.join();
        assertEquals(3, s.hint.get());
        assertEquals(0, sleep.sleepersCount(), "H1: the notifier took the sleeper off the count");
        assertEquals(1, sleep.hintsWritten());
        assertEquals(1, sleep.hintsRead());
        assertEquals(1, sleep.wakeups(0));
    }

    @Test
    void anInjectionHintNamesTheInjector() throws Exception {
        HintPipeSleep sleep = open(2);
        Sleeper s = blockedSleepers(sleep, 1).get(0);
        sleep.newInjectedJobs(1, true);
        s.join();
        assertEquals(IdleState.HINT_INJECTOR, s.hint.get());
    }

    @Test
    void anInternalPostWithNobodySleepingWritesNothing() {
        HintPipeSleep sleep = open(2);
        sleep.newInternalJobs(0, 5, true);
        assertEquals(0, sleep.sleepersCount());
        assertEquals(0, sleep.hintsWritten());
    }

    @Test
    void notifyInternalWakesAtMostTheSleepersThereAre() throws Exception {
        HintPipeSleep sleep = open(4);
        List<Sleeper> ss = blockedSleepers(sleep, 0, 1);
        sleep.newInternalJobs(2, 5, true);
        for (Sleeper s : ss) {
            s.join();
            assertEquals(2, s.hint.get());
        }
        assertEquals(2, sleep.hintsWritten());
        assertEquals(0, sleep.sleepersCount(), "internal notifications never go below zero");
    }

    // --- H1, H2: the notifier decrements ----------------------------------------------------------------------------

    /**
     * H1: many notifiers racing over few sleepers. Each sleeper is taken off the count by exactly one notifier, so the
     * hints written equal the sleepers that blocked, however many notifiers observed them, and no notifier blocks. (Had
     * the sleepers decremented the count themselves on waking, each of these notifiers could have written a hint for
     * each sleeper it observed.)
     */
    @Test
    void concurrentNotifiersWriteNoMoreHintsThanThereAreSleepers() throws Exception {
        HintPipeSleep sleep = open(8);
        List<Sleeper> ss = blockedSleepers(sleep, 0, 1);
        int notifiers = 16;
        CyclicBarrier start = new CyclicBarrier(notifiers);
        List<Thread> threads = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int k = 0; k < notifiers; k++) {
            int pusher = 2 + (k % 6);
            Thread t = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < 2_000; i++) {
                        sleep.newInternalJobs(pusher, 1 + (i & 3), true);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join(); // a notifier blocked in a pipe write would hang here
        }
        for (Sleeper s : ss) {
            s.join();
        }
        assertEquals(null, failure.get());
        assertEquals(2, sleep.hintsWritten(), "one hint per sleeper that blocked");
        assertEquals(2, sleep.hintsRead());
        assertEquals(0, sleep.sleepersCount());
    }

    /**
     * H2 with the jam the seed warns about, made concrete: sleepers that register and leave again (found work) while
     * thousands of notifications fly. Hints written never exceed registrations taken, and every hint is read.
     */
    @Test
    void registrationsAndRetractionsUnderNotifierFireKeepHintsBounded() throws Exception {
        int n = 4;
        HintPipeSleep sleep = open(n);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> notifiers = new ArrayList<>();
        for (int k = 0; k < 2; k++) {
            Thread t = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        sleep.newInternalJobs(0, 1, true);
                        Thread.yield();
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            t.setDaemon(true);
            t.start();
            notifiers.add(t);
        }
        // one worker that registers and then finds work, many times: it retracts, or carries its hint to the next sleep
        IdleState idle = new IdleState(1, () -> false);
        WorkerLatch latch = latchFor(sleep, 1);
        for (int i = 0; i < 2_000; i++) {
            idleUntilRegistered(sleep, idle, latch);
            sleep.leaveIdle(idle, true);
            long pending = sleep.hintsWritten() - sleep.hintsRead();
            assertTrue(pending <= n, "H2: at most one hint per worker in the pipe, saw " + pending);
        }
        stop.set(true);
        for (Thread t : notifiers) {
            t.join();
        }
        assertEquals(null, failure.get());
        assertTrue(sleep.sleepersCount() >= 0);
        assertTrue(sleep.hintsWritten() - sleep.hintsRead() <= 1, "only our own registration can have a hint waiting");
    }

    @Test
    void aWorkerThatFindsWorkAfterRegisteringWithdrawsItsRegistration() {
        HintPipeSleep sleep = open(2);
        IdleState idle = new IdleState(0, () -> false);
        WorkerLatch latch = latchFor(sleep, 0);
        idleUntilRegistered(sleep, idle, latch);
        assertEquals(1, sleep.sleepersCount());
        sleep.leaveIdle(idle, true);
        assertEquals(0, sleep.sleepersCount());
        sleep.newInternalJobs(1, 1, true);
        assertEquals(0, sleep.hintsWritten(), "nobody left to wake");
    }

    @Test
    void aRegistrationTakenByANotifierKeepsItsHintForTheNextSleep() {
        HintPipeSleep sleep = open(4);
        IdleState idle = new IdleState(0, () -> false);
        WorkerLatch latch = latchFor(sleep, 0);
        idleUntilRegistered(sleep, idle, latch);
        sleep.newInternalJobs(2, 1, true); // takes our registration, writes a hint for it
        assertEquals(0, sleep.sleepersCount());
        sleep.leaveIdle(idle, true);             // we found work anyway: nothing to retract (H2)
        assertEquals(0, sleep.sleepersCount());
        idleUntilRegistered(sleep, idle, latch); // no new registration: we still owe a read
        assertEquals(0, sleep.sleepersCount());
        sleep.noWorkFound(idle, latch);    // reads the waiting hint at once, without blocking
        assertEquals(0, sleep.sleeps(0));
        assertEquals(2, idle.takeHint());
        assertEquals(1, sleep.hintsRead());
    }

    // --- H3: credit -------------------------------------------------------------------------------------------------

    @Test
    void notifyAnywhereLeavesACreditThatKeepsARegisteringWorkerAwake() {
        HintPipeSleep sleep = open(2);
        sleep.newInjectedJobs(1, true);
        assertEquals(-1, sleep.sleepersCount(), "H3: always takes effect");
        assertEquals(0, sleep.hintsWritten());
        IdleState idle = new IdleState(0, () -> false);
        WorkerLatch latch = latchFor(sleep, 0);
        sleep.startLooking(idle);
        while (idle.rounds < HintPipeSleep.ROUNDS_UNTIL_SLEEPY) {
            sleep.noWorkFound(idle, latch);
        }
        sleep.noWorkFound(idle, latch); // takes the credit instead of registering
        assertEquals(HintPipeSleep.ROUNDS_UNTIL_SLEEPY, idle.rounds, "searches again, then tries to register again");
        assertEquals(0, sleep.sleepersCount());
        sleep.noWorkFound(idle, latch);
        assertEquals(1, sleep.sleepersCount(), "registered now");
        assertEquals(0, sleep.sleeps(0));
    }

    @Test
    void creditIsBounded() {
        HintPipeSleep sleep = open(4);
        for (int i = 0; i < 10; i++) {
            sleep.newInjectedJobs(1, true);
        }
        assertEquals(-1, sleep.sleepersCount(), "at most n = 1 credit for single posts");
        sleep.terminate(); // n = 4 > 1 credit waiting: takes effect
        assertEquals(-5, sleep.sleepersCount());
        sleep.terminate(); // 5 >= 4 credits wait already
        assertEquals(-5, sleep.sleepersCount());
    }

    @Test
    void notifyAnywhereWritesMinOfSleepersAndJobs() throws Exception {
        HintPipeSleep sleep = open(4);
        List<Sleeper> ss = blockedSleepers(sleep, 0, 1);
        sleep.newInjectedJobs(5, false);
        for (Sleeper s : ss) {
            s.join();
        }
        assertEquals(2, sleep.hintsWritten());
        assertEquals(-3, sleep.sleepersCount(), "the rest is credit");
    }

    // --- H6: one watcher --------------------------------------------------------------------------------------------

    @Test
    void aHintWakesOneSleeperAndTheWatchPassesOn() throws Exception {
        int n = 4;
        HintPipeSleep sleep = open(n);
        List<Sleeper> ss = blockedSleepers(sleep, 0, 1, 2, 3);
        assertTrue(sleep.watcher() >= 0, "one blocked worker watches the pipe");
        sleep.newInjectedJobs(1, true);
        while (totalWakeups(sleep, n) < 1) {
            LockSupport.parkNanos(100_000L);
        }
        Thread.sleep(50);
        assertEquals(1, totalWakeups(sleep, n), "one hint, one woken worker");
        assertEquals(3, sleep.sleepersCount());
        // the watch passed to another blocked worker: a second hint is read too
        sleep.newInjectedJobs(1, true);
        while (totalWakeups(sleep, n) < 2) {
            LockSupport.parkNanos(100_000L);
        }
        assertEquals(2, sleep.hintsRead());
        sleep.terminate();
        for (Sleeper s : ss) {
            s.join();
        }
        assertEquals(4, totalWakeups(sleep, n));
    }

    @Test
    void terminateWakesEveryoneThroughThePipe() throws Exception {
        int n = 3;
        HintPipeSleep sleep = open(n);
        List<Sleeper> ss = blockedSleepers(sleep, 0, 1, 2);
        sleep.terminate(); // the sleepers' latches stay unset: only hints can wake them
        for (Sleeper s : ss) {
            s.join();
            assertEquals(IdleState.HINT_INJECTOR, s.hint.get());
        }
        assertEquals(3, sleep.hintsRead());
        assertEquals(0, sleep.sleepersCount());
    }

    // --- H5: specific wake-ups --------------------------------------------------------------------------------------

    private void settingALatchWakesOnlyItsOwner(boolean ownerIsTheWatcher) throws Exception {
        HintPipeSleep sleep = open(2);
        List<Sleeper> ss = blockedSleepers(sleep, 0, 1);
        int watcher = sleep.watcher();
        assertTrue(watcher == 0 || watcher == 1);
        Sleeper owner = ss.get(ownerIsTheWatcher ? watcher : 1 - watcher);
        Sleeper other = ss.get(ownerIsTheWatcher ? 1 - watcher : watcher);
        owner.latch.set(); // L1: the owner was SLEEPING on it
        owner.join();
        assertEquals(CoreLatch.SET, owner.latch.state());
        assertEquals(IdleState.NO_HINT, owner.hint.get());
        Thread.sleep(50);
        assertTrue(other.thread.isAlive(), "the other worker sleeps on another latch and must not be disturbed");
        assertEquals(0, sleep.wakeups(other.index));
        assertEquals(1, sleep.sleepersCount(), "the owner withdrew its registration");
        assertEquals(0, sleep.hintsWritten());
        // the other one still wakes on a hint (it is, or became, the watcher)
        sleep.newInternalJobs(owner.index, 1, true);
        other.join();
        assertEquals(owner.index, other.hint.get());
    }

    @Test
    void settingAParkedWorkersLatchWakesOnlyIt() throws Exception {
        settingALatchWakesOnlyItsOwner(false);
    }

    @Test
    void settingTheWatchersLatchWakesOnlyIt() throws Exception {
        settingALatchWakesOnlyItsOwner(true);
    }

    // --- A1: adaptive spinning --------------------------------------------------------------------------------------

    @Test
    void spinningHalvesAfterEachWastedSpinDownToTheMinimum() throws Exception {
        HintPipeSleep sleep = open(1);
        IdleState idle = new IdleState(0, () -> false, HintPipeSleep.ROUNDS_UNTIL_SLEEPY);
        int expected = HintPipeSleep.ROUNDS_UNTIL_SLEEPY;
        assertEquals(expected, idle.roundsUntilSleepy(HintPipeSleep.ROUNDS_UNTIL_SLEEPY), "starts at the fixed count");
        for (int cycle = 0; cycle < 8; cycle++) {
            WorkerLatch latch = latchFor(sleep, 0);
            long before = sleep.sleeps(0);
            Thread worker = new Thread(() -> {
                idleUntilRegistered(sleep, idle, latch);
                while (!latch.probe()) {
                    sleep.noWorkFound(idle, latch); // blocks: a wasted spin (A1)
                }
                sleep.leaveIdle(idle, true);
            });
            worker.setDaemon(true);
            worker.start();
            awaitBlocked(sleep, 0, before + 1);
            JecSleepTest.outlastAShortSleep(); // a long sleep: the spinning could not have found the work (A1)
            latch.set();
            worker.join();
            expected = Math.max(HintPipeSleep.MIN_ROUNDS_UNTIL_SLEEPY, expected / 2);
            assertEquals(expected, idle.roundsUntilSleepy(HintPipeSleep.ROUNDS_UNTIL_SLEEPY),
                    "after blocking " + (cycle + 1) + " times");
        }
        assertEquals(0, sleep.sleepersCount(), "every registration retracted or taken");
    }

    @Test
    void aLatchLeftSleepyByAFailedSleepIsRepairedAndTheWorkerSleepsAgain() throws Exception {
        HintPipeSleep sleep = open(1);
        WorkerLatch latch = latchFor(sleep, 0);
        assertTrue(latch.getSleepy(), "as a sleep that threw after announcing leaves it (E3)");
        Thread worker = new Thread(() -> {
            IdleState idle = new IdleState(0, () -> false, HintPipeSleep.ROUNDS_UNTIL_SLEEPY);
            sleep.startLooking(idle);
            while (!latch.probe()) {
                sleep.noWorkFound(idle, latch);
            }
            sleep.leaveIdle(idle, false);
        });
        worker.setDaemon(true);
        worker.start();
        awaitBlocked(sleep, 0, 1); // without the repair every getSleepy fails and the worker never blocks
        latch.set();
        worker.join();
    }

    @Test
    void spinningGrowsBackWhenALateSearchFindsWork() {
        HintPipeSleep sleep = open(1);
        IdleState idle = new IdleState(0, () -> false, HintPipeSleep.ROUNDS_UNTIL_SLEEPY);
        idle.roundsUntilSleepy = HintPipeSleep.MIN_ROUNDS_UNTIL_SLEEPY;
        WorkerLatch latch = latchFor(sleep, 0);
        int max = HintPipeSleep.ROUNDS_UNTIL_SLEEPY;
        while (idle.roundsUntilSleepy(max) < max) {
            int before = idle.roundsUntilSleepy(max);
            sleep.startLooking(idle);
            // fail searches up to the limit (at a limit of 0, the registering round), then find work
            while (idle.rounds < Math.max(1, before)) {
                sleep.noWorkFound(idle, latch);
            }
            sleep.leaveIdle(idle, true);
            assertEquals(Math.min(max, Math.max(2, before * 2)), idle.roundsUntilSleepy(max));
            assertEquals(0, sleep.sleepersCount(), "a registration is retracted when work is found");
        }
        sleep.startLooking(idle);
        sleep.noWorkFound(idle, latch);
        sleep.leaveIdle(idle, true); // found after one round: no change
        assertEquals(max, idle.roundsUntilSleepy(max));
    }

    @Test
    void aLatchSetBeforeSleepingStopsTheWorkerFromBlocking() {
        HintPipeSleep sleep = open(1);
        IdleState idle = new IdleState(0, () -> false);
        WorkerLatch latch = latchFor(sleep, 0);
        idleUntilRegistered(sleep, idle, latch);
        latch.set();
        sleep.noWorkFound(idle, latch);
        assertEquals(0, sleep.sleeps(0));
        sleep.leaveIdle(idle, true);
        assertEquals(0, sleep.sleepersCount());
    }

    @Test
    void aBroadcastWakesEveryBlockedWorkerWithoutHints() throws Exception {
        int n = 3;
        HintPipeSleep sleep = open(n);
        List<Sleeper> ss = blockedSleepers(sleep, 0, 1, 2);
        sleep.newBroadcastJobs();
        for (Sleeper s : ss) {
            s.join();
            assertEquals(IdleState.NO_HINT, s.hint.get());
        }
        assertEquals(0, sleep.hintsWritten());
        assertEquals(0, sleep.sleepersCount(), "each withdrew its registration");
        assertEquals(3, totalWakeups(sleep, n));
    }

    @Test
    void theFinalCheckKeepsAWorkerWithABroadcastJobAwake() {
        HintPipeSleep sleep = open(1);
        IdleState idle = new IdleState(0, () -> true); // a broadcast job waits in its private queue
        WorkerLatch latch = latchFor(sleep, 0);
        idleUntilRegistered(sleep, idle, latch);
        sleep.noWorkFound(idle, latch);
        assertEquals(0, sleep.sleeps(0));
        assertEquals(0, sleep.sleepersCount());
        assertEquals(CoreLatch.UNSET, latch.state());
    }

    // --- H7: interrupts ---------------------------------------------------------------------------------------------

    @Test
    void interruptsNeitherWakeNorCloseAnything() throws Exception {
        HintPipeSleep sleep = open(2);
        List<Sleeper> ss = blockedSleepers(sleep, 0, 1); // one watches (select), one parks
        for (int round = 0; round < 5; round++) {
            for (Sleeper s : ss) {
                s.thread.interrupt();
            }
            Thread.sleep(10);
        }
        for (Sleeper s : ss) {
            assertTrue(s.thread.isAlive(), "an interrupt is not a wake-up");
            assertEquals(0, sleep.wakeups(s.index));
            assertEquals(1, sleep.sleeps(s.index), "woken by the interrupt, it blocked again without counting");
        }
        assertTrue(sleep.isOpen());
        sleep.newInjectedJobs(2, true);
        for (Sleeper s : ss) {
            s.join();
            assertEquals(IdleState.HINT_INJECTOR, s.hint.get());
            assertTrue(s.interruptedAfter.get(), "the interrupt status is restored for the caller");
        }
        assertTrue(sleep.isOpen());
        // and the pipe still works
        Sleeper again = blockedSleepers(sleep, 1).get(0);
        sleep.newInternalJobs(0, 1, true);
        again.join();
        assertEquals(0, again.hint.get());
    }

    @Test
    void anInterruptedNotifierDoesNotCloseThePipe() throws Exception {
        HintPipeSleep sleep = open(2);
        Sleeper s = blockedSleepers(sleep, 0).get(0);
        AtomicBoolean stillInterrupted = new AtomicBoolean();
        Thread notifier = new Thread(() -> {
            Thread.currentThread().interrupt();
            sleep.newInjectedJobs(1, true);
            stillInterrupted.set(Thread.currentThread().isInterrupted());
        });
        notifier.start();
        notifier.join();
        s.join();
        assertTrue(stillInterrupted.get());
        assertTrue(sleep.isOpen());
        assertEquals(1, sleep.hintsRead());
    }

    // --- resources --------------------------------------------------------------------------------------------------

    @Test
    void closeReleasesThePipeAndLaterNotificationsAreHarmless() {
        HintPipeSleep sleep = new HintPipeSleep(2);
        IdleState idle = new IdleState(0, () -> false);
        idleUntilRegistered(sleep, idle, latchFor(sleep, 0));
        sleep.close();
        assertFalse(sleep.isOpen());
        sleep.close(); // idempotent
        sleep.newInternalJobs(1, 1, true);
        sleep.newInjectedJobs(1, true);
        sleep.notifyWorkerLatchIsSet(0);
        sleep.terminate();
        assertEquals(0, sleep.hintsWritten());
    }

    // --- stress -----------------------------------------------------------------------------------------------------

    /** The protocol-level lost wake-up hunt of {@link SleepyWorkerSleepTest}, for this protocol. */
    @Test
    void postsAndLatchSetsAreNeverSleptThrough() throws Exception {
        int n = 4;
        HintPipeSleep sleep = open(n);
        SleepyWorkerSleepTest.ProtocolHarness h = new SleepyWorkerSleepTest.ProtocolHarness(sleep, n);
        long seed = Long.getLong("spindle.test.seed", 7L);
        h.run(new SplittableRandom(seed), Integer.getInteger("spindle.test.harnessRounds", 1_000));
        assertTrue(sleep.hintsWritten() - sleep.hintsRead() <= n, "H2");
        assertTrue(sleep.isOpen());
    }
}
