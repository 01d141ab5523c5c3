package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.AbstractMap.SimpleEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** shutdown, shutdownNow, close, awaitTermination (docs/DESIGN.md §1.9). */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ShutdownTest {

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS), "timed out waiting for a latch");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static boolean awaitTermination(ThreadPool pool) {
        try {
            return pool.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Occupies every worker with a task that waits for {@code release}; returns once all started. A blocker that is
     * interrupted counts it in {@code interrupts} and ends.
     */
    private static void occupyAllWorkers(ThreadPool pool, CountDownLatch release, AtomicInteger interrupts) {
        CountDownLatch started = new CountDownLatch(pool.threadCount());
        for (int i = 0; i < pool.threadCount(); i++) {
            pool.execute(() -> {
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    interrupts.incrementAndGet();
                }
            });
        }
        await(started);
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void lifecycleFlagsFollowShutdownAndTermination(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            assertFalse(pool.isShutdown());
            assertFalse(pool.isTerminated());
            assertFalse(pool.awaitTermination(20, TimeUnit.MILLISECONDS), "a running pool reported termination");
            pool.shutdown();
            assertTrue(pool.isShutdown());
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
            assertTrue(pool.isTerminated());
            assertTrue(pool.isShutdown());
            pool.shutdown(); // again: harmless
            assertTrue(pool.isTerminated());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void shutdownRejectsNewExternalSubmissions(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            pool.shutdown();
            AtomicBoolean ran = new AtomicBoolean();
            assertThrows(RejectedExecutionException.class, () -> pool.spawn(() -> ran.set(true)));
            assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> ran.set(true)));
            assertThrows(RejectedExecutionException.class, () -> pool.submit(() -> ran.getAndSet(true)));
            assertThrows(RejectedExecutionException.class, () -> pool.install(() -> ran.getAndSet(true)));
            assertThrows(RejectedExecutionException.class, () -> pool.broadcast(ctx -> ran.getAndSet(true)));
            assertTrue(awaitTermination(pool));
            assertThrows(RejectedExecutionException.class, () -> pool.spawn(() -> ran.set(true)));
            assertThrows(RejectedExecutionException.class, () -> pool.install(() -> ran.getAndSet(true)));
            assertFalse(ran.get(), "a rejected task ran");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void shutdownRejectsNewExternalJoinsAndScopes(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            pool.shutdown();
            AtomicBoolean ran = new AtomicBoolean();
            assertThrows(RejectedExecutionException.class,
                    () -> pool.join((Supplier<Boolean>) () -> ran.getAndSet(true), () -> ran.getAndSet(true)));
            assertThrows(RejectedExecutionException.class, () -> pool.join(() -> ran.set(true), () -> ran.set(true)));
            assertThrows(RejectedExecutionException.class, () -> pool.scope((Scope s) -> ran.getAndSet(true)));
            assertThrows(RejectedExecutionException.class,
                    () -> pool.scope((Consumer<Scope>) s -> ran.set(true)));
            assertFalse(ran.get(), "a rejected closure ran");
        }
    }

    /** The pool's name as {@code toString()} (and JFR) shows it: {@code spindle-<n>}. */
    static String poolName(ThreadPool pool) {
        Matcher m = Pattern.compile("name=(spindle-\\d+)").matcher(pool.toString());
        assertTrue(m.find(), "no name in " + pool);
        return m.group(1);
    }

    /**
     * A rejection says what a user needs: the operation refused, the pool by its name, and that it is shut down; and
     * none of the pool's internal state (counts, the injector, the sleep protocol), which toString() still shows.
     */
    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void rejectionsNameTheOperationAndThePoolAndNothingInternal(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            String name = poolName(pool);
            pool.shutdown();
            AtomicBoolean ran = new AtomicBoolean();
            List<Callable<Boolean>> tasks = List.of(() -> ran.getAndSet(true));
            List<Map.Entry<String, Executable>> calls = List.of(
                    new SimpleEntry<>("install", () -> pool.install(() -> ran.getAndSet(true))),
                    new SimpleEntry<>("install", () -> pool.install(() -> ran.set(true))), // the Runnable form
                    new SimpleEntry<>("join", () -> pool.join(() -> ran.set(true), () -> ran.set(true))),
                    new SimpleEntry<>("scope", () -> pool.scope(s -> ran.set(true))),
                    new SimpleEntry<>("spawn", () -> pool.spawn(() -> ran.set(true))),
                    new SimpleEntry<>("execute", () -> pool.execute(() -> ran.set(true))),
                    new SimpleEntry<>("submit", () -> pool.submit(() -> ran.getAndSet(true))),
                    new SimpleEntry<>("invokeAll", () -> pool.invokeAll(tasks)),
                    new SimpleEntry<>("invokeAny", () -> pool.invokeAny(tasks)),
                    new SimpleEntry<>("broadcast", () -> pool.broadcast(ctx -> ran.getAndSet(true))));
            for (Map.Entry<String, Executable> call : calls) {
                String message = assertThrows(RejectedExecutionException.class, call.getValue()).getMessage();
                assertEquals(call.getKey() + " rejected: pool " + name
                        + " is shut down; it accepts no new work from outside its workers", message);
            }
            assertFalse(ran.get(), "a rejected task ran");
            assertTrue(pool.toString().contains("shutting down") || pool.toString().contains("terminated"),
                    "toString() keeps the pool's state: " + pool);
        }
    }

    /** A task spawned from an exit hook, once the pool has terminated: the message says so. */
    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void spawnFromAnExitHookIsRejectedSayingThePoolTerminated(TestPools.Config c) {
        List<String> outcomes = new java.util.concurrent.CopyOnWriteArrayList<>();
        String name;
        try (ThreadPool pool = c.builder().onThreadExit(i -> {
            try {
                Spindle.spawn(() -> { });
                outcomes.add("accepted");
            } catch (RejectedExecutionException e) {
                outcomes.add(e.getMessage());
            }
        }).build()) {
            name = poolName(pool);
        }
        assertEquals(c.threads(), outcomes.size(), outcomes.toString());
        for (String outcome : outcomes) {
            assertEquals("spawn rejected: pool " + name + " has terminated", outcome);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void shutdownRunsEverythingAlreadyAccepted(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            CountDownLatch release = new CountDownLatch(1);
            occupyAllWorkers(pool, release, new AtomicInteger());
            AtomicInteger ran = new AtomicInteger();
            List<Future<Integer>> futures = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                pool.execute(ran::incrementAndGet);
                pool.spawn(ran::incrementAndGet);
                int k = i;
                futures.add(pool.submit(() -> {
                    ran.incrementAndGet();
                    return k;
                }));
            }
            pool.shutdown();
            assertFalse(pool.isTerminated(), "terminated with accepted work outstanding");
            release.countDown();
            assertTrue(awaitTermination(pool));
            assertEquals(90, ran.get(), "accepted tasks were dropped by shutdown");
            for (int i = 0; i < 30; i++) {
                assertEquals(i, futures.get(i).get(0, TimeUnit.SECONDS));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void acceptedTasksCanStillSpawnJoinAndScopeAfterShutdown(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            CountDownLatch shutDown = new CountDownLatch(1);
            AtomicInteger ran = new AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            pool.spawn(() -> {
                try {
                    await(shutDown);
                    for (int i = 0; i < 10; i++) {
                        pool.spawn(() -> {
                            ran.incrementAndGet();
                            pool.spawn(ran::incrementAndGet); // a spawn of a spawn, after shutdown
                        });
                    }
                    pool.join(ran::incrementAndGet, (Runnable) ran::incrementAndGet);
                    pool.scope((Scope s) -> {
                        s.spawn(ran::incrementAndGet);
                        s.spawn(t -> t.spawn(ran::incrementAndGet));
                    });
                    pool.install(ran::incrementAndGet);
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            pool.shutdown();
            shutDown.countDown();
            assertTrue(awaitTermination(pool));
            if (failure.get() != null) {
                throw new AssertionError("internal work was refused after shutdown", failure.get());
            }
            assertEquals(20 + 2 + 2 + 1, ran.get());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void poolDoesNotTerminateWhileSpawnedWorkIsOutstanding(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(1);
            AtomicBoolean grandchildRan = new AtomicBoolean();
            pool.spawn(() -> {
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                pool.spawn(() -> grandchildRan.set(true));
            });
            await(started);
            pool.shutdown();
            assertFalse(pool.awaitTermination(50, TimeUnit.MILLISECONDS), "terminated while a spawn was running");
            assertFalse(pool.isTerminated());
            release.countDown();
            assertTrue(awaitTermination(pool));
            assertTrue(grandchildRan.get(), "work spawned by a running task after shutdown was lost");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void blockingCallAcceptedBeforeShutdownCompletes(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicReference<Object> result = new AtomicReference<>();
            Thread caller = new Thread(() -> {
                try {
                    result.set(pool.install(() -> {
                        started.countDown();
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return pool.join(() -> 1, () -> 2);
                    }));
                } catch (Throwable e) {
                    result.set(e);
                }
            });
            caller.start();
            await(started);
            pool.shutdown();
            release.countDown();
            caller.join();
            assertEquals(new Pair<>(1, 2), result.get());
            assertTrue(awaitTermination(pool));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void exitHooksAllRanBeforeAwaitTerminationReturnsTrue(TestPools.Config c) {
        Set<Integer> exited = ConcurrentHashMap.newKeySet();
        AtomicInteger exits = new AtomicInteger();
        try (ThreadPool pool = c.builder().onThreadExit(i -> {
            try {
                Thread.sleep(10); // a slow hook: termination must still wait for it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exited.add(i);
            exits.incrementAndGet();
        }).build()) {
            pool.install(() -> 1);
            pool.shutdown();
            assertTrue(awaitTermination(pool));
            assertEquals(c.threads(), exits.get(), "awaitTermination returned before every exit hook ran");
            assertEquals(c.threads(), exited.size());
            assertTrue(pool.isTerminated());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void closeWaitsForAcceptedWorkAndExitHooks(TestPools.Config c) {
        AtomicInteger exits = new AtomicInteger();
        AtomicInteger ran = new AtomicInteger();
        ThreadPool pool = c.builder().onThreadExit(i -> exits.incrementAndGet()).build();
        for (int i = 0; i < 50; i++) {
            pool.spawn(() -> {
                Thread.yield();
                ran.incrementAndGet();
            });
        }
        pool.close();
        assertTrue(pool.isShutdown());
        assertTrue(pool.isTerminated(), "close returned before termination");
        assertEquals(50, ran.get());
        assertEquals(c.threads(), exits.get());
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void closeIsIdempotent(TestPools.Config c) {
        AtomicInteger exits = new AtomicInteger();
        ThreadPool pool = c.builder().onThreadExit(i -> exits.incrementAndGet()).build();
        pool.close();
        pool.close();
        pool.shutdown();
        pool.close();
        assertTrue(pool.isTerminated());
        assertEquals(c.threads(), exits.get(), "exit hooks ran more than once per worker");
        assertTrue(pool.shutdownNow().isEmpty());
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void closeFromInsideATaskDoesNotHang(TestPools.Config c) throws Exception {
        ThreadPool pool = c.build();
        Future<Integer> f = pool.submit(() -> {
            pool.close();
            return 1;
        });
        assertEquals(1, f.get(30, TimeUnit.SECONDS));
        assertTrue(pool.isShutdown());
        assertTrue(awaitTermination(pool));
        pool.close();
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void closeFromInsideInstallDoesNotHang(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            assertEquals(2, pool.install(() -> {
                pool.close();
                return 2;
            }));
            assertTrue(pool.isShutdown());
            assertTrue(awaitTermination(pool));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void awaitTerminationThrowsWhenTheCallerIsInterrupted(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            Thread.currentThread().interrupt();
            try {
                assertThrows(InterruptedException.class, () -> pool.awaitTermination(30, TimeUnit.SECONDS));
            } finally {
                Thread.interrupted();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void shutdownNowReturnsEveryQueuedExternalTaskAndInterruptsRunningOnes(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger interrupts = new AtomicInteger();
            occupyAllWorkers(pool, release, interrupts);
            int n = 20;
            AtomicIntegerArray runs = new AtomicIntegerArray(n);
            for (int i = 0; i < n; i++) {
                int k = i;
                pool.execute(() -> runs.incrementAndGet(k));
            }
            List<Runnable> returned = pool.shutdownNow();
            assertTrue(pool.isShutdown());
            assertTrue(awaitTermination(pool), "running tasks were not interrupted, or termination hangs");
            assertEquals(c.threads(), interrupts.get(), "every running task must be interrupted once");
            int ranInPool = 0;
            for (int i = 0; i < n; i++) {
                ranInPool += runs.get(i);
            }
            assertEquals(0, ranInPool, "queued tasks ran after shutdownNow");
            assertEquals(n, returned.size(), "shutdownNow did not return every queued task");
            for (Runnable r : returned) {
                r.run();
            }
            for (int i = 0; i < n; i++) {
                assertEquals(1, runs.get(i), "task " + i + " ran or was returned other than once");
            }
            release.countDown();
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void shutdownNowReturnedSubmittedTasksCompleteTheirFuturesWhenRun(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            CountDownLatch release = new CountDownLatch(1);
            occupyAllWorkers(pool, release, new AtomicInteger());
            List<Future<Integer>> futures = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                int k = i;
                futures.add(pool.submit(() -> k));
            }
            List<Runnable> returned = pool.shutdownNow();
            assertTrue(awaitTermination(pool));
            assertEquals(5, returned.size());
            for (Runnable r : returned) {
                r.run();
            }
            for (int i = 0; i < 5; i++) {
                assertEquals(i, futures.get(i).get(0, TimeUnit.SECONDS));
            }
            release.countDown();
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void shutdownNowInterruptsRunningTasksOnlyOnce(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            AtomicInteger first = new AtomicInteger();
            AtomicInteger second = new AtomicInteger();
            CountDownLatch started = new CountDownLatch(c.threads());
            for (int i = 0; i < c.threads(); i++) {
                pool.execute(() -> {
                    started.countDown();
                    try {
                        new CountDownLatch(1).await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        first.incrementAndGet();
                        try {
                            new CountDownLatch(1).await(200, TimeUnit.MILLISECONDS);
                        } catch (InterruptedException again) {
                            second.incrementAndGet();
                        }
                    }
                });
            }
            await(started);
            pool.shutdownNow();
            assertTrue(awaitTermination(pool));
            assertEquals(c.threads(), first.get());
            assertEquals(0, second.get(), "a running task was interrupted more than once");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void shutdownNowLetsRunningTasksFinishTheirInternalWork(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            CountDownLatch started = new CountDownLatch(1);
            AtomicInteger ran = new AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            pool.spawn(() -> {
                started.countDown();
                try {
                    new CountDownLatch(1).await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    // expected: shutdownNow interrupts us; now finish with nested parallel work
                }
                try {
                    pool.join(ran::incrementAndGet, (Runnable) ran::incrementAndGet);
                    pool.scope((Scope s) -> {
                        for (int i = 0; i < 10; i++) {
                            s.spawn(t -> t.spawn(ran::incrementAndGet));
                        }
                    });
                    ran.addAndGet(JoinTest.fib(10) == 55 ? 1 : -1000);
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            await(started);
            List<Runnable> returned = pool.shutdownNow();
            assertTrue(awaitTermination(pool));
            if (failure.get() != null) {
                throw new AssertionError("nested work failed after shutdownNow", failure.get());
            }
            assertTrue(returned.isEmpty(), "shutdownNow returned a task that had started or was internal");
            assertEquals(2 + 10 + 1, ran.get());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void shutdownNowNeverLosesOrDuplicatesAcceptedTasks(TestPools.Config c) throws Exception {
        for (int round = 0; round < 5; round++) {
            ThreadPool pool = c.build();
            int n = 4000;
            AtomicIntegerArray runs = new AtomicIntegerArray(n);
            boolean[] accepted = new boolean[n];
            CountDownLatch halfway = new CountDownLatch(1);
            Thread submitter = new Thread(() -> {
                for (int i = 0; i < n; i++) {
                    int k = i;
                    try {
                        pool.execute(() -> runs.incrementAndGet(k));
                        accepted[k] = true;
                    } catch (RejectedExecutionException e) {
                        accepted[k] = false;
                    }
                    if (i == n / 2) {
                        halfway.countDown();
                    }
                }
            });
            submitter.start();
            await(halfway);
            List<Runnable> returned = pool.shutdownNow();
            submitter.join();
            assertTrue(awaitTermination(pool));
            for (Runnable r : returned) {
                r.run();
            }
            for (int i = 0; i < n; i++) {
                assertEquals(accepted[i] ? 1 : 0, runs.get(i),
                        "round " + round + ": task " + i + (accepted[i] ? " (accepted)" : " (rejected)")
                                + " ran or was returned " + runs.get(i) + " times");
            }
            pool.close();
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void futureGetAfterShutdownNowOfARunTaskStillWorks(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            Future<Integer> f = pool.submit(() -> 3);
            assertEquals(3, f.get());
            pool.shutdownNow();
            assertTrue(awaitTermination(pool));
            assertEquals(3, f.get());
            assertThrows(RejectedExecutionException.class, () -> pool.submit(() -> 4));
        }
    }
}
