package io.spindle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link ThreadPool#join} and its failure rules (docs/DESIGN.md §1.2, §1.8). */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JoinTest {
    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    /** A pool of configuration {@code c} whose worker names start with a prefix unique to it. */
    private static ThreadPool named(TestPools.Config c, String[] prefixOut) {
        String prefix = "join-" + POOL_IDS.incrementAndGet() + "-";
        prefixOut[0] = prefix;
        return c.builder().threadName(i -> prefix + i).build();
    }

    private static boolean onWorkerOf(String prefix) {
        return Thread.currentThread().getName().startsWith(prefix) && Spindle.currentThreadIndex().isPresent();
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> RuntimeException sneakyThrow(Throwable t) throws T {
        throw (T) t;
    }

    static long fib(int n) {
        if (n < 2) {
            return n;
        }
        Pair<Long, Long> r = Spindle.join(() -> fib(n - 1), () -> fib(n - 2));
        return r.first() + r.second();
    }

    /** Sum of a complete binary tree of the given depth whose nodes are numbered 1..2^depth-1 in heap order. */
    static long treeSum(int node, int depth, AtomicLong visits) {
        visits.incrementAndGet();
        if (depth == 1) {
            return node;
        }
        Pair<Long, Long> r = Spindle.join(() -> treeSum(2 * node, depth - 1, visits),
                () -> treeSum(2 * node + 1, depth - 1, visits));
        return node + r.first() + r.second();
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void joinReturnsBothResultsInOrder(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            Pair<Integer, String> r = pool.join(() -> 1, () -> "two");
            assertEquals(new Pair<>(1, "two"), r);
            Pair<Object, Object> nulls = pool.join(() -> null, () -> null);
            assertEquals(new Pair<>(null, null), nulls);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void joinRunnableRunsBothClosures(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            AtomicInteger a = new AtomicInteger();
            AtomicInteger b = new AtomicInteger();
            for (int i = 0; i < 100; i++) {
                pool.join(a::incrementAndGet, (Runnable) b::incrementAndGet);
            }
            assertEquals(100, a.get());
            assertEquals(100, b.get());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void joinOffPoolRunsBothClosuresOnPoolWorkers(TestPools.Config c) {
        String[] p = new String[1];
        try (ThreadPool pool = named(c, p)) {
            Thread caller = Thread.currentThread();
            Pair<OptionalInt, OptionalInt> idx = pool.join(Spindle::currentThreadIndex, Spindle::currentThreadIndex);
            assertTrue(idx.first().isPresent(), "a did not run on a worker");
            assertTrue(idx.second().isPresent(), "b did not run on a worker");
            assertTrue(idx.first().getAsInt() >= 0 && idx.first().getAsInt() < c.threads());
            assertTrue(idx.second().getAsInt() >= 0 && idx.second().getAsInt() < c.threads());
            Pair<Thread, Thread> threads = pool.join(Thread::currentThread, Thread::currentThread);
            assertNotSame(caller, threads.first());
            assertNotSame(caller, threads.second());
            assertTrue(threads.first().getName().startsWith(p[0]), threads.first().getName());
            assertTrue(threads.second().getName().startsWith(p[0]), threads.second().getName());
            Pair<Integer, Integer> counts = pool.join(Spindle::currentThreadCount, Spindle::currentThreadCount);
            assertEquals(new Pair<>(c.threads(), c.threads()), counts);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void joinOnWorkerRunsAInlineOnCallingWorker(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            boolean inline = pool.install(() -> {
                Thread me = Thread.currentThread();
                Pair<Thread, Thread> r = pool.join(Thread::currentThread, Thread::currentThread);
                return r.first() == me;
            });
            assertTrue(inline, "a did not run inline on the worker that called join");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void joinOnSingleWorkerRunsBOnThatWorker(TestPools.Config c) {
        try (ThreadPool pool = c.builder().threads(1).build()) {
            boolean same = pool.install(() -> {
                Thread me = Thread.currentThread();
                return pool.join(() -> 0, Thread::currentThread).second() == me;
            });
            assertTrue(same, "with one worker, b was not taken back by the joining worker");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void joinRunsBWhenAThrows(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            RuntimeException ea = new IllegalStateException("a");
            AtomicBoolean bRan = new AtomicBoolean();
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> pool.join(() -> {
                throw ea;
            }, () -> bRan.set(true)));
            assertSame(ea, thrown);
            assertTrue(bRan.get(), "b did not run although a threw");
            assertEquals(0, thrown.getSuppressed().length);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void joinRunsAWhenBThrows(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            RuntimeException eb = new IllegalStateException("b");
            AtomicBoolean aRan = new AtomicBoolean();
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> pool.join(() -> aRan.set(true), () -> {
                throw eb;
            }));
            assertSame(eb, thrown);
            assertTrue(aRan.get());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void joinRethrowsAFailureOnlyAfterBEnded(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            for (int round = 0; round < 5; round++) {
                RuntimeException ea = new IllegalStateException("a");
                CountDownLatch aStarted = new CountDownLatch(1);
                AtomicBoolean bEnded = new AtomicBoolean();
                RuntimeException thrown = assertThrows(RuntimeException.class, () -> pool.join(() -> {
                    aStarted.countDown();
                    throw ea;
                }, () -> {
                    try {
                        // if b was stolen, make it outlive a by a wide margin
                        aStarted.await(30, TimeUnit.SECONDS);
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    bEnded.set(true);
                }));
                assertSame(ea, thrown);
                assertTrue(bEnded.get(), "a's failure was rethrown before b ended");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void joinRethrowsBFailureOnlyAfterAEnded(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            for (int round = 0; round < 5; round++) {
                RuntimeException eb = new IllegalStateException("b");
                AtomicBoolean aEnded = new AtomicBoolean();
                RuntimeException thrown = assertThrows(RuntimeException.class, () -> pool.join(() -> {
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    aEnded.set(true);
                }, () -> {
                    throw eb;
                }));
                assertSame(eb, thrown);
                assertTrue(aEnded.get(), "b's failure was rethrown before a ended");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void joinRethrowsFirstFailureWithSecondSuppressedExactlyOnce(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            for (int round = 0; round < 20; round++) {
                RuntimeException ea = new IllegalStateException("a");
                RuntimeException eb = new IllegalArgumentException("b");
                RuntimeException thrown = assertThrows(RuntimeException.class, () -> pool.join(() -> {
                    throw ea;
                }, () -> {
                    throw eb;
                }));
                assertSame(ea, thrown, "a's throwable must win, whichever ended first");
                assertArrayEquals(new Throwable[] {eb}, thrown.getSuppressed());
                assertEquals(0, eb.getSuppressed().length);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void joinPrefersAFailureEvenWhenBFailsFirst(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            RuntimeException ea = new IllegalStateException("a");
            RuntimeException eb = new IllegalArgumentException("b");
            CountDownLatch bThrowing = new CountDownLatch(1);
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> pool.join(() -> {
                try {
                    // if b was stolen, let it fail first
                    bThrowing.await(200, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw ea;
            }, () -> {
                bThrowing.countDown();
                throw eb;
            }));
            assertSame(ea, thrown);
            assertArrayEquals(new Throwable[] {eb}, thrown.getSuppressed());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void joinRethrowsErrorsAsTheSameInstance(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            Error ea = new AssertionError("a");
            Error thrownA = assertThrows(Error.class, () -> pool.join(() -> {
                throw ea;
            }, () -> { }));
            assertSame(ea, thrownA);
            Error eb = new OutOfMemoryError("b (fake)");
            Error thrownB = assertThrows(Error.class, () -> pool.join(() -> { }, () -> {
                throw eb;
            }));
            assertSame(eb, thrownB);
            StackOverflowError so = new StackOverflowError("fake");
            RuntimeException re = new RuntimeException("b");
            Error both = assertThrows(Error.class, () -> pool.join(() -> {
                throw so;
            }, () -> {
                throw re;
            }));
            assertSame(so, both);
            assertArrayEquals(new Throwable[] {re}, both.getSuppressed());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void joinRethrowsCheckedThrowableAsIs(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            IOException io = new IOException("sneaky");
            Throwable thrown = assertThrows(IOException.class, () -> pool.join(() -> {
                throw sneakyThrow(io);
            }, () -> 1));
            assertSame(io, thrown);
            Throwable thrownB = assertThrows(IOException.class, () -> pool.join(() -> 1, () -> {
                throw sneakyThrow(io);
            }));
            assertSame(io, thrownB);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void joinSameInstanceFromBothIsNotSuppressedIntoItself(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            for (int round = 0; round < 10; round++) {
                RuntimeException shared = new IllegalStateException("shared");
                RuntimeException thrown = assertThrows(RuntimeException.class, () -> pool.join(() -> {
                    throw shared;
                }, () -> {
                    throw shared;
                }));
                assertSame(shared, thrown);
                assertEquals(0, thrown.getSuppressed().length);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void joinFailuresFromInsideAWorkerFollowTheSameRules(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            RuntimeException ea = new IllegalStateException("a");
            RuntimeException eb = new IllegalArgumentException("b");
            Throwable caught = pool.install(() -> {
                try {
                    pool.join(() -> {
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
            assertArrayEquals(new Throwable[] {eb}, caught.getSuppressed());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void poolStillWorksAfterFailedJoins(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            for (int i = 0; i < 20; i++) {
                assertThrows(IllegalStateException.class, () -> pool.join(() -> {
                    throw new IllegalStateException();
                }, () -> 1));
            }
            assertEquals(new Pair<>(1, 2), pool.join(() -> 1, () -> 2));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void recursiveFib20GivesTheRightAnswer(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            assertEquals(6765L, pool.install(() -> fib(20)));
            // the same from a top-level external join
            Pair<Long, Long> r = pool.join(() -> fib(19), () -> fib(18));
            assertEquals(6765L, r.first() + r.second());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void depth16TreeSumVisitsEveryNodeOnce(TestPools.Config c) {
        String[] p = new String[1];
        try (ThreadPool pool = named(c, p)) {
            AtomicLong visits = new AtomicLong();
            AtomicInteger offPool = new AtomicInteger();
            long n = (1L << 16) - 1;
            long sum = pool.install(() -> {
                if (!onWorkerOf(p[0])) {
                    offPool.incrementAndGet();
                }
                return treeSum(1, 16, visits);
            });
            assertEquals(n * (n + 1) / 2, sum);
            assertEquals(n, visits.get());
            assertEquals(0, offPool.get());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void recursiveJoinsRunEveryClosureOnPoolWorkers(TestPools.Config c) {
        String[] p = new String[1];
        try (ThreadPool pool = named(c, p)) {
            AtomicInteger elsewhere = new AtomicInteger();
            AtomicInteger leaves = new AtomicInteger();
            pool.install(() -> {
                tree(10, pool, p[0], elsewhere, leaves);
                return null;
            });
            assertEquals(1 << 10, leaves.get());
            assertEquals(0, elsewhere.get(), "closures ran outside the pool");
        }
    }

    private static void tree(int depth, ThreadPool pool, String prefix, AtomicInteger elsewhere,
            AtomicInteger leaves) {
        if (!onWorkerOf(prefix)) {
            elsewhere.incrementAndGet();
        }
        if (depth == 0) {
            leaves.incrementAndGet();
            return;
        }
        pool.join(() -> tree(depth - 1, pool, prefix, elsewhere, leaves),
                () -> tree(depth - 1, pool, prefix, elsewhere, leaves));
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void failureDeepInRecursiveJoinReachesTheTopAsTheSameInstance(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            RuntimeException leaf = new IllegalStateException("leaf 777");
            AtomicInteger leaves = new AtomicInteger();
            RuntimeException thrown = assertThrows(RuntimeException.class,
                    () -> pool.install(() -> failingTree(0, 12, 777, leaf, leaves)));
            assertSame(leaf, thrown);
            assertEquals(0, thrown.getSuppressed().length);
            assertEquals(1 << 12, leaves.get(), "join must run both closures even below a failure");
        }
    }

    private static long failingTree(int index, int depth, int failAt, RuntimeException e, AtomicInteger leaves) {
        if (depth == 0) {
            leaves.incrementAndGet();
            if (index == failAt) {
                throw e;
            }
            return index;
        }
        Pair<Long, Long> r = Spindle.join(() -> failingTree(2 * index, depth - 1, failAt, e, leaves),
                () -> failingTree(2 * index + 1, depth - 1, failAt, e, leaves));
        return r.first() + r.second();
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void concurrentExternalJoinsAllComplete(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            int callers = 4;
            int perCaller = 200;
            AtomicInteger done = new AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < callers; t++) {
                int base = t * perCaller;
                Thread th = new Thread(() -> {
                    try {
                        for (int i = 0; i < perCaller; i++) {
                            int k = base + i;
                            Pair<Integer, Integer> r = pool.join(() -> k, () -> -k);
                            if (r.first() != k || r.second() != -k) {
                                throw new AssertionError("wrong pair " + r + " for " + k);
                            }
                            done.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                threads.add(th);
                th.start();
            }
            for (Thread th : threads) {
                th.join();
            }
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            assertEquals(callers * perCaller, done.get());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void joinWaitsForStolenBWhileRunningOtherWork(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            // b itself joins deeply; a returns at once, so the joining worker must wait for (or run) b
            Pair<Integer, Long> r = pool.install(() -> pool.join(() -> 1, () -> fib(15)));
            assertEquals(new Pair<>(1, 610L), r);
        }
    }
}
