package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link ThreadPool} as an {@link java.util.concurrent.ExecutorService} (docs/DESIGN.md §1.8, §1.10). */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ExecutorServiceTest {

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS), "timed out waiting for a latch");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** A pool whose handler counts the failures it receives (there must be none from submitted tasks). */
    private static ThreadPool counting(TestPools.Config c, AtomicInteger handled) {
        return c.builder().uncaughtExceptionHandler((t, e) -> handled.incrementAndGet()).build();
    }

    /** Occupies every worker of {@code pool} until {@code release} opens; returns once all are occupied. */
    private static void occupyAllWorkers(ThreadPool pool, CountDownLatch release) {
        CountDownLatch started = new CountDownLatch(pool.threadCount());
        for (int i = 0; i < pool.threadCount(); i++) {
            pool.execute(() -> {
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        await(started);
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void executeRunsTheCommand(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            CountDownLatch done = new CountDownLatch(100);
            for (int i = 0; i < 100; i++) {
                pool.execute(done::countDown);
            }
            await(done);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void submitCallableReturnsItsValue(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            Future<String> f = pool.submit(() -> "v");
            assertEquals("v", f.get(30, TimeUnit.SECONDS));
            assertTrue(f.isDone());
            assertFalse(f.isCancelled());
            Future<Boolean> onWorker = pool.submit(() -> Spindle.currentThreadIndex().isPresent());
            assertTrue(onWorker.get());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void submitRunnableWithResultReturnsTheResult(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            AtomicBoolean ran = new AtomicBoolean();
            Future<String> f = pool.submit(() -> ran.set(true), "result");
            assertEquals("result", f.get());
            assertTrue(ran.get());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void submitRunnableCompletesWithNull(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            AtomicBoolean ran = new AtomicBoolean();
            Future<?> f = pool.submit(() -> ran.set(true));
            assertNull(f.get());
            assertTrue(ran.get());
            assertTrue(f.isDone());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void submitCallableFailureGoesIntoTheFutureNotTheHandler(TestPools.Config c) throws Exception {
        AtomicInteger handled = new AtomicInteger();
        try (ThreadPool pool = counting(c, handled)) {
            RuntimeException e = new IllegalStateException("callable");
            Future<Object> f = pool.submit((Callable<Object>) () -> {
                throw e;
            });
            ExecutionException ee = assertThrows(ExecutionException.class, () -> f.get(30, TimeUnit.SECONDS));
            assertSame(e, ee.getCause());
            assertTrue(f.isDone());
            IOException checked = new IOException("checked");
            Future<Object> g = pool.submit((Callable<Object>) () -> {
                throw checked;
            });
            assertSame(checked, assertThrows(ExecutionException.class, g::get).getCause());
            Error err = new AssertionError("error");
            Future<Object> h = pool.submit((Callable<Object>) () -> {
                throw err;
            });
            assertSame(err, assertThrows(ExecutionException.class, h::get).getCause());
        }
        assertEquals(0, handled.get(), "a submitted task's failure reached the handler");
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void submitRunnableFailuresGoIntoTheFutureNotTheHandler(TestPools.Config c) {
        AtomicInteger handled = new AtomicInteger();
        try (ThreadPool pool = counting(c, handled)) {
            RuntimeException e1 = new IllegalStateException("runnable");
            Future<?> f1 = pool.submit((Runnable) () -> {
                throw e1;
            });
            assertSame(e1, assertThrows(ExecutionException.class, f1::get).getCause());
            RuntimeException e2 = new IllegalStateException("runnable with result");
            Future<String> f2 = pool.submit(() -> {
                throw e2;
            }, "unused");
            assertSame(e2, assertThrows(ExecutionException.class, f2::get).getCause());
        }
        assertEquals(0, handled.get(), "a submitted task's failure reached the handler");
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void submittedFailuresFromInsideThePoolAlsoStayInTheFuture(TestPools.Config c) throws Exception {
        AtomicInteger handled = new AtomicInteger();
        try (ThreadPool pool = counting(c, handled)) {
            RuntimeException e = new IllegalStateException("inner");
            Throwable cause = pool.install(() -> {
                Future<Object> f = pool.submit((Callable<Object>) () -> {
                    throw e;
                });
                try {
                    f.get();
                    return null;
                } catch (ExecutionException x) {
                    return x.getCause();
                } catch (InterruptedException x) {
                    throw new AssertionError(x);
                }
            });
            assertSame(e, cause);
        }
        assertEquals(0, handled.get());
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void submitGetFromInsideAPoolTaskDoesNotDeadlock(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            // every worker waits in Future.get for a task submitted to its own pool
            List<Integer> r = pool.broadcast(ctx -> {
                try {
                    return pool.submit(() -> ctx.index() + 100).get();
                } catch (InterruptedException | ExecutionException e) {
                    throw new AssertionError(e);
                }
            });
            for (int i = 0; i < r.size(); i++) {
                assertEquals(i + 100, r.get(i));
            }
            assertEquals(7, pool.submit(() -> pool.submit(() -> 7).get()).get(30, TimeUnit.SECONDS));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void submitGetFromTheOnlyWorkerOfAOneThreadPoolDoesNotDeadlock(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.builder().threads(1).build()) {
            assertEquals(5, pool.install(() -> {
                try {
                    return pool.submit(() -> 5).get();
                } catch (InterruptedException | ExecutionException e) {
                    throw new AssertionError(e);
                }
            }));
            // nested twice, and with a timed get
            assertEquals(6, pool.submit(() -> pool.submit(() -> pool.submit(() -> 6).get())
                    .get(30, TimeUnit.SECONDS)).get(30, TimeUnit.SECONDS));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void cancelledBeforeStartNeverRuns(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            CountDownLatch release = new CountDownLatch(1);
            occupyAllWorkers(pool, release);
            AtomicBoolean ran = new AtomicBoolean();
            Future<Boolean> f = pool.submit(() -> ran.getAndSet(true));
            assertTrue(f.cancel(false));
            assertTrue(f.isCancelled());
            assertTrue(f.isDone());
            release.countDown();
            assertThrows(CancellationException.class, f::get);
            pool.close();
            assertFalse(ran.get(), "a task cancelled before it started ran");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void cancelTrueInterruptsTheRunningTask(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch interrupted = new CountDownLatch(1);
            Future<?> f = pool.submit(() -> {
                started.countDown();
                try {
                    new CountDownLatch(1).await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    interrupted.countDown();
                }
            });
            await(started);
            assertTrue(f.cancel(true));
            await(interrupted);
            assertThrows(CancellationException.class, f::get);
            // the worker carries on with a clear interrupt status
            assertEquals(c.threads(), pool.broadcast(ctx -> Thread.currentThread().isInterrupted()).stream()
                    .filter(b -> !b).count());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void invokeAllReturnsDoneFuturesInTaskOrder(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            List<Callable<Integer>> tasks = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                int k = i;
                tasks.add(() -> {
                    if (k % 7 == 3) {
                        throw new IllegalStateException("task " + k);
                    }
                    return k * k;
                });
            }
            List<Future<Integer>> fs = pool.invokeAll(tasks);
            assertEquals(30, fs.size());
            for (int i = 0; i < 30; i++) {
                Future<Integer> f = fs.get(i);
                assertTrue(f.isDone(), "invokeAll returned before task " + i + " was done");
                if (i % 7 == 3) {
                    ExecutionException ee = assertThrows(ExecutionException.class, f::get);
                    assertEquals("task " + i, ee.getCause().getMessage());
                } else {
                    assertEquals(i * i, f.get());
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void invokeAllFailuresNeverReachTheHandler(TestPools.Config c) throws Exception {
        AtomicInteger handled = new AtomicInteger();
        try (ThreadPool pool = counting(c, handled)) {
            List<Callable<Integer>> tasks = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                tasks.add(() -> {
                    throw new IllegalStateException();
                });
            }
            for (Future<Integer> f : pool.invokeAll(tasks)) {
                assertThrows(ExecutionException.class, f::get);
            }
            for (Future<Integer> f : pool.invokeAll(tasks, 30, TimeUnit.SECONDS)) {
                assertThrows(ExecutionException.class, f::get);
            }
            assertThrows(ExecutionException.class, () -> pool.invokeAny(tasks));
        }
        assertEquals(0, handled.get());
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void timedInvokeAllReturnsDoneFuturesInTaskOrder(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            List<Callable<Integer>> tasks = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                int k = i;
                tasks.add(() -> k + 1);
            }
            List<Future<Integer>> fs = pool.invokeAll(tasks, 30, TimeUnit.SECONDS);
            assertEquals(20, fs.size());
            for (int i = 0; i < 20; i++) {
                assertTrue(fs.get(i).isDone());
                assertFalse(fs.get(i).isCancelled());
                assertEquals(i + 1, fs.get(i).get());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void timedInvokeAllCancelsTasksNotDoneAtTheDeadline(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            CountDownLatch release = new CountDownLatch(1);
            List<Callable<Integer>> tasks = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                tasks.add(() -> {
                    release.await(30, TimeUnit.SECONDS);
                    return 1;
                });
            }
            List<Future<Integer>> fs = pool.invokeAll(tasks, 50, TimeUnit.MILLISECONDS);
            release.countDown();
            assertEquals(3, fs.size());
            for (Future<Integer> f : fs) {
                assertTrue(f.isDone());
                assertTrue(f.isCancelled(), "a task not done at the deadline was not cancelled");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void invokeAllOfNothingIsEmpty(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            assertTrue(pool.invokeAll(List.<Callable<Integer>>of()).isEmpty());
            assertTrue(pool.invokeAll(List.<Callable<Integer>>of(), 1, TimeUnit.SECONDS).isEmpty());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void invokeAnyReturnsTheResultOfASuccessfulTask(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            List<Callable<Integer>> tasks = new ArrayList<>();
            tasks.add(() -> {
                throw new IllegalStateException("fails fast");
            });
            tasks.add(() -> {
                Thread.sleep(5);
                return 42;
            });
            tasks.add(() -> {
                throw new IllegalArgumentException("fails fast too");
            });
            for (int round = 0; round < 10; round++) {
                assertEquals(42, pool.invokeAny(tasks));
                assertEquals(42, pool.invokeAny(tasks, 30, TimeUnit.SECONDS));
            }
            assertEquals(1, (int) pool.invokeAny(List.<Callable<Integer>>of(() -> 1)));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void invokeAnyWithEveryTaskFailingReportsFirstFailureWithOthersSuppressed(TestPools.Config c)
            throws Exception {
        try (ThreadPool pool = c.build()) {
            List<RuntimeException> failures = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                failures.add(new IllegalStateException("failure " + i));
            }
            List<Callable<Integer>> tasks = new ArrayList<>();
            for (RuntimeException f : failures) {
                tasks.add(() -> {
                    throw f;
                });
            }
            for (int round = 0; round < 5; round++) {
                for (RuntimeException f : failures) {
                    assertEquals(0, f.getSuppressed().length, "leftover suppressed from an earlier round");
                }
                ExecutionException ee = assertThrows(ExecutionException.class, () -> pool.invokeAny(tasks));
                Throwable cause = ee.getCause();
                assertNotNull(cause);
                assertTrue(failures.contains(cause), "cause " + cause + " is none of the failures");
                Map<Throwable, Integer> counts = new IdentityHashMap<>();
                for (Throwable s : cause.getSuppressed()) {
                    counts.merge(s, 1, Integer::sum);
                }
                assertFalse(counts.containsKey(cause), "suppressed into itself");
                for (RuntimeException f : failures) {
                    if (f != cause) {
                        assertEquals(1, counts.getOrDefault(f, 0), "suppressed count of " + f.getMessage());
                    }
                }
                assertEquals(failures.size() - 1, cause.getSuppressed().length);
                // fresh instances for the next round: suppressed lists cannot be cleared
                for (int i = 0; i < failures.size(); i++) {
                    failures.set(i, new IllegalStateException("failure " + i));
                }
                tasks.clear();
                for (RuntimeException f : failures) {
                    tasks.add(() -> {
                        throw f;
                    });
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void invokeAnyCauseIsTheFailureFirstInTime(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            AtomicBoolean someoneStarted = new AtomicBoolean();
            AtomicReference<RuntimeException> firstRef = new AtomicReference<>();
            CountDownLatch firstThrowing = new CountDownLatch(1);
            List<RuntimeException> all = new ArrayList<>();
            List<Callable<Integer>> tasks = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                RuntimeException e = new IllegalArgumentException("failure " + i);
                all.add(e);
                tasks.add(() -> {
                    if (someoneStarted.compareAndSet(false, true)) {
                        // whichever task starts first fails at once ...
                        firstRef.set(e);
                        firstThrowing.countDown();
                        throw e;
                    }
                    // ... and the others well after it
                    firstThrowing.await(30, TimeUnit.SECONDS);
                    Thread.sleep(100);
                    throw e;
                });
            }
            ExecutionException ee = assertThrows(ExecutionException.class, () -> pool.invokeAny(tasks));
            RuntimeException first = firstRef.get();
            assertSame(first, ee.getCause(), "the cause is not the failure first in time");
            Set<Throwable> others = Collections.newSetFromMap(new IdentityHashMap<>());
            others.addAll(all);
            others.remove(first);
            Set<Throwable> suppressed = Collections.newSetFromMap(new IdentityHashMap<>());
            suppressed.addAll(List.of(first.getSuppressed()));
            assertEquals(others, suppressed);
            assertEquals(3, first.getSuppressed().length);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void timedInvokeAnyTimesOutWhenNoTaskCompletes(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            CountDownLatch release = new CountDownLatch(1);
            List<Callable<Integer>> tasks = List.of(() -> {
                release.await(30, TimeUnit.SECONDS);
                return 1;
            });
            assertThrows(TimeoutException.class, () -> pool.invokeAny(tasks, 50, TimeUnit.MILLISECONDS));
            release.countDown();
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void invokeAnyOfNothingIsIllegal(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            assertThrows(IllegalArgumentException.class, () -> pool.invokeAny(List.<Callable<Integer>>of()));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void completableFutureSupplyAsyncRunsOnThePool(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            CompletableFuture<Integer> f = CompletableFuture.supplyAsync(() -> 20, pool)
                    .thenApplyAsync(x -> x + 1, pool)
                    .thenCombineAsync(CompletableFuture.supplyAsync(() -> 21, pool), Integer::sum, pool);
            assertEquals(42, f.get(30, TimeUnit.SECONDS));
            assertTrue(CompletableFuture.supplyAsync(() -> Spindle.currentThreadIndex().isPresent(), pool)
                    .get(30, TimeUnit.SECONDS));
            CompletableFuture<Void> r = CompletableFuture.runAsync(() -> {
                throw new IllegalStateException("in a CompletableFuture");
            }, pool);
            ExecutionException ee = assertThrows(ExecutionException.class, () -> r.get(30, TimeUnit.SECONDS));
            assertEquals("in a CompletableFuture", ee.getCause().getMessage());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void submissionsAfterShutdownAreRejected(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            pool.shutdown();
            AtomicBoolean ran = new AtomicBoolean();
            assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> ran.set(true)));
            assertThrows(RejectedExecutionException.class, () -> pool.submit(() -> ran.getAndSet(true)));
            assertThrows(RejectedExecutionException.class, () -> pool.submit(() -> ran.set(true), 1));
            assertThrows(RejectedExecutionException.class, () -> pool.submit((Runnable) () -> ran.set(true)));
            List<Callable<Boolean>> tasks = List.of(() -> ran.getAndSet(true));
            assertThrows(RejectedExecutionException.class, () -> pool.invokeAll(tasks));
            assertThrows(RejectedExecutionException.class, () -> pool.invokeAll(tasks, 1, TimeUnit.SECONDS));
            assertThrows(RejectedExecutionException.class, () -> pool.invokeAny(tasks));
            assertThrows(RejectedExecutionException.class, () -> pool.invokeAny(tasks, 1, TimeUnit.SECONDS));
            assertThrows(RejectedExecutionException.class,
                    () -> CompletableFuture.supplyAsync(() -> ran.getAndSet(true), pool));
            pool.close();
            assertFalse(ran.get(), "a rejected task ran");
        }
    }
}
