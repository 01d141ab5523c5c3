package io.spindle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link ThreadPool#scope} and {@link Scope} (docs/DESIGN.md §1.3, §1.5, §1.7). */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ScopeTest {
    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    private static ThreadPool named(TestPools.Config c, String prefix) {
        return c.builder().threadName(i -> prefix + i).build();
    }

    private static String uniquePrefix(String what) {
        return "scope-" + what + "-" + POOL_IDS.incrementAndGet() + "-";
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Each failure in {@code all} except {@code thrown} is suppressed in {@code thrown} exactly once. */
    private static void assertOthersSuppressedOnceEach(Throwable thrown, List<? extends Throwable> all) {
        assertTrue(all.stream().anyMatch(t -> t == thrown), "rethrown " + thrown + " is none of the failures");
        Map<Throwable, Integer> counts = new IdentityHashMap<>();
        for (Throwable s : thrown.getSuppressed()) {
            counts.merge(s, 1, Integer::sum);
        }
        assertFalse(counts.containsKey(thrown), "a throwable was suppressed into itself");
        for (Throwable t : all) {
            if (t != thrown) {
                assertEquals(1, counts.getOrDefault(t, 0), "suppressed count of " + t.getMessage());
            }
        }
        assertEquals(all.size() - 1, thrown.getSuppressed().length, "unexpected extra suppressed throwables");
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeReturnsBodyValue(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            assertEquals("v", pool.scopeWithResult((Scope s) -> "v"));
            assertNull(pool.scopeWithResult((Scope s) -> null));
            AtomicInteger n = new AtomicInteger();
            int r = pool.scopeWithResult((Scope s) -> {
                s.spawn(n::incrementAndGet);
                return 42;
            });
            assertEquals(42, r);
            assertEquals(1, n.get());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeWaitsForEverySpawnedTask(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            AtomicInteger done = new AtomicInteger();
            pool.scope((Scope s) -> {
                for (int i = 0; i < 30; i++) {
                    s.spawn(() -> {
                        sleep(2);
                        done.incrementAndGet();
                    });
                }
            });
            assertEquals(30, done.get(), "scope returned before its tasks ended");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeWaitsForSpawnsOfSpawns(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            AtomicInteger nodes = new AtomicInteger();
            pool.scope((Scope s) -> s.spawn(t -> spawnTree(t, 10, nodes)));
            assertEquals((1 << 11) - 1, nodes.get(), "scope returned before nested spawns ended");
        }
    }

    private static void spawnTree(Scope s, int depth, AtomicInteger nodes) {
        if (depth == 0) {
            Thread.yield();
        } else {
            s.spawn(t -> spawnTree(t, depth - 1, nodes));
            s.spawn(t -> spawnTree(t, depth - 1, nodes));
        }
        nodes.incrementAndGet();
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeWaitsForSlowLeafSpawnedLast(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            AtomicInteger done = new AtomicInteger();
            pool.scope((Scope s) -> s.spawn(a -> a.spawn(b -> b.spawn(() -> {
                sleep(50);
                done.incrementAndGet();
            }))));
            assertEquals(1, done.get());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeRunnableAndConsumerSpawnsBothCount(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            AtomicInteger runnables = new AtomicInteger();
            AtomicInteger consumers = new AtomicInteger();
            pool.scope((Scope s) -> {
                for (int i = 0; i < 10; i++) {
                    s.spawn(runnables::incrementAndGet);
                    s.spawn(inner -> {
                        consumers.incrementAndGet();
                        inner.spawn(runnables::incrementAndGet);
                    });
                }
            });
            assertEquals(20, runnables.get());
            assertEquals(10, consumers.get());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeBodyRunsOnPoolWorkerWhenCalledFromOutside(TestPools.Config c) {
        String prefix = uniquePrefix("body");
        try (ThreadPool pool = named(c, prefix)) {
            String name = pool.scopeWithResult((Scope s) -> Thread.currentThread().getName());
            assertTrue(name.startsWith(prefix), "body ran on " + name);
            assertTrue(pool.scopeWithResult((Scope s) -> Spindle.currentThreadIndex().isPresent()));
            assertEquals(c.threads(), pool.scopeWithResult((Scope s) -> Spindle.currentThreadCount()));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeBodyRunsInlineWhenCalledFromOwnWorker(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            for (int round = 0; round < 20; round++) {
                String verdict = pool.install(() -> {
                    Thread me = Thread.currentThread();
                    long injectedBefore = pool.stats().injected();
                    boolean same = pool.scopeWithResult((Scope s) -> Thread.currentThread() == me);
                    long injectedAfter = pool.stats().injected();
                    if (!same) {
                        return "body ran on another thread";
                    }
                    return injectedAfter == injectedBefore ? "inline" : "body was injected into the pool";
                });
                assertEquals("inline", verdict, "scope called on the pool's own worker");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void freeFunctionsInScopeBodyMeanTheScopesPool(TestPools.Config c) {
        String prefix = uniquePrefix("free");
        try (ThreadPool pool = named(c, prefix)) {
            Set<String> names = ConcurrentHashMap.newKeySet();
            CountDownLatch spawned = new CountDownLatch(1);
            pool.scope((Scope s) -> {
                Pair<String, String> r = Spindle.join(() -> Thread.currentThread().getName(),
                        () -> Thread.currentThread().getName());
                names.add(r.first());
                names.add(r.second());
                Spindle.scope((Scope inner) -> inner.spawn(() -> names.add(Thread.currentThread().getName())));
                Spindle.spawn(() -> {
                    names.add(Thread.currentThread().getName());
                    spawned.countDown();
                });
            });
            assertTrue(await(spawned));
            assertFalse(names.isEmpty());
            for (String n : names) {
                assertTrue(n.startsWith(prefix), "free function inside the body ran on " + n);
            }
        }
    }

    private static boolean await(CountDownLatch latch) {
        try {
            return latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeTasksRunOnPoolWorkers(TestPools.Config c) {
        String prefix = uniquePrefix("tasks");
        try (ThreadPool pool = named(c, prefix)) {
            Set<String> names = ConcurrentHashMap.newKeySet();
            pool.scope((Scope s) -> {
                for (int i = 0; i < 20; i++) {
                    s.spawn(() -> names.add(Thread.currentThread().getName()));
                    s.spawn(t -> names.add(Thread.currentThread().getName()));
                }
            });
            for (String n : names) {
                assertTrue(n.startsWith(prefix), "scope task ran on " + n);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeSpawnFromAnotherPoolsThreadRunsOnScopesPool(TestPools.Config c) {
        String prefix = uniquePrefix("home");
        String otherPrefix = uniquePrefix("other");
        try (ThreadPool pool = named(c, prefix);
             ThreadPool other = ThreadPool.builder().threads(2).sleepStrategy(c.strategy())
                     .threadName(i -> otherPrefix + i).build()) {
            Set<String> names = ConcurrentHashMap.newKeySet();
            AtomicInteger ran = new AtomicInteger();
            pool.scope((Scope s) -> {
                other.install(() -> {
                    for (int i = 0; i < 10; i++) {
                        s.spawn(() -> {
                            names.add(Thread.currentThread().getName());
                            ran.incrementAndGet();
                        });
                        s.spawn(t -> {
                            names.add(Thread.currentThread().getName());
                            ran.incrementAndGet();
                        });
                    }
                    return null;
                });
                // also from a spawn of the other pool, while the scope is open
                CountDownLatch sent = new CountDownLatch(1);
                other.spawn(() -> {
                    s.spawn(() -> {
                        names.add(Thread.currentThread().getName());
                        ran.incrementAndGet();
                    });
                    sent.countDown();
                });
                await(sent);
            });
            assertEquals(21, ran.get(), "scope did not wait for tasks spawned from the other pool");
            for (String n : names) {
                assertTrue(n.startsWith(prefix), "task spawned from another pool's thread ran on " + n);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeRethrowsFailureOfSpawnedTask(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            RuntimeException e = new IllegalStateException("task");
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> pool.scope((Scope s) -> s.spawn(() -> {
                throw e;
            })));
            assertSame(e, thrown);
            assertEquals(0, thrown.getSuppressed().length);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeRethrowsFailureOfBody(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            RuntimeException e = new IllegalStateException("body");
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> pool.scope((Scope s) -> {
                throw e;
            }));
            assertSame(e, thrown);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeRethrowsErrorsAsTheSameInstance(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            Error body = new AssertionError("body");
            assertSame(body, assertThrows(Error.class, () -> pool.scope((Scope s) -> {
                throw body;
            })));
            Error task = new StackOverflowError("fake");
            assertSame(task, assertThrows(Error.class, () -> pool.scope((Scope s) -> s.spawn(() -> {
                throw task;
            }))));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeRunsEveryTaskDespiteFailures(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            AtomicInteger ran = new AtomicInteger();
            RuntimeException first = new IllegalStateException("first");
            assertThrows(IllegalStateException.class, () -> pool.scope((Scope s) -> {
                s.spawn(() -> {
                    throw first;
                });
                for (int i = 0; i < 50; i++) {
                    s.spawn(t -> {
                        t.spawn(ran::incrementAndGet);
                        ran.incrementAndGet();
                    });
                }
            }));
            assertEquals(100, ran.get());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeBodyFailureStillWaitsForSpawnedTasks(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            AtomicInteger ran = new AtomicInteger();
            RuntimeException e = new IllegalStateException("body");
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> pool.scope((Scope s) -> {
                for (int i = 0; i < 20; i++) {
                    s.spawn(() -> {
                        sleep(2);
                        ran.incrementAndGet();
                    });
                }
                throw e;
            }));
            assertSame(e, thrown);
            assertEquals(20, ran.get(), "scope rethrew the body's failure before its tasks ended");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeRethrowsFirstFailureInTimeFromTasks(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            RuntimeException first = new IllegalStateException("first");
            RuntimeException second = new IllegalArgumentException("second");
            CountDownLatch firstThrowing = new CountDownLatch(1);
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> pool.scope((Scope s) -> s.spawn(t -> {
                // the second task is spawned by the first, so it can only fail after the first began to fail
                t.spawn(() -> {
                    await(firstThrowing);
                    sleep(100);
                    throw second;
                });
                firstThrowing.countDown();
                throw first;
            })));
            assertSame(first, thrown, "the failure first in time must be rethrown");
            assertArrayEquals(new Throwable[] {second}, thrown.getSuppressed());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeRethrowsBodyFailureWhenItCameFirst(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            RuntimeException body = new IllegalStateException("body");
            RuntimeException task = new IllegalArgumentException("task");
            CountDownLatch bodyThrowing = new CountDownLatch(1);
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> pool.scope((Scope s) -> {
                s.spawn(() -> {
                    await(bodyThrowing);
                    sleep(100);
                    throw task;
                });
                bodyThrowing.countDown();
                throw body;
            }));
            assertSame(body, thrown);
            assertArrayEquals(new Throwable[] {task}, thrown.getSuppressed());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeSuppressesEveryOtherFailureExactlyOnce(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            for (int round = 0; round < 10; round++) {
                List<RuntimeException> failures = new ArrayList<>();
                for (int i = 0; i < 12; i++) {
                    failures.add(new IllegalStateException("f" + i));
                }
                RuntimeException thrown = assertThrows(RuntimeException.class, () -> pool.scope((Scope s) -> {
                    for (int i = 1; i < failures.size(); i++) {
                        RuntimeException f = failures.get(i);
                        if (i % 2 == 0) {
                            s.spawn(() -> {
                                throw f;
                            });
                        } else {
                            s.spawn(t -> {
                                throw f;
                            });
                        }
                    }
                    throw failures.get(0);
                }));
                assertOthersSuppressedOnceEach(thrown, failures);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeSameInstanceThrownTwiceIsNotSuppressedIntoItself(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            RuntimeException shared = new IllegalStateException("shared");
            RuntimeException other = new IllegalArgumentException("other");
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> pool.scope((Scope s) -> {
                s.spawn(() -> {
                    throw shared;
                });
                s.spawn(() -> {
                    throw shared;
                });
                s.spawn(() -> {
                    throw other;
                });
            }));
            Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            seen.add(thrown);
            for (Throwable t : thrown.getSuppressed()) {
                assertTrue(seen.add(t), "suppressed twice or into itself: " + t);
            }
            assertEquals(Set.of(shared, other), new HashSet<>(seen));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void nestedScopeEndsBeforeOuterBodyContinues(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            AtomicInteger inner = new AtomicInteger();
            int seen = pool.scopeWithResult((Scope s) -> {
                pool.scope((Scope t) -> {
                    for (int i = 0; i < 20; i++) {
                        t.spawn(() -> {
                            sleep(1);
                            inner.incrementAndGet();
                        });
                    }
                });
                return inner.get();
            });
            assertEquals(20, seen);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void nestedScopeFailureDoesNotLeakIntoOuterScope(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            RuntimeException innerFailure = new IllegalStateException("inner");
            String r = pool.scopeWithResult((Scope s) -> {
                try {
                    pool.scope((Scope t) -> t.spawn(() -> {
                        throw innerFailure;
                    }));
                    return "no failure";
                } catch (IllegalStateException e) {
                    return e == innerFailure ? "caught" : "other";
                }
            });
            assertEquals("caught", r);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void manySmallExternalScopesAllComplete(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            for (int round = 0; round < 300; round++) {
                AtomicInteger n = new AtomicInteger();
                int r = pool.scopeWithResult((Scope s) -> {
                    s.spawn(n::incrementAndGet);
                    s.spawn(t -> t.spawn(n::incrementAndGet));
                    return 7;
                });
                assertEquals(7, r);
                assertEquals(2, n.get(), "round " + round);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeMixedWithJoinsGivesTheRightSum(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            long[] parts = new long[16];
            pool.scope((Scope s) -> {
                for (int i = 0; i < parts.length; i++) {
                    int part = i;
                    s.spawn(() -> parts[part] = JoinTest.fib(12 + part % 3));
                }
            });
            long expected = 0;
            for (int i = 0; i < parts.length; i++) {
                expected += new long[] {144, 233, 377}[i % 3];
            }
            long sum = 0;
            for (long p : parts) {
                sum += p;
            }
            assertEquals(expected, sum);
        }
    }
}
