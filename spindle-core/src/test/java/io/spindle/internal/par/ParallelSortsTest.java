package io.spindle.internal.par;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindle.TestPools;
import io.spindle.ThreadPool;
import io.spindle.Watchdog;

import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ParallelSorts}: every result equals {@link Arrays#sort}'s, on every sleep strategy and thread count, for sizes
 * on both sides of the sequential threshold and inputs that put the parallel merge's cuts at their edges (sorted,
 * reversed, all equal, few distinct values); the double order of {@link Double#compare}; stability; failures.
 * Each test body runs under a {@link Watchdog}, so a lost join becomes a failure with a thread dump.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ParallelSortsTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    /**
     * Around the thresholds: below and at the smallest parallel size (4 leaves of {@link SortTuning#MIN_LEAF}), an odd
     * length (leaves of unequal length), and 2^19, split the full five levels (32 leaves) at 8 threads.
     */
    private static final int[] SIZES = {0, 1, 2, 3, 31, 4 * SortTuning.MIN_LEAF - 1, 4 * SortTuning.MIN_LEAF,
            100_003, 1 << 19};
    /** One large random array per configuration: an odd length (not a power of 2) at full depth. */
    private static final int LARGE = 1_000_003;

    /** Input shapes; SORTED, REVERSED and ALL_EQUAL put every merge cut at one end of a run. */
    private enum Shape {
        RANDOM, SORTED, REVERSED, ALL_EQUAL, FEW_DISTINCT;

        long value(Random r, int i, int n) {
            return switch (this) {
                case RANDOM -> r.nextLong();
                case SORTED -> i;
                case REVERSED -> n - i;
                case ALL_EQUAL -> 7;
                case FEW_DISTINCT -> r.nextInt(4);
            };
        }
    }

    /** A test body that gets a fresh pool of the configuration. */
    @FunctionalInterface
    private interface PoolBody {
        void run(ThreadPool pool) throws Throwable;
    }

    /** Runs {@code body} with a fresh pool of {@code c} under the watchdog, so that a lost join fails the test. */
    private static void withPool(TestPools.Config c, String what, PoolBody body) {
        Watchdog.run(DEADLINE, () -> what + " on " + c, () -> {
            try (ThreadPool pool = c.build()) {
                body.run(pool);
            }
        });
    }

    /** Runs {@code sort} on one of {@code pool}'s workers, as the ParallelSorts contract asks. */
    private static void onWorker(ThreadPool pool, Runnable sort) {
        pool.install(() -> {
            sort.run();
            return null;
        });
    }

    private static int[] ints(Shape s, int n, long seed) {
        Random r = new Random(seed);
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = (int) s.value(r, i, n);
        return a;
    }

    private static long[] longs(Shape s, int n, long seed) {
        Random r = new Random(seed);
        long[] a = new long[n];
        for (int i = 0; i < n; i++) a[i] = s.value(r, i, n);
        return a;
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void intSortEqualsArraysSortForEverySizeAndShape(TestPools.Config c) {
        withPool(c, "int sorts", pool -> {
            for (Shape shape : Shape.values()) {
                for (int n : SIZES) {
                    if (n == 1 << 19 && shape == Shape.RANDOM) {
                        continue; // LARGE below covers it; keeps the test short
                    }
                    int[] a = ints(shape, n, n);
                    int[] expected = a.clone();
                    Arrays.sort(expected);
                    onWorker(pool, () -> ParallelSorts.sort(a));
                    assertArrayEquals(expected, a, () -> shape + " n=" + n + " on " + c);
                }
            }
            int[] large = ints(Shape.RANDOM, LARGE, 1);
            int[] expected = large.clone();
            Arrays.sort(expected);
            onWorker(pool, () -> ParallelSorts.sort(large));
            assertArrayEquals(expected, large, () -> "random n=" + LARGE + " on " + c);
        });
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void longSortEqualsArraysSortIncludingExtremes(TestPools.Config c) {
        withPool(c, "long sorts", pool -> {
            for (Shape shape : new Shape[] {Shape.RANDOM, Shape.REVERSED, Shape.FEW_DISTINCT}) {
                long[] a = longs(shape, 300_001, 5);
                a[0] = Long.MAX_VALUE;
                a[a.length / 2] = Long.MIN_VALUE;
                a[a.length - 1] = 0;
                long[] expected = a.clone();
                Arrays.sort(expected);
                onWorker(pool, () -> ParallelSorts.sort(a));
                assertArrayEquals(expected, a, () -> shape + " on " + c);
            }
        });
    }

    /** Values where {@code <} and Double.compare disagree, densely, so that many merge cuts fall among them. */
    private static double[] awkwardDoubles(int n, long seed) {
        double[] specials = {-0.0, 0.0, Double.NaN, Double.longBitsToDouble(0x7ff0_0000_0000_0001L),
                Double.longBitsToDouble(0xfff8_0000_0000_0000L), Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE};
        Random r = new Random(seed);
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
            a[i] = r.nextInt(3) == 0 ? r.nextGaussian() : specials[r.nextInt(specials.length)];
        }
        return a;
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void doubleSortFollowsDoubleCompareWithSignedZerosNansAndInfinities(TestPools.Config c) {
        withPool(c, "double sorts", pool -> {
            for (int n : new int[] {0, 1, 2, 5, 4 * SortTuning.MIN_LEAF, 300_007}) {
                double[] a = awkwardDoubles(n, n);
                double[] expected = a.clone();
                Arrays.sort(expected);
                onWorker(pool, () -> ParallelSorts.sort(a));
                // Arrays.equals(double[]) compares doubleToLongBits: -0.0 differs from 0.0, all NaNs are one value
                assertTrue(Arrays.equals(expected, a), () -> "n=" + n + " on " + c + ": differs from Arrays.sort");
            }
            double[] zeros = new double[200_000];
            Random r = new Random(3);
            for (int i = 0; i < zeros.length; i++) zeros[i] = r.nextBoolean() ? 0.0 : -0.0;
            double[] expected = zeros.clone();
            Arrays.sort(expected);
            onWorker(pool, () -> ParallelSorts.sort(zeros));
            assertTrue(Arrays.equals(expected, zeros), () -> "signed zeros on " + c);
        });
    }

    /** A record whose order is its key only; {@code seq} is its position in the input, to check stability. */
    private record Item(int key, int seq) {}

    private static final Comparator<Item> BY_KEY = Comparator.comparingInt(Item::key);

    private static Item[] items(int n, int distinctKeys, long seed) {
        Random r = new Random(seed);
        Item[] a = new Item[n];
        for (int i = 0; i < n; i++) a[i] = new Item(r.nextInt(distinctKeys), i);
        return a;
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void objectSortIsStableAndEqualsArraysSort(TestPools.Config c) {
        withPool(c, "object sorts", pool -> {
            for (int distinct : new int[] {1, 5, Integer.MAX_VALUE}) {
                for (int n : new int[] {0, 1, 2, 3, 4 * SortTuning.MIN_LEAF, 150_001}) {
                    Item[] a = items(n, distinct, distinct + n);
                    Item[] expected = a.clone();
                    Arrays.sort(expected, BY_KEY);
                    onWorker(pool, () -> ParallelSorts.sort(a, BY_KEY));
                    assertArrayEquals(expected, a, () -> "n=" + n + " keys=" + distinct + " on " + c);
                    // stated directly too, not only through Arrays.sort's stability
                    for (int i = 1; i < n; i++) {
                        int k = i;
                        assertTrue(a[k - 1].key() < a[k].key() || a[k - 1].seq() < a[k].seq(),
                                () -> "equal keys out of input order at " + k + " on " + c);
                    }
                }
            }
        });
    }

    /** Thrown by the failing comparators; a type of its own so the test knows it got the comparator's throwable. */
    private static final class ComparatorFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ComparatorFailure(String message) {
            super(message);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void comparatorFailurePropagatesAndNothingWritesAfterwards(TestPools.Config c) {
        int n = 100_003;
        withPool(c, "failing comparators", pool -> {
            // The comparisons a sort makes are the same in number whatever the schedule (the cuts depend only on the
            // data), and the top merge, about n of them, starts only after everything else ended: so comparison
            // total - n/4 falls in the last merge, and comparison 1 in some leaf.
            AtomicInteger counted = new AtomicInteger();
            Item[] probe = items(n, 1_000, 9);
            onWorker(pool, () -> ParallelSorts.sort(probe, (x, y) -> {
                counted.incrementAndGet();
                return BY_KEY.compare(x, y);
            }));
            for (int failAt : new int[] {1, counted.get() - n / 4}) {
                Item[] a = items(n, 1_000, 9);
                AtomicInteger calls = new AtomicInteger();
                ComparatorFailure planted = new ComparatorFailure("comparison " + failAt);
                Comparator<Item> failing = (x, y) -> {
                    if (calls.incrementAndGet() == failAt) throw planted;
                    return BY_KEY.compare(x, y);
                };
                ComparatorFailure thrown = assertThrows(ComparatorFailure.class,
                        () -> onWorker(pool, () -> ParallelSorts.sort(a, failing)));
                assertSame(planted, thrown, () -> "not the comparator's own throwable, failAt=" + failAt);
                // the sort has returned: no task of it may still write to the array or call the comparator
                Item[] snapshot = a.clone();
                int callsAtReturn = calls.get();
                Thread.sleep(20);
                assertArrayEquals(snapshot, a, () -> "array changed after the sort threw, failAt=" + failAt);
                assertEquals(callsAtReturn, calls.get(), () -> "comparator called after the sort threw");
            }
        });
    }

    @Test
    void nullArgumentsAreNamed() {
        assertEquals("a", assertThrows(NullPointerException.class, () -> ParallelSorts.sort((int[]) null))
                .getMessage());
        assertEquals("a", assertThrows(NullPointerException.class, () -> ParallelSorts.sort((long[]) null))
                .getMessage());
        assertEquals("a", assertThrows(NullPointerException.class, () -> ParallelSorts.sort((double[]) null))
                .getMessage());
        assertEquals("a", assertThrows(NullPointerException.class, () -> ParallelSorts.sort(null, BY_KEY))
                .getMessage());
        assertEquals("comparator", assertThrows(NullPointerException.class,
                () -> ParallelSorts.sort(new Item[0], null)).getMessage());
    }

    @Test
    void planGivesAboutOneLeafPerWorkerNoneBelowMinLeaf() {
        assertEquals(0, SortTuning.levels(10_000_000, 1), "one thread sorts sequentially");
        assertEquals(0, SortTuning.levels(4 * SortTuning.MIN_LEAF - 1, 64), "small arrays sort sequentially");
        assertEquals(1, SortTuning.levels(10_000_000, 2), "2 workers: 2 leaves");
        assertEquals(2, SortTuning.levels(10_000_000, 3), "3 workers: 3 wanted, 4 leaves");
        assertEquals(3, SortTuning.levels(10_000_000, 8), "8 workers: 8 leaves");
        for (int threads : new int[] {2, 3, 8, 64, 1024}) {
            for (int n : new int[] {4 * SortTuning.MIN_LEAF, 100_003, 1 << 20, 10_000_000, Integer.MAX_VALUE}) {
                int levels = SortTuning.levels(n, threads);
                String what = "n=" + n + " threads=" + threads + " levels=" + levels;
                assertTrue(levels >= 1, what + ": a parallel-size array must split");
                assertTrue((n >> levels) >= SortTuning.MIN_LEAF, what + ": leaves below MIN_LEAF");
                assertTrue((1L << levels) < 2L * threads * SortTuning.LEAVES_PER_THREAD,
                        what + ": twice the leaves wanted or more");
                assertTrue((1L << levels) >= (long) threads * SortTuning.LEAVES_PER_THREAD
                        || (n >> (levels + 1)) < SortTuning.MIN_LEAF, what + ": fewer leaves than wanted, needlessly");
            }
        }
    }
}
