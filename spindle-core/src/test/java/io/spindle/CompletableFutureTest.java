package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link CompletableFuture} interop: a pool as the executor of {@code CompletableFuture.supplyAsync}, and the pool's
 * own {@link ThreadPool#supplyAsync} / {@link ThreadPool#runAsync}.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CompletableFutureTest {
    private static final String PREFIX = "cf-worker-";

    private static ThreadPool pool(TestPools.Config c) {
        return c.builder().threadName(i -> PREFIX + i).build();
    }

    private static boolean onAWorker() {
        return Thread.currentThread().getName().startsWith(PREFIX);
    }

    private static void await(CountDownLatch latch) throws InterruptedException {
        assertTrue(latch.await(30, TimeUnit.SECONDS), "timed out waiting for a latch");
    }

    // --- the pool as a plain Executor -------------------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void supplyAsyncWithThePoolRunsOnAWorker(TestPools.Config c) {
        try (ThreadPool pool = pool(c)) {
            CompletableFuture<Boolean> f = CompletableFuture.supplyAsync(CompletableFutureTest::onAWorker, pool);
            assertTrue(f.join());
            assertEquals(20L, CompletableFuture.supplyAsync(() -> 10L, pool)
                    .thenApplyAsync(x -> pool.install(() -> x * 2), pool).join());
        }
    }

    @Test
    void supplyAsyncWithThePoolCompletesExceptionallyWhenTheSupplierThrows() {
        try (ThreadPool pool = ThreadPool.builder().threads(2).build()) {
            IllegalStateException boom = new IllegalStateException("boom");
            CompletableFuture<Object> f = CompletableFuture.supplyAsync(() -> {
                throw boom;
            }, pool);
            CompletionException joined = assertThrows(CompletionException.class, f::join);
            assertSame(boom, joined.getCause());
            ExecutionException got = assertThrows(ExecutionException.class, f::get);
            assertSame(boom, got.getCause());
        }
    }

    /**
     * CompletableFuture lets a rejection from {@code execute} escape {@code supplyAsync} itself: the caller gets the
     * exception and no future.
     */
    @Test
    void supplyAsyncOnAShutDownPoolThrowsRejectedExecution() {
        ThreadPool pool = ThreadPool.builder().threads(2).build();
        pool.close();
        assertThrows(RejectedExecutionException.class, () -> CompletableFuture.supplyAsync(() -> 1, pool));
        assertThrows(RejectedExecutionException.class, () -> CompletableFuture.runAsync(() -> { }, pool));
    }

    /**
     * A dependent stage, though, catches the rejection: the stage completes exceptionally with it as the cause, both
     * when its source had completed already and when the source completes after the shutdown.
     */
    @Test
    void asyncStageOnAShutDownPoolCompletesExceptionallyWithTheRejection() {
        CompletableFuture<Integer> pending = new CompletableFuture<>();
        ThreadPool pool = ThreadPool.builder().threads(2).build();
        CompletableFuture<Integer> later = pending.thenApplyAsync(x -> x + 1, pool);
        pool.close();

        CompletableFuture<Integer> now = CompletableFuture.completedFuture(1).thenApplyAsync(x -> x + 1, pool);
        assertTrue(now.isCompletedExceptionally());
        assertInstanceOf(RejectedExecutionException.class, assertThrows(CompletionException.class, now::join)
                .getCause());

        pending.complete(1);
        assertTrue(later.isCompletedExceptionally());
        assertInstanceOf(RejectedExecutionException.class, assertThrows(CompletionException.class, later::join)
                .getCause());
    }

    // --- ThreadPool.supplyAsync / runAsync --------------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void poolSupplyAsyncReturnsTheResultAndItsAsyncStagesRunOnThePool(TestPools.Config c) {
        try (ThreadPool pool = pool(c)) {
            assertEquals(6765L, pool.supplyAsync(() -> JoinTest.fib(20)).join());
            // No executor given: the stage runs on the pool, not on ForkJoinPool.commonPool(), and so do its own.
            CompletableFuture<Boolean> stage = pool.supplyAsync(() -> 1)
                    .thenApplyAsync(x -> onAWorker())
                    .thenApplyAsync(onFirst -> onFirst && onAWorker());
            assertTrue(stage.join(), "async stages ran on the pool's workers");
        }
    }

    @Test
    void poolRunAsyncCompletesWithNull() throws Exception {
        try (ThreadPool pool = ThreadPool.builder().threads(2).build()) {
            AtomicBoolean ran = new AtomicBoolean();
            CompletableFuture<Void> f = pool.runAsync(() -> ran.set(true));
            assertNull(f.get(30, TimeUnit.SECONDS));
            assertTrue(ran.get());
        }
    }

    @Test
    void poolSupplyAsyncCompletesExceptionallyWhenTheSupplierThrows() {
        try (ThreadPool pool = ThreadPool.builder().threads(2).build()) {
            IllegalArgumentException boom = new IllegalArgumentException("boom");
            CompletableFuture<Object> f = pool.supplyAsync(() -> {
                throw boom;
            });
            assertSame(boom, assertThrows(CompletionException.class, f::join).getCause());
            assertSame(boom, assertThrows(ExecutionException.class, f::get).getCause());
            CompletableFuture<Void> r = pool.runAsync(() -> {
                throw boom;
            });
            assertSame(boom, assertThrows(CompletionException.class, r::join).getCause());
        }
    }

    @Test
    void poolSupplyAsyncAfterShutdownThrowsRejectedExecution() {
        ThreadPool pool = ThreadPool.builder().threads(2).build();
        pool.shutdown();
        assertThrows(RejectedExecutionException.class, () -> pool.supplyAsync(() -> 1));
        assertThrows(RejectedExecutionException.class, () -> pool.runAsync(() -> { }));
        pool.close();
    }

    @Test
    void poolSupplyAsyncRejectsNull() {
        try (ThreadPool pool = ThreadPool.builder().threads(1).build()) {
            assertThrows(NullPointerException.class, () -> pool.supplyAsync(null));
            assertThrows(NullPointerException.class, () -> pool.runAsync(null));
        }
    }

    /** Cancelled before a worker reached it: the future is cancelled at once, and the supplier never runs. */
    @Test
    void cancellingBeforeTheTaskStartsSkipsTheSupplier() throws Exception {
        try (ThreadPool pool = ThreadPool.builder().threads(1).build()) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch busy = new CountDownLatch(1);
            pool.execute(() -> {
                busy.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            await(busy); // the only worker is occupied: the next task waits in the injector
            AtomicBoolean ran = new AtomicBoolean();
            CompletableFuture<Integer> f = pool.supplyAsync(() -> {
                ran.set(true);
                return 1;
            });
            assertTrue(f.cancel(true));
            assertTrue(f.isCancelled());
            assertThrows(CancellationException.class, f::join);
            release.countDown();
            // The injector is FIFO and there is one worker: once a later task ran, the cancelled one was taken.
            assertEquals(2, pool.supplyAsync(() -> 2).get(30, TimeUnit.SECONDS));
            assertFalse(ran.get(), "a cancelled task that had not started must not run its supplier");
        }
    }

    /** Cancelling a running task does not interrupt it; its result is dropped. */
    @Test
    void cancellingARunningTaskLetsItFinishAndDropsItsResult() throws Exception {
        try (ThreadPool pool = ThreadPool.builder().threads(1).build()) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicBoolean interrupted = new AtomicBoolean();
            AtomicBoolean finished = new AtomicBoolean();
            CompletableFuture<Integer> f = pool.supplyAsync(() -> {
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    interrupted.set(true);
                }
                finished.set(true);
                return 1;
            });
            await(started);
            assertTrue(f.cancel(true));
            release.countDown();
            assertEquals(2, pool.supplyAsync(() -> 2).get(30, TimeUnit.SECONDS));
            assertTrue(finished.get());
            assertFalse(interrupted.get(), "CompletableFuture.cancel does not interrupt");
            assertTrue(f.isCancelled());
        }
    }

    /**
     * A worker joining a future of its own pool keeps running the pool's jobs meanwhile, so it does not deadlock even
     * when it is the only worker and the future's task is queued behind it.
     */
    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void aWorkerMayWaitForAFutureOfItsOwnPool(TestPools.Config c) {
        try (ThreadPool pool = c.builder().threads(1).build()) {
            assertEquals(42, pool.install(() -> pool.supplyAsync(() -> 42).join()));
            assertEquals(43, pool.install(() -> {
                try {
                    return pool.supplyAsync(() -> 43).get();
                } catch (InterruptedException | ExecutionException e) {
                    throw new AssertionError(e);
                }
            }));
            assertEquals(44, pool.install(() -> pool.supplyAsync(() -> 40)
                    .thenApplyAsync(x -> x + 4).join()));
        }
    }

    @Test
    void aWorkerOfAnotherPoolRunsItsOwnPoolsJobsWhileItWaits() {
        try (ThreadPool a = ThreadPool.builder().threads(1).build();
             ThreadPool b = ThreadPool.builder().threads(1).build()) {
            // a's only worker waits for b's future, whose task needs a job on a: a's worker must run it meanwhile.
            int r = a.install(() -> b.supplyAsync(() -> a.supplyAsync(() -> 5).join() + 1).join());
            assertEquals(6, r);
        }
    }
}
