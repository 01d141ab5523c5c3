package io.spindle.internal.lazy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindle.JoinStrategy;
import io.spindle.Pair;
import io.spindle.Spindle;
import io.spindle.ThreadPool;
import io.spindle.internal.registry.WorkerThread;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * LZ11: the heartbeat replaces the frame stack's reference arrays with young copies while joins run, and a renewal in
 * the middle of a deep stack of latent frames changes no frame: every join still runs its own {@code b} and returns
 * the right result. The pools are lazy whatever the test execution's default join strategy. (What the renewal buys, a G1 barrier without its fence, is a benchmark's to show: BENCHMARKS.md.)
 */
class FrameRenewalTest {
    private static final int DEPTH = 20;

    /** The leftmost leaf's view of its worker's frames, before and after a renewal. */
    private static final class Seen {
        Object[] closuresBefore;
        Object[] contentsBefore;
        Object[] closuresAfter;
        Object[] contentsAfter;
    }

    @Test
    void aRenewalAtTheBottomOfADeepLatentStackKeepsEveryFrame() {
        try (ThreadPool pool = ThreadPool.builder().threads(1).joinStrategy(JoinStrategy.LAZY).build()) {
            Seen seen = new Seen();
            long sum = pool.install(() -> descend(DEPTH, seen));
            assertEquals(expected(DEPTH), sum, "a join ran the wrong b after the renewal");
            assertNotSame(seen.closuresBefore, seen.closuresAfter,
                    "10 s of heartbeat checks with latent frames below did not renew the arrays");
            assertArrayEquals(seen.contentsBefore, seen.contentsAfter, "the renewal changed a frame");
        }
    }

    /**
     * With a heartbeat interval of 0 every join checks and promotes to any idle worker: frames renewed every
     * millisecond or so in the middle of that, promoted, stolen and reclaimed, still each run both halves once.
     */
    @Test
    void joinsStayRightWhenRenewalsMeetPromotionsAtEveryJoin() {
        try (ThreadPool pool = ThreadPool.builder().threads(2).joinStrategy(JoinStrategy.LAZY)
                .heartbeatInterval(Duration.ZERO).build()) {
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
            for (int round = 0; round < 20 || System.nanoTime() - end < 0; round++) {
                assertEquals(fib(18), pool.install(() -> fibPair(18)));
                assertEquals(fib(18), pool.install(() -> fibFunction(18)));
            }
        }
    }

    /**
     * A recursion 1,000 joins deep grows the frame stack to 1,024 frames; once the stack is shallow again, joining on
     * renews it at its small size (LZ11), where a deep-size copy would be old from birth or renewed only rarely.
     */
    @Test
    void aStackThatADeepRecursionGrewShrinksOnceItIsShallowAgain() {
        try (ThreadPool pool = ThreadPool.builder().threads(1).joinStrategy(JoinStrategy.LAZY).build()) {
            int[] lengths = pool.install(() -> {
                LazyWorker lazy = WorkerThread.current().lazy();
                assertEquals(expected(1_000), descendPlain(1_000));
                int grown = lazy.closures.length;
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (lazy.closures.length == grown && System.nanoTime() - end < 0) {
                    assertEquals(fib(12), fibPair(12)); // shallow joins: their heartbeats renew
                }
                return new int[] {grown, lazy.closures.length, lazy.kinds.length, lazy.promoted.length,
                        lazy.slotOf.length, lazy.arguments.length};
            });
            assertTrue(lengths[0] >= 1_000, "the deep recursion did not grow the stack: " + lengths[0]);
            for (int i = 1; i < lengths.length; i++) {
                assertTrue(lengths[i] <= 128, "array " + i + " was not shrunk: " + Arrays.toString(lengths));
            }
        }
    }

    private static long descendPlain(int n) {
        if (n == 0) {
            return 0L;
        }
        Pair<Long, Long> r = Spindle.join(() -> descendPlain(n - 1), () -> (long) n);
        return r.first() + r.second();
    }

    private static long descend(int n, Seen seen) {
        if (n == 0) {
            return leftmostLeaf(seen);
        }
        Pair<Long, Long> r = Spindle.join(() -> descend(n - 1, seen), () -> (long) n);
        return r.first() + r.second();
    }

    /**
     * The leftmost leaf: DEPTH latent frames below it. Beats with no join, as a long leaf loop does (LZ10), until the
     * arrays are renewed (about 1 ms) or 10 s have passed.
     */
    private static long leftmostLeaf(Seen seen) {
        LazyWorker lazy = WorkerThread.current().lazy();
        seen.closuresBefore = lazy.closures;
        seen.contentsBefore = Arrays.copyOf(lazy.closures, lazy.depth);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (lazy.closures == seen.closuresBefore && System.nanoTime() - end < 0) {
            Spindle.heartbeat();
        }
        seen.closuresAfter = lazy.closures;
        seen.contentsAfter = Arrays.copyOf(lazy.closures, lazy.depth);
        assertTrue(lazy.depth >= DEPTH, "the leaf sees fewer frames than its joins pushed: " + lazy.depth);
        return 0L;
    }

    private static long expected(int n) {
        return (long) n * (n + 1) / 2;
    }

    private static long fibPair(int n) {
        if (n < 2) {
            return n;
        }
        Pair<Long, Long> r = Spindle.join(() -> fibPair(n - 1), () -> fibPair(n - 2));
        return r.first() + r.second();
    }

    private static long fibFunction(int n) {
        if (n < 2) {
            return n;
        }
        return Spindle.join(FrameRenewalTest::fibFunction, n - 1, n - 2, Long::sum);
    }

    private static long fib(int n) {
        long a = 0;
        long b = 1;
        for (int i = 0; i < n; i++) {
            long next = a + b;
            a = b;
            b = next;
        }
        return a;
    }

    /**
     * A stack too big to renew (65,536 frames) whose depth fits in one that is not (32,768 frames for a depth of
     * 9,000) is shrunk to that at a renewal, and renewed from then on. White-box: the frames are pushed directly,
     * none is ever run, and the one worker never promotes; the job's end (LZ9) puts the depth back.
     */
    @Test
    void aStackTooBigToRenewShrinksToARenewableSizeWhenItsDepthFits() {
        try (ThreadPool pool = ThreadPool.builder().threads(1).joinStrategy(JoinStrategy.LAZY).build()) {
            int[] lengths = pool.install(() -> {
                LazyWorker lazy = WorkerThread.current().lazy();
                int start = lazy.depth;
                Runnable b = () -> { };
                while (lazy.closures.length <= LazyWorker.MAX_RENEWED_FRAMES) {
                    lazy.push(b, LazyWorker.RUNNABLE);
                }
                int grown = lazy.closures.length;
                lazy.depth = 9_000;
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (lazy.closures.length == grown && System.nanoTime() - end < 0) {
                    Spindle.heartbeat();
                }
                int shrunk = lazy.closures.length;
                Object[] before = lazy.closures;
                end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (lazy.closures == before && System.nanoTime() - end < 0) {
                    Spindle.heartbeat();
                }
                int renewed = lazy.closures != before ? 1 : 0;
                lazy.depth = start;
                return new int[] {grown, shrunk, renewed};
            });
            assertEquals(2 * LazyWorker.MAX_RENEWED_FRAMES, lengths[0], Arrays.toString(lengths));
            assertEquals(LazyWorker.MAX_RENEWED_FRAMES, lengths[1], "not shrunk: " + Arrays.toString(lengths));
            assertEquals(1, lengths[2], "not renewed after the shrink: " + Arrays.toString(lengths));
        }
    }
}
