package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * install / join / scope / broadcast from a worker of pool A into pool B (docs/DESIGN.md §1.7): the work runs on B, and
 * A's worker keeps running A's jobs while it waits.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CrossPoolTest {
    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    /** Pool A: one worker, so only its waiting worker can run A's jobs. */
    private static ThreadPool poolA(TestPools.Config c, String prefix) {
        return ThreadPool.builder().threads(1).sleepStrategy(c.strategy()).threadName(i -> prefix + i).build();
    }

    private static String uniquePrefix(String what) {
        return "cross-" + what + "-" + POOL_IDS.incrementAndGet() + "-";
    }

    private static boolean await(CountDownLatch latch) {
        try {
            return latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static boolean on(String prefix) {
        return Thread.currentThread().getName().startsWith(prefix);
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void installFromAWorkerOfAnotherPoolRunsOnTheTargetPool(TestPools.Config c) {
        String pa = uniquePrefix("A");
        String pb = uniquePrefix("B");
        try (ThreadPool a = poolA(c, pa); ThreadPool b = c.builder().threadName(i -> pb + i).build()) {
            String[] r = a.install(() -> b.install(() -> new String[] {Thread.currentThread().getName(),
                    String.valueOf(Spindle.currentThreadCount())}));
            assertTrue(r[0].startsWith(pb), "ran on " + r[0]);
            assertEquals(String.valueOf(c.threads()), r[1], "free functions inside B's install do not mean B");
            assertEquals(42, a.install(() -> b.install(() -> 42)));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void joinFromAWorkerOfAnotherPoolRunsOnTheTargetPool(TestPools.Config c) {
        String pa = uniquePrefix("A");
        String pb = uniquePrefix("B");
        try (ThreadPool a = poolA(c, pa); ThreadPool b = c.builder().threadName(i -> pb + i).build()) {
            Pair<String, String> r = a.install(() -> b.join(() -> Thread.currentThread().getName(),
                    () -> Thread.currentThread().getName()));
            assertTrue(r.first().startsWith(pb), "a ran on " + r.first());
            assertTrue(r.second().startsWith(pb), "b ran on " + r.second());
            long fib = a.install(() -> {
                Pair<Long, Long> p = b.join(() -> JoinTest.fib(15), () -> JoinTest.fib(14));
                return p.first() + p.second();
            });
            assertEquals(987L, fib);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeFromAWorkerOfAnotherPoolRunsOnTheTargetPool(TestPools.Config c) {
        String pa = uniquePrefix("A");
        String pb = uniquePrefix("B");
        try (ThreadPool a = poolA(c, pa); ThreadPool b = c.builder().threadName(i -> pb + i).build()) {
            Set<String> names = ConcurrentHashMap.newKeySet();
            AtomicInteger tasks = new AtomicInteger();
            int r = a.install(() -> b.scopeWithResult((Scope s) -> {
                names.add(Thread.currentThread().getName());
                for (int i = 0; i < 20; i++) {
                    s.spawn(() -> {
                        names.add(Thread.currentThread().getName());
                        tasks.incrementAndGet();
                    });
                }
                return 3;
            }));
            assertEquals(3, r);
            assertEquals(20, tasks.get());
            for (String n : names) {
                assertTrue(n.startsWith(pb), "scope work ran on " + n);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void broadcastFromAWorkerOfAnotherPoolRunsOnEveryTargetWorker(TestPools.Config c) {
        String pa = uniquePrefix("A");
        String pb = uniquePrefix("B");
        try (ThreadPool a = poolA(c, pa); ThreadPool b = c.builder().threadName(i -> pb + i).build()) {
            List<String> names = a.install(() -> b.broadcast(ctx -> Thread.currentThread().getName()));
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < c.threads(); i++) {
                expected.add(pb + i);
            }
            assertEquals(expected, names);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void failuresCrossPoolsAsTheSameInstance(TestPools.Config c) {
        try (ThreadPool a = poolA(c, uniquePrefix("A")); ThreadPool b = c.build()) {
            RuntimeException e = new IllegalStateException("from B");
            assertSame(e, assertThrows(IllegalStateException.class, () -> a.install(() -> b.install(() -> {
                throw e;
            }))));
            Error err = new AssertionError("from B's join");
            assertSame(err, assertThrows(AssertionError.class, () -> a.install(() -> b.join(() -> 1, () -> {
                throw err;
            }))));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void waitingWorkerKeepsRunningItsOwnPoolsJobsDuringInstall(TestPools.Config c) {
        try (ThreadPool a = poolA(c, uniquePrefix("A")); ThreadPool b = c.build()) {
            // A's only worker waits in b.install; the op spawns onto A and waits for that job, which only A's
            // waiting worker can run
            boolean ran = a.install(() -> b.install(() -> {
                CountDownLatch latch = new CountDownLatch(1);
                a.spawn(latch::countDown);
                return await(latch);
            }));
            assertTrue(ran, "A's worker did not run A's job while waiting in B");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void waitingWorkerKeepsRunningItsOwnPoolsJobsDuringJoin(TestPools.Config c) {
        try (ThreadPool a = poolA(c, uniquePrefix("A")); ThreadPool b = c.build()) {
            Pair<Boolean, Integer> r = a.install(() -> b.join(() -> {
                CountDownLatch latch = new CountDownLatch(1);
                a.spawn(latch::countDown);
                return await(latch);
            }, () -> 1));
            assertTrue(r.first(), "A's worker did not run A's job while waiting in B's join");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void waitingWorkerKeepsRunningItsOwnPoolsJobsDuringScope(TestPools.Config c) {
        try (ThreadPool a = poolA(c, uniquePrefix("A")); ThreadPool b = c.build()) {
            AtomicInteger ok = new AtomicInteger();
            a.install(() -> {
                b.scope((Scope s) -> s.spawn(() -> {
                    CountDownLatch latch = new CountDownLatch(1);
                    a.spawn(latch::countDown);
                    if (await(latch)) {
                        ok.incrementAndGet();
                    }
                }));
                return null;
            });
            assertEquals(1, ok.get(), "A's worker did not run A's job while waiting in B's scope");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void waitingWorkerKeepsRunningItsOwnPoolsJobsDuringBroadcast(TestPools.Config c) {
        try (ThreadPool a = poolA(c, uniquePrefix("A")); ThreadPool b = c.build()) {
            List<Boolean> r = a.install(() -> b.broadcast(ctx -> {
                if (ctx.index() != 0) {
                    return true;
                }
                CountDownLatch latch = new CountDownLatch(1);
                a.spawn(latch::countDown);
                return await(latch);
            }));
            assertTrue(r.get(0), "A's worker did not run A's job while waiting in B's broadcast");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void installBackIntoTheWaitingPoolCompletes(TestPools.Config c) {
        try (ThreadPool a = poolA(c, uniquePrefix("A")); ThreadPool b = c.build()) {
            // A -> B -> A: the inner install is external to A, and only A's waiting worker can run it
            assertEquals(5, a.install(() -> b.install(() -> a.install(() -> 5))));
            assertEquals(new Pair<>(1, 2), a.install(() -> b.install(() -> a.join(() -> 1, () -> 2))));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void pingPongBetweenPoolsManyTimes(TestPools.Config c) {
        try (ThreadPool a = c.build(); ThreadPool b = c.build()) {
            for (int i = 0; i < 100; i++) {
                int k = i;
                assertEquals(k + 2, a.install(() -> b.install(() -> a.install(() -> k + 1)) + 1));
            }
            // both pools call into each other at once from several workers
            List<Integer> r = a.broadcast(ctx -> b.install(() -> a.install(() -> ctx.index())));
            for (int i = 0; i < r.size(); i++) {
                assertEquals(i, r.get(i));
            }
        }
    }
}
