package io.spindle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.Spliterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract around the operations: argument checks, empty inputs, which pool runs the work (from outside, from a
 * worker, by default), nesting, one-shot spliterators, nulls, and the sorts.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ParallelApiTest {

    private static void assertNpeNaming(String argument, Executable call) {
        NullPointerException e = assertThrows(NullPointerException.class, call);
        assertTrue(e.getMessage() != null && e.getMessage().contains(argument),
                () -> "NPE should name '" + argument + "', message was: " + e.getMessage());
    }

    // --- arguments --------------------------------------------------------------------------------------------------

    @Test
    void nullArgumentsAreRejectedNamingTheParameter() {
        assertNpeNaming("a", () -> Parallel.of((int[]) null));
        assertNpeNaming("a", () -> Parallel.of((long[]) null));
        assertNpeNaming("a", () -> Parallel.of((double[]) null));
        assertNpeNaming("a", () -> Parallel.of((String[]) null));
        assertNpeNaming("c", () -> Parallel.of((Collection<String>) null));
        assertNpeNaming("s", () -> Parallel.of((Spliterator<String>) null));
        ParallelInts ints = Parallel.range(0, 10);
        assertNpeNaming("pool", () -> ints.on(null));
        assertNpeNaming("mapper", () -> ints.map(null));
        assertNpeNaming("predicate", () -> ints.filter(null));
        assertNpeNaming("mapper", () -> ints.mapToLong(null));
        assertNpeNaming("mapper", () -> ints.mapToDouble(null));
        assertNpeNaming("mapper", () -> ints.mapToObj(null));
        assertNpeNaming("action", () -> ints.forEach(null));
        assertNpeNaming("op", () -> ints.reduce(0, null));
        assertNpeNaming("op", () -> ints.reduce(null));
        assertNpeNaming("predicate", () -> ints.anyMatch(null));
        assertNpeNaming("predicate", () -> ints.allMatch(null));
        assertNpeNaming("predicate", () -> ints.noneMatch(null));
        ParallelLongs longs = Parallel.range(0L, 10L);
        assertNpeNaming("pool", () -> longs.on(null));
        assertNpeNaming("mapper", () -> longs.map(null));
        assertNpeNaming("predicate", () -> longs.filter(null));
        assertNpeNaming("mapper", () -> longs.mapToInt(null));
        assertNpeNaming("mapper", () -> longs.mapToDouble(null));
        assertNpeNaming("mapper", () -> longs.mapToObj(null));
        assertNpeNaming("action", () -> longs.forEach(null));
        assertNpeNaming("op", () -> longs.reduce(0L, null));
        assertNpeNaming("predicate", () -> longs.noneMatch(null));
        ParallelDoubles doubles = Parallel.of(new double[3]);
        assertNpeNaming("pool", () -> doubles.on(null));
        assertNpeNaming("mapper", () -> doubles.map(null));
        assertNpeNaming("predicate", () -> doubles.filter(null));
        assertNpeNaming("mapper", () -> doubles.mapToInt(null));
        assertNpeNaming("mapper", () -> doubles.mapToLong(null));
        assertNpeNaming("mapper", () -> doubles.mapToObj(null));
        assertNpeNaming("op", () -> doubles.reduce(null));
        assertNpeNaming("predicate", () -> doubles.allMatch(null));
        ParallelItems<String> items = Parallel.of(new String[] {"a"});
        assertNpeNaming("pool", () -> items.on(null));
        assertNpeNaming("mapper", () -> items.map(null));
        assertNpeNaming("predicate", () -> items.filter(null));
        assertNpeNaming("mapper", () -> items.mapToInt(null));
        assertNpeNaming("mapper", () -> items.mapToLong(null));
        assertNpeNaming("mapper", () -> items.mapToDouble(null));
        assertNpeNaming("action", () -> items.forEach(null));
        assertNpeNaming("op", () -> items.reduce("", null));
        assertNpeNaming("op", () -> items.reduce(null));
        assertNpeNaming("supplier", () -> items.<List<String>>collect(null, List::add, List::addAll));
        assertNpeNaming("accumulator", () -> items.collect(ArrayList::new, null, List::addAll));
        assertNpeNaming("combiner", () -> items.collect(ArrayList::new, List::add, null));
        assertNpeNaming("comparator", () -> items.min(null));
        assertNpeNaming("comparator", () -> items.max(null));
        assertNpeNaming("generator", () -> items.toArray((java.util.function.IntFunction<String[]>) null));
        assertNpeNaming("predicate", () -> items.anyMatch(null));
    }

    @Test
    void badRangesAreRejectedNamingBothBounds() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Parallel.range(5, 3));
        assertTrue(e.getMessage().contains("5") && e.getMessage().contains("3"), e.getMessage());
        IllegalArgumentException el = assertThrows(IllegalArgumentException.class,
                () -> Parallel.range(-2L, -9L));
        assertTrue(el.getMessage().contains("-2") && el.getMessage().contains("-9"), el.getMessage());
        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                () -> Parallel.range(Long.MIN_VALUE, Long.MAX_VALUE));
        assertTrue(tooLong.getMessage().contains(Long.toString(Long.MIN_VALUE)), tooLong.getMessage());
        assertEquals(0, Parallel.range(4, 4).count());
        assertEquals(0, Parallel.range(4L, 4L).count());
    }

    @Test
    void minPieceLengthBelowOneIsRejectedNamingTheValue() {
        for (int bad : new int[] {0, -1, Integer.MIN_VALUE}) {
            String n = Integer.toString(bad);
            assertThrows(IllegalArgumentException.class, () -> Parallel.range(0, 9).minPieceLength(bad),
                    "ints " + n);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Parallel.of(new long[1]).minPieceLength(bad));
            assertTrue(e.getMessage().contains(n) && e.getMessage().contains("minPieceLength"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> Parallel.of(new double[1]).minPieceLength(bad));
            assertThrows(IllegalArgumentException.class, () -> Parallel.of(List.of("x")).minPieceLength(bad));
        }
    }

    @Test
    void builderStepsReturnNewObjectsAndDescriptionsAreReusable() {
        ParallelInts base = Parallel.range(0, 100);
        ParallelInts evens = base.filter(v -> v % 2 == 0);
        assertEquals(100, base.count());
        assertEquals(50, evens.count());
        assertEquals(50, evens.count());
        assertEquals(4950, base.sum());
    }

    // --- empty inputs and nulls -------------------------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void emptyInputsFollowTheStreamContracts(TestPools.Config c) {
        ParallelFixtures.withPool(c, "emptyInputsFollowTheStreamContracts", (pool, prefix) -> {
            ParallelInts ints = Parallel.of(new int[0]).on(pool);
            assertEquals(0L, ints.sum());
            assertEquals(OptionalInt.empty(), ints.min());
            assertEquals(OptionalInt.empty(), ints.max());
            assertEquals(OptionalInt.empty(), ints.reduce(Integer::sum));
            assertEquals(42, ints.reduce(42, Integer::sum));
            assertEquals(0, ints.count());
            assertArrayEquals(new int[0], ints.toArray());
            assertFalse(ints.anyMatch(v -> true));
            assertTrue(ints.allMatch(v -> false));
            assertTrue(ints.noneMatch(v -> true));
            assertEquals(OptionalInt.empty(), ints.findAny());
            assertEquals(OptionalInt.empty(), ints.findFirst());
            assertEquals(List.of(), ints.boxed().toList());
            ParallelLongs longs = Parallel.range(3L, 3L).on(pool);
            assertEquals(0L, longs.sum());
            assertEquals(OptionalLong.empty(), longs.max());
            assertEquals(OptionalLong.empty(), longs.findFirst());
            ParallelDoubles doubles = Parallel.of(new double[0]).on(pool);
            assertEquals(0.0, doubles.sum());
            assertEquals(OptionalDouble.empty(), doubles.min());
            assertEquals(OptionalDouble.empty(), doubles.filter(v -> true).findAny());
            ParallelItems<String> items = Parallel.of(new ArrayList<String>()).on(pool);
            assertEquals(List.of(), items.toList());
            assertEquals(Optional.empty(), items.reduce(String::concat));
            assertEquals("id", items.reduce("id", String::concat));
            assertEquals(Optional.empty(), items.min(Comparator.naturalOrder()));
            assertEquals(Optional.empty(), items.findFirst());
            assertEquals(0, items.toArray(String[]::new).length);
            assertTrue(items.allMatch(s -> false));
            assertEquals(List.of(), Parallel.of(new ArrayList<String>().spliterator()).on(pool).toList());
        });
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void nullElementsAreKeptButNotPutInOptionals(TestPools.Config c) {
        ParallelFixtures.withPool(c, "nullElementsAreKeptButNotPutInOptionals", (pool, prefix) -> {
            String[] withNulls = {"a", null, "b", null};
            assertEquals(Arrays.asList(withNulls), Parallel.of(withNulls).on(pool).toList());
            assertEquals(4, Parallel.of(withNulls).on(pool).filter(s -> true).count());
            assertEquals(2, Parallel.of(withNulls).on(pool).filter(s -> s == null).count());
            assertThrows(NullPointerException.class, () -> Parallel.of(new String[] {null}).on(pool).findFirst());
            assertThrows(NullPointerException.class, () -> Parallel.of(new String[] {null, null}).on(pool)
                    .reduce((a, b) -> null));
        });
    }

    @Test
    void toListIsUnmodifiable() {
        List<Integer> list = Parallel.range(0, 5).boxed().toList();
        assertThrows(UnsupportedOperationException.class, () -> list.add(5));
        assertThrows(UnsupportedOperationException.class, () -> list.set(0, 5));
        List<Integer> filtered = Parallel.range(0, 5).boxed().filter(v -> v > 1).toList();
        assertThrows(UnsupportedOperationException.class, () -> filtered.remove(0));
    }

    @Test
    void toArrayRejectsAGeneratorOfTheWrongLength() {
        assertThrows(IllegalStateException.class, () -> Parallel.of(List.of("a", "b")).toArray(n -> new String[1]));
        assertThrows(IllegalStateException.class, () -> Parallel.of(List.of("a", "b")).filter(s -> true)
                .toArray(n -> new String[n + 1]));
        assertThrows(ArrayStoreException.class, () -> Parallel.of(new Object[] {"a", 1}).toArray(String[]::new));
    }

    @Test
    void countOfAKnownSizeDoesNotRunTheMappers() {
        AtomicInteger calls = new AtomicInteger();
        assertEquals(1000, Parallel.range(0, 1000).map(v -> calls.incrementAndGet()).count());
        assertEquals(0, calls.get());
        assertEquals(1000, Parallel.range(0, 1000).map(v -> calls.incrementAndGet()).filter(v -> true).count());
        assertEquals(1000, calls.get());
    }

    @Test
    void aSpliteratorSourceRunsOneTerminalOperationOnly() {
        ParallelItems<Integer> once = Parallel.of(List.of(1, 2, 3).spliterator());
        ParallelItems<Integer> doubled = once.map(v -> v * 2);
        assertEquals(List.of(2, 4, 6), doubled.toList());
        IllegalStateException e = assertThrows(IllegalStateException.class, once::count);
        assertTrue(e.getMessage().contains("Spliterator"), e.getMessage());
        // a collection gives a fresh spliterator to each operation
        ParallelItems<Integer> fromSet = Parallel.of(new java.util.TreeSet<>(List.of(3, 1, 2)));
        assertEquals(List.of(1, 2, 3), fromSet.toList());
        assertEquals(List.of(1, 2, 3), fromSet.toList());
    }

    // --- where the work runs ----------------------------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void fromOutsideTheWorkRunsOnTheConfiguredPool(TestPools.Config c) {
        ParallelFixtures.withPool(c, "fromOutsideTheWorkRunsOnTheConfiguredPool", (pool, prefix) -> {
            AtomicInteger elsewhere = new AtomicInteger();
            Parallel.range(0, 10_000).on(pool).forEach(v -> {
                if (!ParallelFixtures.onWorkerOf(prefix)) {
                    elsewhere.incrementAndGet();
                }
            });
            assertEquals(0, elsewhere.get());
            List<String> names = Parallel.of(new ArrayList<>(IntStream.range(0, 1000).boxed().toList())).on(pool)
                    .map(v -> Thread.currentThread().getName()).filter(n -> !n.startsWith(prefix)).toList();
            assertEquals(List.of(), names);
        });
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void insideAWorkerTheDefaultPoolIsTheWorkersOwnAndTheCallerHelps(TestPools.Config c) {
        ParallelFixtures.withPool(c, "insideAWorkerTheDefaultPoolIsTheWorkersOwnAndTheCallerHelps", (pool, prefix) -> {
            Set<String> threads = ConcurrentHashMap.newKeySet();
            String caller = pool.install(() -> {
                // no on(pool): the current pool of a worker is its own
                long sum = Parallel.range(0, 100_000).map(v -> {
                    threads.add(Thread.currentThread().getName());
                    return v;
                }).sum();
                assertEquals(99_999L * 100_000 / 2, sum);
                return Thread.currentThread().getName();
            });
            assertTrue(threads.contains(caller), "the calling worker runs pieces itself: " + threads);
            assertTrue(threads.stream().allMatch(n -> n.startsWith(prefix)), threads.toString());
        });
    }

    @Test
    void offAPoolTheDefaultPoolIsTheGlobalPool() {
        Set<String> threads = ConcurrentHashMap.newKeySet();
        Parallel.range(0, 1000).forEach(v -> threads.add(Thread.currentThread().getName()));
        assertFalse(threads.isEmpty());
        assertTrue(threads.stream().allMatch(n -> n.startsWith("spindle-global-")), threads.toString());
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void operationsNestInsideOperationsAndAcrossPools(TestPools.Config c) {
        ParallelFixtures.withPool(c, "operationsNestInsideOperationsAndAcrossPools", (pool, prefix) -> {
            // an inner operation in every element of an outer one, on the same pool (the current one)
            long[] rowSums = Parallel.range(0, 200).on(pool).mapToLong(row -> Parallel.range(0, row).sum()).toArray();
            for (int row = 0; row < 200; row++) {
                assertEquals((long) row * (row - 1) / 2, rowSums[row]);
            }
            // and on another pool, from this pool's workers
            try (ThreadPool other = ThreadPool.builder().threads(2).sleepStrategy(c.strategy()).build()) {
                List<Long> sums = Parallel.range(0, 50).on(pool).mapToObj(row -> Parallel.range(0, row).on(other)
                        .sum()).toList();
                for (int row = 0; row < 50; row++) {
                    assertEquals((long) row * (row - 1) / 2, sums.get(row));
                }
            }
        });
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void concurrentCallersFromOutsideAllGetTheirOwnResults(TestPools.Config c) {
        ParallelFixtures.withPool(c, "concurrentCallersFromOutsideAllGetTheirOwnResults", (pool, prefix) -> {
            int callers = 4;
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < callers; t++) {
                int offset = t * 1000;
                Thread th = new Thread(() -> {
                    try {
                        for (int round = 0; round < 20; round++) {
                            int[] got = Parallel.range(offset, offset + 5000).on(pool).filter(v -> v % 3 == 0)
                                    .toArray();
                            assertArrayEquals(IntStream.range(offset, offset + 5000).filter(v -> v % 3 == 0)
                                    .toArray(), got);
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }, prefix + "caller-" + t);
                threads.add(th);
                th.start();
            }
            for (Thread th : threads) {
                th.join();
            }
            assertEquals(List.of(), failures);
        });
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void minPieceLengthLargerThanTheInputRunsOneLeafOnTheCaller(TestPools.Config c) {
        ParallelFixtures.withPool(c, "minPieceLengthLargerThanTheInputRunsOneLeafOnTheCaller", (pool, prefix) -> {
            Set<String> threads = ConcurrentHashMap.newKeySet();
            String caller = pool.install(() -> {
                Parallel.range(0, 10_000).minPieceLength(10_000).forEach(v -> threads.add(
                        Thread.currentThread().getName()));
                return Thread.currentThread().getName();
            });
            assertEquals(Set.of(caller), threads);
            assertEquals(IntStream.range(0, 999).asLongStream().sum(),
                    Parallel.range(0, 999).on(pool).minPieceLength(7).sum());
        });
    }

    // --- sorts ------------------------------------------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void sortsGiveWhatArraysSortGives(TestPools.Config c) {
        ParallelFixtures.withPool(c, "sortsGiveWhatArraysSortGives", (pool, prefix) -> {
            Random random = new Random(42);
            for (int n : new int[] {0, 1, 17, 100_003}) {
                int[] ints = random.ints(n, -1000, 1000).toArray();
                int[] expectedInts = ints.clone();
                Arrays.sort(expectedInts);
                Parallel.sort(pool, ints);
                assertArrayEquals(expectedInts, ints);
                long[] longs = random.longs(n).toArray();
                long[] expectedLongs = longs.clone();
                Arrays.sort(expectedLongs);
                Parallel.sort(pool, longs);
                assertArrayEquals(expectedLongs, longs);
                double[] doubles = random.doubles(n).map(d -> d < 0.01 ? Double.NaN : d < 0.02 ? -0.0 : d)
                        .toArray();
                double[] expectedDoubles = doubles.clone();
                Arrays.sort(expectedDoubles);
                Parallel.sort(pool, doubles);
                assertArrayEquals(expectedDoubles, doubles);
                String[] strings = random.ints(n, 0, 500).mapToObj(i -> new String("k" + i)).toArray(String[]::new);
                String[] expectedStrings = strings.clone();
                Arrays.sort(expectedStrings, Comparator.comparingInt(String::length));
                Parallel.sort(pool, strings, Comparator.comparingInt(String::length));
                for (int i = 0; i < n; i++) {
                    assertTrue(expectedStrings[i] == strings[i], "stable sort differs at " + i);
                }
            }
            // without a pool: the current one, here this pool's worker
            int[] inside = random.ints(50_000).toArray();
            int[] expected = inside.clone();
            Arrays.sort(expected);
            pool.install(() -> {
                Parallel.sort(inside);
                return null;
            });
            assertArrayEquals(expected, inside);
        });
    }

    @Test
    void sortsOnTheGlobalPoolAndRejectNulls() {
        int[] a = {3, 1, 2};
        Parallel.sort(a);
        assertArrayEquals(new int[] {1, 2, 3}, a);
        long[] l = {3, 1, 2};
        Parallel.sort(l);
        assertArrayEquals(new long[] {1, 2, 3}, l);
        double[] d = {3, 1, 2};
        Parallel.sort(d);
        assertArrayEquals(new double[] {1, 2, 3}, d);
        String[] s = {"c", "a", "b"};
        Parallel.sort(s, Comparator.naturalOrder());
        assertArrayEquals(new String[] {"a", "b", "c"}, s);
        ThreadPool global = ThreadPool.global();
        assertNpeNaming("a", () -> Parallel.sort((int[]) null));
        assertNpeNaming("a", () -> Parallel.sort(global, (long[]) null));
        assertNpeNaming("a", () -> Parallel.sort((double[]) null));
        assertNpeNaming("pool", () -> Parallel.sort(null, new int[1]));
        assertNpeNaming("pool", () -> Parallel.sort(null, new String[1], Comparator.naturalOrder()));
        assertNpeNaming("comparator", () -> Parallel.sort(new String[1], null));
        assertNpeNaming("a", () -> Parallel.sort(global, (String[]) null, Comparator.naturalOrder()));
    }

    @Test
    void aComparatorFailurePropagatesFromSort() {
        RuntimeException boom = new IllegalStateException("compare");
        AtomicBoolean thrown = new AtomicBoolean();
        Integer[] a = IntStream.range(0, 100_000).map(i -> 100_000 - i).boxed().toArray(Integer[]::new);
        RuntimeException e = assertThrows(RuntimeException.class, () -> Parallel.sort(a, (x, y) -> {
            if (x == 5_000 && thrown.compareAndSet(false, true)) {
                throw boom;
            }
            return Integer.compare(x, y);
        }));
        assertSame(boom, e);
    }
}
