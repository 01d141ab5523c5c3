package io.spindle.internal.par;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindle.TestPools;
import io.spindle.ThreadPool;
import io.spindle.Watchdog;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.IntConsumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * White-box tests of the adaptive splitting ({@link Splitter}, {@link IndexedDriver}), the early-exit cutoff
 * ({@link EarlyExit}) and the key intervals of spliterator pieces ({@link SpliteratorDriver#splitKeys}).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ParallelSplittingTest {
    private static final Duration DEADLINE = Duration.ofSeconds(45);

    // --- the splitting rule -----------------------------------------------------------------------------------------

    @Test
    void budgetHalvesPerSplitAndRunsOut() {
        assertEquals(8, Splitter.initialBudget(8));
        assertEquals(4, Splitter.splitBudget(8, false, 8, 1000, 1));
        assertEquals(0, Splitter.splitBudget(1, false, 8, 1000, 1));
        assertEquals(Splitter.NO_SPLIT, Splitter.splitBudget(0, false, 8, 1000, 1));
    }

    @Test
    void stolenPieceGetsItsBudgetBack() {
        assertEquals(8, Splitter.splitBudget(0, true, 8, 1000, 1), "a stolen piece with no budget splits again");
        assertEquals(8, Splitter.splitBudget(4, true, 8, 1000, 1));
        assertEquals(16, Splitter.splitBudget(32, true, 8, 1000, 1), "but never loses budget by being stolen");
    }

    @Test
    void neverSplitsIntoHalvesShorterThanTheMinimum() {
        assertEquals(Splitter.NO_SPLIT, Splitter.splitBudget(8, false, 8, 19, 10));
        assertEquals(Splitter.NO_SPLIT, Splitter.splitBudget(8, true, 8, 19, 10), "not even when stolen");
        assertEquals(4, Splitter.splitBudget(8, false, 8, 20, 10));
        assertEquals(Splitter.NO_SPLIT, Splitter.splitBudget(8, true, 8, 1, 1));
        assertEquals(Splitter.NO_SPLIT, Splitter.splitBudget(8, true, 8, 0, 1));
    }

    // --- the recursion over an indexed source -----------------------------------------------------------------------

    private record Leaf(long lo, long hi, Thread thread) {}

    /** A range {@code 0 .. n-1} that records every leaf the driver runs over it, and spins per element if asked. */
    private static final class RecordingSource extends IndexedSource<IntConsumer> {
        final long n;
        final long spinNanosPerElement;
        final ConcurrentLinkedQueue<Leaf> leaves = new ConcurrentLinkedQueue<>();

        RecordingSource(long n, long spinNanosPerElement) {
            this.n = n;
            this.spinNanosPerElement = spinNanosPerElement;
        }

        @Override
        long length() {
            return n;
        }

        @Override
        void feed(long lo, long hi, IntConsumer sink) {
            leaves.add(new Leaf(lo, hi, Thread.currentThread()));
            for (long i = lo; i < hi; i++) {
                spin();
                sink.accept((int) i);
            }
        }

        @Override
        void feedUntilStopped(long lo, long hi, IntConsumer sink, EarlyExit exit) {
            leaves.add(new Leaf(lo, hi, Thread.currentThread()));
            for (long i = lo; i < hi && !exit.stopsPieceAt(lo); i++) {
                spin();
                sink.accept((int) i);
            }
        }

        private void spin() {
            if (spinNanosPerElement > 0) {
                long end = System.nanoTime() + spinNanosPerElement;
                while (System.nanoTime() - end < 0) {
                    Thread.onSpinWait();
                }
            }
        }

        List<Leaf> sortedLeaves() {
            List<Leaf> sorted = new ArrayList<>(leaves);
            sorted.sort(Comparator.comparingLong(Leaf::lo));
            return sorted;
        }
    }

    private static long count(ThreadPool pool, RecordingSource source, int minPieceLength) {
        return Pipeline.of(source).on(pool).minPieceLength(minPieceLength).run(Counter.ints()).count();
    }

    @Test
    void oneWorkerSplitsTheRootOnceAndNeverAgain() {
        try (ThreadPool pool = ThreadPool.builder().threads(1).build()) {
            RecordingSource source = new RecordingSource(1001, 0);
            assertEquals(1001, Watchdog.call(DEADLINE, "one worker", () -> count(pool, source, 1)));
            List<Leaf> leaves = source.sortedLeaves();
            assertEquals(2, leaves.size(), leaves::toString);
            assertEquals(500, leaves.get(0).hi());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void leavesPartitionTheInputAndRespectTheMinimumLength(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            for (int n : new int[] {0, 1, 2, 3, 17, 1000, 100_003}) {
                for (int min : new int[] {1, 7, 100, 5000}) {
                    RecordingSource source = new RecordingSource(n, 0);
                    String ctx = c + " n=" + n + " minPieceLength=" + min;
                    assertEquals(n, Watchdog.call(DEADLINE, ctx, () -> count(pool, source, min)), ctx);
                    List<Leaf> leaves = source.sortedLeaves();
                    long expectedLo = 0;
                    for (Leaf leaf : leaves) {
                        assertEquals(expectedLo, leaf.lo(), () -> ctx + ": gap or overlap in " + leaves);
                        assertTrue(leaves.size() == 1 || leaf.hi() - leaf.lo() >= min,
                                () -> ctx + ": leaf shorter than the minimum in " + leaves);
                        expectedLo = leaf.hi();
                    }
                    assertEquals(n, expectedLo, ctx);
                    assertTrue(leaves.size() <= Math.max(1, n / min), () -> ctx + ": " + leaves.size() + " leaves");
                }
            }
        }
    }

    @Test
    void aStolenPieceSplitsAgain() {
        // Two workers, budget 2: without a steal the root splits twice on every path, giving exactly 4 leaves. A piece
        // that the other worker steals gets a budget of 2 again, so any steal adds leaves.
        try (ThreadPool pool = ThreadPool.builder().threads(2).build()) {
            boolean sawSteal = false;
            for (int round = 0; round < 20 && !sawSteal; round++) {
                RecordingSource source = new RecordingSource(4000, 2_000);
                Thread caller = Watchdog.call(DEADLINE, "steal round " + round, () -> pool.install(() -> {
                    count(pool, source, 1);
                    return Thread.currentThread();
                }));
                List<Leaf> leaves = source.sortedLeaves();
                boolean stolen = leaves.stream().anyMatch(l -> l.thread() != caller);
                if (stolen) {
                    sawSteal = true;
                    assertTrue(leaves.size() > 4, () -> "a steal happened but nothing split again: " + leaves);
                } else {
                    assertEquals(4, leaves.size(), leaves::toString);
                }
            }
            assertTrue(sawSteal, "the second worker never stole in 20 rounds of 8 ms of work");
        }
    }

    // --- early exit -------------------------------------------------------------------------------------------------

    @Test
    void cutoffOnlyDecreasesAndStopsThePiecesAtOrAfterIt() {
        EarlyExit exit = new EarlyExit();
        assertFalse(exit.stopsPieceAt(0));
        assertFalse(exit.stopsPieceAt(Long.MAX_VALUE - 1));
        exit.foundAt(500);
        assertTrue(exit.stopsPieceAt(500), "the finder itself stops");
        assertTrue(exit.stopsPieceAt(501));
        assertFalse(exit.stopsPieceAt(499), "earlier pieces go on: they may hold an earlier match");
        exit.foundAt(900);
        assertFalse(exit.stopsPieceAt(499), "a later find does not raise the cutoff... nor lower it past 500");
        assertTrue(exit.stopsPieceAt(500));
        exit.foundAt(100);
        assertTrue(exit.stopsPieceAt(100));
        assertFalse(exit.stopsPieceAt(99));
        exit.stopAll();
        assertTrue(exit.stopsPieceAt(0));
        exit.foundAt(7);
        assertTrue(exit.stopsPieceAt(0), "stopAll is final");
    }

    @Test
    void concurrentFindsKeepTheSmallestKey() throws InterruptedException {
        for (int round = 0; round < 50; round++) {
            EarlyExit exit = new EarlyExit();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int base = t;
                threads.add(new Thread(() -> {
                    for (int k = 1000; k >= 10; k--) {
                        exit.foundAt(k * 4L + base);
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
            assertTrue(exit.stopsPieceAt(40));
            assertFalse(exit.stopsPieceAt(39));
        }
    }

    // --- keys of spliterator pieces ---------------------------------------------------------------------------------

    @Test
    void splitKeysFollowTheEstimatesWithinBounds() {
        long w = 1L << 20;
        assertEquals(w / 2, SpliteratorDriver.splitKeys(0, w, 100, 100));
        assertEquals(w / 2, SpliteratorDriver.splitKeys(0, w, Long.MAX_VALUE, Long.MAX_VALUE));
        assertEquals(w / 2, SpliteratorDriver.splitKeys(0, w, 0, 0));
        assertEquals(w / 4, SpliteratorDriver.splitKeys(0, w, 100, 300));
        // a small batch split off an unknown remainder keeps 1/64 of the keys, enough to split again
        assertEquals(w / 64, SpliteratorDriver.splitKeys(0, w, 1024, Long.MAX_VALUE));
        assertEquals(w - w / 64, SpliteratorDriver.splitKeys(0, w, Long.MAX_VALUE, 1));
        // the narrowest intervals still give each side a key
        assertEquals(11, SpliteratorDriver.splitKeys(10, 12, 1, 1_000_000));
        assertEquals(11, SpliteratorDriver.splitKeys(10, 12, 1_000_000, 1));
        long mid = SpliteratorDriver.splitKeys(0, Long.MAX_VALUE, 5, 5);
        assertTrue(mid > 0 && mid < Long.MAX_VALUE);
    }
}
