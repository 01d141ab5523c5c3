package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ThreadPool#spawn} and {@link ThreadPool#execute}: asynchrony, failures to the handler
 * (docs/DESIGN.md §1.4).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SpawnTest {
    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    /** What a handler received. */
    record Failure(Thread thread, Throwable throwable) {}

    private static String uniquePrefix() {
        return "spawn-" + POOL_IDS.incrementAndGet() + "-";
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS), "timed out waiting for a latch");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static Failure take(LinkedBlockingQueue<Failure> q) {
        try {
            Failure f = q.poll(30, TimeUnit.SECONDS);
            assertNotNull(f, "the handler was not called");
            return f;
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> RuntimeException sneakyThrow(Throwable t) throws T {
        throw (T) t;
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void spawnRunsTheTaskOnAPoolWorker(TestPools.Config c) {
        String prefix = uniquePrefix();
        try (ThreadPool pool = c.builder().threadName(i -> prefix + i).build()) {
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(1);
            pool.spawn(() -> {
                ranOn.set(Thread.currentThread());
                done.countDown();
            });
            await(done);
            assertNotSame(Thread.currentThread(), ranOn.get());
            assertTrue(ranOn.get().getName().startsWith(prefix), ranOn.get().getName());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void executeRunsTheTaskOnAPoolWorker(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            AtomicReference<Boolean> onWorker = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(1);
            pool.execute(() -> {
                onWorker.set(Spindle.currentThreadIndex().isPresent());
                done.countDown();
            });
            await(done);
            assertTrue(onWorker.get());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void spawnFromWorkerNeverRunsInlineOnTheCaller(TestPools.Config c) {
        ThreadLocal<Boolean> insideSpawnCall = ThreadLocal.withInitial(() -> false);
        try (ThreadPool pool = c.build()) {
            AtomicInteger inline = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(20);
            pool.install(() -> {
                for (int i = 0; i < 20; i++) {
                    insideSpawnCall.set(true);
                    pool.spawn(() -> {
                        if (insideSpawnCall.get()) {
                            inline.incrementAndGet();
                        }
                        done.countDown();
                    });
                    insideSpawnCall.set(false);
                }
                return null;
            });
            await(done);
            assertEquals(0, inline.get(), "spawn ran the task inline on the caller's stack");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void chainOf100kNestedSpawnsDoesNotGrowTheStack(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            CountDownLatch done = new CountDownLatch(1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicInteger links = new AtomicInteger();
            pool.spawn(new Runnable() {
                int left = 100_000;

                @Override
                public void run() {
                    try {
                        links.incrementAndGet();
                        if (--left == 0) {
                            done.countDown();
                        } else {
                            pool.spawn(this);
                        }
                    } catch (Throwable e) {
                        failure.set(e);
                        done.countDown();
                    }
                }
            });
            await(done);
            if (failure.get() != null) {
                throw new AssertionError("spawn chain failed", failure.get());
            }
            assertEquals(100_000, links.get());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void chainOfNestedFreeFunctionSpawnsDoesNotGrowTheStack(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            CountDownLatch done = new CountDownLatch(1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            pool.install(() -> {
                Spindle.spawn(new Runnable() {
                    int left = 100_000;

                    @Override
                    public void run() {
                        try {
                            if (--left == 0) {
                                done.countDown();
                            } else {
                                Spindle.spawn(this);
                            }
                        } catch (Throwable e) {
                            failure.set(e);
                            done.countDown();
                        }
                    }
                });
                return null;
            });
            await(done);
            if (failure.get() != null) {
                throw new AssertionError("spawn chain failed", failure.get());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void spawnFailureGoesToHandlerWithTheWorkerThread(TestPools.Config c) {
        LinkedBlockingQueue<Failure> failures = new LinkedBlockingQueue<>();
        try (ThreadPool pool = c.builder().uncaughtExceptionHandler((t, e) -> failures.add(new Failure(t, e)))
                .build()) {
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            RuntimeException e = new IllegalStateException("spawned");
            pool.spawn(() -> {
                ranOn.set(Thread.currentThread());
                throw e;
            });
            Failure f = take(failures);
            assertSame(e, f.throwable());
            assertSame(ranOn.get(), f.thread(), "handler did not receive the worker that ran the task");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void executeFailureGoesToHandlerWithTheWorkerThread(TestPools.Config c) {
        LinkedBlockingQueue<Failure> failures = new LinkedBlockingQueue<>();
        try (ThreadPool pool = c.builder().uncaughtExceptionHandler((t, e) -> failures.add(new Failure(t, e)))
                .build()) {
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            RuntimeException e = new IllegalStateException("executed");
            pool.execute(() -> {
                ranOn.set(Thread.currentThread());
                throw e;
            });
            Failure f = take(failures);
            assertSame(e, f.throwable());
            assertSame(ranOn.get(), f.thread());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void spawnHandsErrorsAndCheckedThrowablesToTheHandler(TestPools.Config c) {
        LinkedBlockingQueue<Failure> failures = new LinkedBlockingQueue<>();
        try (ThreadPool pool = c.builder().uncaughtExceptionHandler((t, e) -> failures.add(new Failure(t, e)))
                .build()) {
            Error error = new AssertionError("error");
            pool.spawn(() -> {
                throw error;
            });
            assertSame(error, take(failures).throwable());
            IOException checked = new IOException("checked");
            pool.execute(() -> {
                throw sneakyThrow(checked);
            });
            assertSame(checked, take(failures).throwable());
            Error fromWorker = new StackOverflowError("fake");
            pool.install(() -> {
                pool.spawn(() -> {
                    throw fromWorker;
                });
                return null;
            });
            assertSame(fromWorker, take(failures).throwable());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void workersCarryOnAfterSpawnFailures(TestPools.Config c) {
        LinkedBlockingQueue<Failure> failures = new LinkedBlockingQueue<>();
        try (ThreadPool pool = c.builder().uncaughtExceptionHandler((t, e) -> failures.add(new Failure(t, e)))
                .build()) {
            int n = 10 * c.threads();
            for (int i = 0; i < n; i++) {
                int k = i;
                pool.spawn(() -> {
                    throw new IllegalStateException("f" + k);
                });
            }
            List<Failure> got = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                got.add(take(failures));
            }
            // every worker is still alive and the pool still works
            List<Thread> workers = pool.broadcast(ctx -> Thread.currentThread());
            assertEquals(c.threads(), workers.size());
            assertEquals(new Pair<>(1, 2), pool.join(() -> 1, () -> 2));
            CountDownLatch more = new CountDownLatch(50);
            for (int i = 0; i < 50; i++) {
                pool.spawn(more::countDown);
            }
            await(more);
            for (Failure f : got) {
                assertTrue(workers.contains(f.thread()), "handler got a thread that is no worker: " + f.thread());
            }
            pool.close();
            assertTrue(failures.isEmpty(), "handler called more often than tasks failed");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void defaultHandlerIsTheThreadsDefaultUncaughtExceptionHandler(TestPools.Config c) {
        String prefix = uniquePrefix();
        Thread.UncaughtExceptionHandler saved = Thread.getDefaultUncaughtExceptionHandler();
        LinkedBlockingQueue<Failure> failures = new LinkedBlockingQueue<>();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            if (t.getName().startsWith(prefix)) {
                failures.add(new Failure(t, e));
            } else if (saved != null) {
                saved.uncaughtException(t, e);
            }
        });
        try (ThreadPool pool = c.builder().threadName(i -> prefix + i).build()) {
            RuntimeException e = new IllegalStateException("to the default handler");
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            pool.spawn(() -> {
                ranOn.set(Thread.currentThread());
                throw e;
            });
            Failure f = take(failures);
            assertSame(e, f.throwable());
            assertSame(ranOn.get(), f.thread());
            Error err = new AssertionError("error to the default handler");
            pool.execute(() -> {
                throw err;
            });
            assertSame(err, take(failures).throwable());
            assertEquals(3, pool.install(() -> 3), "pool unusable after failures went to the default handler");
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(saved);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void spawnFailureDoesNotAffectOtherSpawnedTasks(TestPools.Config c) {
        LinkedBlockingQueue<Failure> failures = new LinkedBlockingQueue<>();
        try (ThreadPool pool = c.builder().uncaughtExceptionHandler((t, e) -> failures.add(new Failure(t, e)))
                .build()) {
            CountDownLatch ok = new CountDownLatch(100);
            for (int i = 0; i < 100; i++) {
                pool.spawn(ok::countDown);
                pool.spawn(() -> {
                    throw new IllegalStateException();
                });
            }
            await(ok);
            pool.close();
            assertEquals(100, failures.size());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void spawnsFromManyExternalThreadsAllRun(TestPools.Config c) throws InterruptedException {
        try (ThreadPool pool = c.build()) {
            int threads = 4;
            int each = 1000;
            AtomicInteger ran = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(threads * each);
            List<Thread> submitters = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread th = new Thread(() -> {
                    for (int i = 0; i < each; i++) {
                        pool.spawn(() -> {
                            ran.incrementAndGet();
                            done.countDown();
                        });
                    }
                });
                submitters.add(th);
                th.start();
            }
            for (Thread th : submitters) {
                th.join();
            }
            await(done);
            assertEquals(threads * each, ran.get());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void spawnFromWorkerRunsOnTheSamePool(TestPools.Config c) {
        String prefix = uniquePrefix();
        try (ThreadPool pool = c.builder().threadName(i -> prefix + i).build()) {
            List<String> names = java.util.Collections.synchronizedList(new ArrayList<>());
            CountDownLatch done = new CountDownLatch(10);
            pool.install(() -> {
                for (int i = 0; i < 10; i++) {
                    pool.spawn(() -> {
                        names.add(Thread.currentThread().getName());
                        done.countDown();
                    });
                }
                return null;
            });
            await(done);
            for (String n : names) {
                assertTrue(n.startsWith(prefix), n);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void spawnReturnsBeforeTheTaskRunsWhenCalledFromOutside(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            pool.spawn(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                done.countDown();
            });
            // spawn returned although the task cannot end yet: it did not run on this thread
            assertFalse(done.getCount() == 0);
            release.countDown();
            await(done);
        }
    }
}
