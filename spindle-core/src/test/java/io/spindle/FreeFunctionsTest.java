package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link Spindle}: the free functions mean the current worker's pool, else the global pool (docs/DESIGN.md §1.1). */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FreeFunctionsTest {
    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    private static String uniquePrefix() {
        return "free-" + POOL_IDS.incrementAndGet() + "-";
    }

    private static Set<Thread> globalWorkers() {
        return new HashSet<>(ThreadPool.global().broadcast(ctx -> Thread.currentThread()));
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS), "timed out waiting for a latch");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void currentThreadIndexIsEmptyOffPool() {
        assertEquals(OptionalInt.empty(), Spindle.currentThreadIndex());
        AtomicReference<OptionalInt> onPlainThread = new AtomicReference<>();
        Thread t = new Thread(() -> onPlainThread.set(Spindle.currentThreadIndex()));
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        assertEquals(OptionalInt.empty(), onPlainThread.get());
    }

    @Test
    void currentThreadCountOffPoolIsTheGlobalPoolsSize() {
        assertEquals(ThreadPool.global().threadCount(), Spindle.currentThreadCount());
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void currentThreadCountOnAWorkerIsItsPoolsSize(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            assertEquals(c.threads(), pool.install(Spindle::currentThreadCount));
            List<Integer> counts = pool.broadcast(ctx -> Spindle.currentThreadCount());
            for (int n : counts) {
                assertEquals(c.threads(), n);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void currentThreadIndexOnAWorkerIsItsIndex(TestPools.Config c) {
        String prefix = uniquePrefix();
        try (ThreadPool pool = c.builder().threadName(i -> prefix + i).build()) {
            for (int round = 0; round < 20; round++) {
                String[] seen = pool.install(() -> new String[] {
                        String.valueOf(Spindle.currentThreadIndex().orElse(-1)), Thread.currentThread().getName()});
                assertEquals(prefix + seen[0], seen[1], "currentThreadIndex does not match the worker's index");
            }
            CountDownLatch done = new CountDownLatch(1);
            AtomicReference<String> spawned = new AtomicReference<>();
            pool.spawn(() -> {
                spawned.set(prefix + Spindle.currentThreadIndex().orElse(-1) + "|" + Thread.currentThread().getName());
                done.countDown();
            });
            await(done);
            String[] parts = spawned.get().split("\\|");
            assertEquals(parts[1], parts[0]);
        }
    }

    @Test
    void offPoolJoinRunsOnTheGlobalPool() {
        Set<Thread> global = globalWorkers();
        Pair<Thread, Thread> r = Spindle.join(Thread::currentThread, Thread::currentThread);
        assertTrue(global.contains(r.first()), "a ran on " + r.first());
        assertTrue(global.contains(r.second()), "b ran on " + r.second());
        AtomicInteger both = new AtomicInteger();
        Spindle.join(both::incrementAndGet, (Runnable) both::incrementAndGet);
        assertEquals(2, both.get());
        Pair<Long, Long> fib = Spindle.join(() -> JoinTest.fib(19), () -> JoinTest.fib(18));
        assertEquals(6765L, fib.first() + fib.second());
    }

    @Test
    void offPoolScopeRunsBodyAndTasksOnTheGlobalPool() {
        Set<Thread> global = globalWorkers();
        Set<Thread> seen = ConcurrentHashMap.newKeySet();
        AtomicInteger tasks = new AtomicInteger();
        int r = Spindle.scopeWithResult((Scope s) -> {
            seen.add(Thread.currentThread());
            for (int i = 0; i < 10; i++) {
                s.spawn(() -> {
                    seen.add(Thread.currentThread());
                    tasks.incrementAndGet();
                });
            }
            return 5;
        });
        assertEquals(5, r);
        assertEquals(10, tasks.get());
        assertTrue(global.containsAll(seen), "scope work ran outside the global pool: " + seen);
        AtomicInteger consumerTasks = new AtomicInteger();
        Spindle.scope((Scope s) -> s.spawn(t -> t.spawn(consumerTasks::incrementAndGet)));
        assertEquals(1, consumerTasks.get());
    }

    @Test
    void offPoolSpawnRunsOnTheGlobalPool() {
        Set<Thread> global = globalWorkers();
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Spindle.spawn(() -> {
            ranOn.set(Thread.currentThread());
            done.countDown();
        });
        await(done);
        assertTrue(global.contains(ranOn.get()), "spawned task ran on " + ranOn.get());
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void freeFunctionsOnAWorkerMeanThatWorkersPool(TestPools.Config c) {
        String prefix = uniquePrefix();
        try (ThreadPool pool = c.builder().threadName(i -> prefix + i).build()) {
            Set<String> names = ConcurrentHashMap.newKeySet();
            CountDownLatch spawned = new CountDownLatch(1);
            pool.install(() -> {
                Pair<String, String> r = Spindle.join(() -> Thread.currentThread().getName(),
                        () -> Thread.currentThread().getName());
                names.add(r.first());
                names.add(r.second());
                Spindle.join(() -> names.add(Thread.currentThread().getName()),
                        () -> names.add(Thread.currentThread().getName()));
                Spindle.scope((Scope s) -> {
                    names.add(Thread.currentThread().getName());
                    s.spawn(() -> names.add(Thread.currentThread().getName()));
                });
                Spindle.spawn(() -> {
                    names.add(Thread.currentThread().getName());
                    spawned.countDown();
                });
                return null;
            });
            await(spawned);
            for (String n : names) {
                assertTrue(n.startsWith(prefix), "free function on a worker of the pool ran on " + n);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void freeFunctionsRethrowLikeThePoolMethods(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            RuntimeException ea = new IllegalStateException("a");
            RuntimeException eb = new IllegalArgumentException("b");
            Throwable caught = pool.install(() -> {
                try {
                    Spindle.join(() -> {
                        throw ea;
                    }, () -> {
                        throw eb;
                    });
                    return null;
                } catch (RuntimeException e) {
                    return e;
                }
            });
            assertSame(ea, caught);
            assertEquals(List.of(eb), List.of(caught.getSuppressed()));
            RuntimeException inScope = new IllegalStateException("scope");
            assertSame(inScope, assertThrows(IllegalStateException.class,
                    () -> pool.install(() -> {
                        Spindle.scope((Scope s) -> s.spawn(() -> {
                            throw inScope;
                        }));
                        return null;
                    })));
        }
        // off-pool, on the global pool
        Error e = new AssertionError("global");
        assertSame(e, assertThrows(AssertionError.class, () -> Spindle.join(() -> {
            throw e;
        }, () -> 1)));
    }

    @Test
    void freeFunctionsOnAPlainThreadAlsoUseTheGlobalPool() throws Exception {
        Set<Thread> global = globalWorkers();
        AtomicReference<Object> result = new AtomicReference<>();
        Thread t = new Thread(() -> result.set(Spindle.join(Thread::currentThread, Thread::currentThread)));
        t.start();
        t.join();
        @SuppressWarnings("unchecked")
        Pair<Thread, Thread> r = (Pair<Thread, Thread>) result.get();
        assertTrue(global.contains(r.first()));
        assertTrue(global.contains(r.second()));
        assertFalse(global.contains(t));
    }
}
