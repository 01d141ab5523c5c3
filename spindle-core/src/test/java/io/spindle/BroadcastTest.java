package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link ThreadPool#broadcast} (docs/DESIGN.md §1.6). */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BroadcastTest {
    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    private static String uniquePrefix() {
        return "bcast-" + POOL_IDS.incrementAndGet() + "-";
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What one copy saw. */
    record Seen(int ctxIndex, int currentIndex, int threadCount, String thread) {}

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void copyIRunsOnWorkerIWithMatchingIndex(TestPools.Config c) {
        String prefix = uniquePrefix();
        try (ThreadPool pool = c.builder().threadName(i -> prefix + i).build()) {
            for (int round = 0; round < 3; round++) {
                List<Seen> seen = pool.broadcast(ctx -> new Seen(ctx.index(),
                        Spindle.currentThreadIndex().orElse(-1), ctx.threadCount(), Thread.currentThread().getName()));
                assertEquals(c.threads(), seen.size());
                for (int i = 0; i < c.threads(); i++) {
                    Seen s = seen.get(i);
                    assertEquals(i, s.ctxIndex(), "results not in index order");
                    assertEquals(i, s.currentIndex(), "BroadcastContext.index() != Spindle.currentThreadIndex()");
                    assertEquals(c.threads(), s.threadCount());
                    assertEquals(prefix + i, s.thread(), "copy " + i + " ran on another worker");
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void resultsAreInIndexOrder(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            List<Integer> r = pool.broadcast(ctx -> {
                // later indices end first, so completion order differs from index order
                sleep(2L * (ctx.threadCount() - ctx.index()));
                return ctx.index() * 10;
            });
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < c.threads(); i++) {
                expected.add(i * 10);
            }
            assertEquals(expected, r);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void broadcastRunsExactlyOnceOnEveryWorker(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            AtomicInteger copies = new AtomicInteger();
            List<Thread> threads = pool.broadcast(ctx -> {
                copies.incrementAndGet();
                return Thread.currentThread();
            });
            assertEquals(c.threads(), copies.get());
            assertEquals(c.threads(), new HashSet<>(threads).size(), "two copies ran on one thread");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void broadcastBlocksUntilEveryCopyEnded(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            AtomicInteger ended = new AtomicInteger();
            pool.broadcast(ctx -> {
                sleep(10);
                return ended.incrementAndGet();
            });
            assertEquals(c.threads(), ended.get());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void failureIsRethrownAfterEveryCopyEnded(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            RuntimeException e = new IllegalStateException("copy 0");
            AtomicInteger ended = new AtomicInteger();
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> pool.broadcast(ctx -> {
                if (ctx.index() == 0) {
                    throw e;
                }
                sleep(20);
                return ended.incrementAndGet();
            }));
            assertSame(e, thrown);
            assertEquals(c.threads() - 1, ended.get(), "failure rethrown before every copy ended");
            assertEquals(0, thrown.getSuppressed().length);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void severalFailuresOneRethrownOthersSuppressedOnceEach(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            List<RuntimeException> failures = new ArrayList<>();
            for (int i = 0; i < c.threads(); i++) {
                failures.add(new IllegalStateException("copy " + i));
            }
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> pool.broadcast(ctx -> {
                throw failures.get(ctx.index());
            }));
            assertTrue(failures.contains(thrown), "rethrew " + thrown);
            Map<Throwable, Integer> counts = new IdentityHashMap<>();
            for (Throwable s : thrown.getSuppressed()) {
                counts.merge(s, 1, Integer::sum);
            }
            assertFalse(counts.containsKey(thrown), "suppressed into itself");
            for (RuntimeException f : failures) {
                if (f != thrown) {
                    assertEquals(1, counts.getOrDefault(f, 0), "suppressed count of " + f.getMessage());
                }
            }
            assertEquals(c.threads() - 1, thrown.getSuppressed().length);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void sameInstanceThrownByEveryCopyIsNotSuppressedIntoItself(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            RuntimeException shared = new IllegalStateException("shared");
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> pool.broadcast(ctx -> {
                throw shared;
            }));
            assertSame(shared, thrown);
            assertEquals(0, thrown.getSuppressed().length);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void broadcastRethrowsErrorsAsIs(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            Error e = new AssertionError("last copy");
            int last = c.threads() - 1;
            assertSame(e, assertThrows(AssertionError.class, () -> pool.broadcast(ctx -> {
                if (ctx.index() == last) {
                    throw e;
                }
                return ctx.index();
            })));
            assertEquals(c.threads(), pool.broadcast(ctx -> 0).size(), "pool unusable after a failed broadcast");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void broadcastFromOwnWorkerCompletes(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            List<Integer> r = pool.install(() -> pool.broadcast(ctx -> ctx.index()));
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < c.threads(); i++) {
                expected.add(i);
            }
            assertEquals(expected, r);
            List<Boolean> match = pool.install(() -> pool.broadcast(
                    ctx -> ctx.index() == Spindle.currentThreadIndex().orElse(-1)));
            assertFalse(match.contains(false));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void broadcastCopiesCanUseJoin(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            List<Long> r = pool.broadcast(ctx -> JoinTest.fib(12 + ctx.index() % 2));
            for (int i = 0; i < r.size(); i++) {
                assertEquals(i % 2 == 0 ? 144L : 233L, r.get(i));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void repeatedBroadcastsAllComplete(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            AtomicInteger copies = new AtomicInteger();
            for (int round = 0; round < 200; round++) {
                assertEquals(c.threads(), pool.broadcast(ctx -> copies.incrementAndGet()).size());
            }
            assertEquals(200 * c.threads(), copies.get());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void broadcastAfterShutdownFromOutsideIsRejected(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            pool.shutdown();
            AtomicBoolean ran = new AtomicBoolean();
            assertThrows(RejectedExecutionException.class, () -> pool.broadcast(ctx -> ran.getAndSet(true)));
            assertFalse(ran.get());
        }
    }
}
