package io.spindle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every operation of the four fluent types over every kind of source gives what the {@code java.util.stream}
 * equivalent gives, in the same order: empty input, one element, odd sizes, on every pool configuration.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ParallelResultsTest {
    /** Sizes around the split points; 1000 is split many times since the default minimum piece is 1 element. */
    private static final int[] SIZES = {0, 1, 2, 3, 17, 1000};

    /** A large odd size, run on fewer operations so that the suite stays fast. */
    private static final int LARGE = 100_003;

    /** Values with negatives and many duplicates, in no order, so that min, max, filters and order all matter. */
    static int value(int i) {
        return (int) ((i * 2_654_435_761L) % 2001) - 1000;
    }

    static int[] ints(int n) {
        return IntStream.range(0, n).map(ParallelResultsTest::value).toArray();
    }

    // --- ints -------------------------------------------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void intOperationsMatchIntStream(TestPools.Config c) {
        ParallelFixtures.withPool(c, "intOperationsMatchIntStream", (pool, prefix) -> {
            for (int n : SIZES) {
                for (Map.Entry<String, Supplier<ParallelInts>> s : intSources(n).entrySet()) {
                    checkInts(s.getKey() + ", n=" + n, () -> s.getValue().get().on(pool), ints(n));
                }
                int[] range = IntStream.range(-3, n - 3).toArray();
                checkInts("range, n=" + n, () -> Parallel.range(-3, n - 3).on(pool), range);
            }
        });
    }

    private static Map<String, Supplier<ParallelInts>> intSources(int n) {
        int[] data = ints(n);
        Integer[] boxed = IntStream.of(data).boxed().toArray(Integer[]::new);
        List<Integer> arrayList = new ArrayList<>(Arrays.asList(boxed));
        List<Integer> linkedList = new LinkedList<>(arrayList);
        Map<String, Supplier<ParallelInts>> m = new LinkedHashMap<>();
        m.put("int[]", () -> Parallel.of(data));
        m.put("Integer[].mapToInt", () -> Parallel.of(boxed).mapToInt(Integer::intValue));
        m.put("ArrayList.mapToInt", () -> Parallel.of(arrayList).mapToInt(Integer::intValue));
        m.put("LinkedList.mapToInt", () -> Parallel.of(linkedList).mapToInt(Integer::intValue));
        m.put("unsized spliterator.mapToInt", () -> Parallel.of(unsized(arrayList)).mapToInt(Integer::intValue));
        m.put("int[].filter(all)", () -> Parallel.of(data).filter(v -> true));
        m.put("long[].mapToInt", () -> Parallel.of(IntStream.of(data).asLongStream().toArray())
                .mapToInt(v -> (int) v));
        return m;
    }

    static void checkInts(String what, Supplier<ParallelInts> p, int[] exp) {
        assertArrayEquals(exp, p.get().toArray(), what);
        assertEquals(IntStream.of(exp).asLongStream().sum(), p.get().sum(), what);
        assertEquals(IntStream.of(exp).min(), p.get().min(), what);
        assertEquals(IntStream.of(exp).max(), p.get().max(), what);
        assertEquals(exp.length, p.get().count(), what);
        assertEquals(IntStream.of(exp).reduce(0, Integer::sum), p.get().reduce(0, Integer::sum), what);
        // associative but not commutative: pieces must be combined in encounter order
        assertEquals(IntStream.of(exp).reduce((a, b) -> b), p.get().reduce((a, b) -> b), what);
        assertEquals(IntStream.of(exp).reduce((a, b) -> a), p.get().reduce((a, b) -> a), what);
        assertArrayEquals(IntStream.of(exp).map(v -> v * 3 + 1).toArray(), p.get().map(v -> v * 3 + 1).toArray(),
                what);
        int[] multiplesOf3 = IntStream.of(exp).filter(v -> v % 3 == 0).toArray();
        assertArrayEquals(multiplesOf3, p.get().filter(v -> v % 3 == 0).toArray(), what);
        assertEquals(multiplesOf3.length, p.get().filter(v -> v % 3 == 0).count(), what);
        assertEquals(IntStream.of(multiplesOf3).asLongStream().sum(), p.get().filter(v -> v % 3 == 0).sum(), what);
        assertEquals(IntStream.of(exp).mapToObj(Integer::toString).toList(),
                p.get().mapToObj(Integer::toString).toList(), what);
        assertEquals(IntStream.of(exp).boxed().toList(), p.get().boxed().toList(), what);
        assertEquals(IntStream.of(exp).mapToLong(v -> (long) v * v).sum(), p.get().mapToLong(v -> (long) v * v).sum(),
                what);
        assertEquals(IntStream.of(exp).mapToDouble(v -> v / 2.0).sum(), p.get().mapToDouble(v -> v / 2.0).sum(),
                what);
        int last = exp.length > 0 ? exp[exp.length - 1] : 0;
        for (int target : new int[] {last, 5000}) {
            assertEquals(IntStream.of(exp).anyMatch(v -> v == target), p.get().anyMatch(v -> v == target), what);
            assertEquals(IntStream.of(exp).allMatch(v -> v != target), p.get().allMatch(v -> v != target), what);
            assertEquals(IntStream.of(exp).noneMatch(v -> v == target), p.get().noneMatch(v -> v == target), what);
        }
        assertEquals(IntStream.of(exp).findFirst(), p.get().findFirst(), what);
        assertEquals(IntStream.of(exp).filter(v -> v > 900).findFirst(), p.get().filter(v -> v > 900).findFirst(),
                what);
        OptionalInt any = p.get().filter(v -> v > 900).findAny();
        assertEquals(IntStream.of(exp).anyMatch(v -> v > 900), any.isPresent(), what);
        any.ifPresent(v -> assertTrue(v > 900 && IntStream.of(exp).anyMatch(e -> e == v), what));
        LongAdder sum = new LongAdder();
        LongAdder count = new LongAdder();
        p.get().forEach(v -> {
            sum.add(v);
            count.increment();
        });
        assertEquals(IntStream.of(exp).asLongStream().sum(), sum.sum(), what);
        assertEquals(exp.length, count.sum(), what);
    }

    // --- longs ------------------------------------------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void longOperationsMatchLongStream(TestPools.Config c) {
        ParallelFixtures.withPool(c, "longOperationsMatchLongStream", (pool, prefix) -> {
            for (int n : SIZES) {
                long[] data = IntStream.of(ints(n)).asLongStream().map(v -> v * 3_000_000_007L).toArray();
                List<Long> list = LongStream.of(data).boxed().collect(Collectors.toCollection(ArrayList::new));
                Map<String, Supplier<ParallelLongs>> m = new LinkedHashMap<>();
                m.put("long[]", () -> Parallel.of(data));
                m.put("int[].mapToLong", () -> Parallel.of(ints(n)).mapToLong(v -> v * 3_000_000_007L));
                m.put("ArrayList.mapToLong", () -> Parallel.of(list).mapToLong(Long::longValue));
                m.put("unsized spliterator.mapToLong", () -> Parallel.of(unsized(list)).mapToLong(Long::longValue));
                m.put("long[].filter(all)", () -> Parallel.of(data).filter(v -> true));
                for (Map.Entry<String, Supplier<ParallelLongs>> s : m.entrySet()) {
                    checkLongs(s.getKey() + ", n=" + n, () -> s.getValue().get().on(pool), data);
                }
                long start = 5_000_000_000L;
                checkLongs("range, n=" + n, () -> Parallel.range(start, start + n).on(pool),
                        LongStream.range(start, start + n).toArray());
            }
        });
    }

    static void checkLongs(String what, Supplier<ParallelLongs> p, long[] exp) {
        assertArrayEquals(exp, p.get().toArray(), what);
        assertEquals(LongStream.of(exp).sum(), p.get().sum(), what);
        assertEquals(LongStream.of(exp).min(), p.get().min(), what);
        assertEquals(LongStream.of(exp).max(), p.get().max(), what);
        assertEquals(exp.length, p.get().count(), what);
        assertEquals(LongStream.of(exp).reduce(0, Long::sum), p.get().reduce(0, Long::sum), what);
        assertEquals(LongStream.of(exp).reduce((a, b) -> b), p.get().reduce((a, b) -> b), what);
        assertEquals(LongStream.of(exp).reduce((a, b) -> a), p.get().reduce((a, b) -> a), what);
        assertArrayEquals(LongStream.of(exp).map(v -> v * 7 - 1).toArray(), p.get().map(v -> v * 7 - 1).toArray(),
                what);
        long[] odd = LongStream.of(exp).filter(v -> (v & 1) != 0).toArray();
        assertArrayEquals(odd, p.get().filter(v -> (v & 1) != 0).toArray(), what);
        assertEquals(odd.length, p.get().filter(v -> (v & 1) != 0).count(), what);
        assertEquals(LongStream.of(exp).mapToObj(Long::toString).toList(), p.get().mapToObj(Long::toString).toList(),
                what);
        assertEquals(LongStream.of(exp).boxed().toList(), p.get().boxed().toList(), what);
        assertArrayEquals(LongStream.of(exp).mapToInt(v -> (int) (v >>> 7)).toArray(),
                p.get().mapToInt(v -> (int) (v >>> 7)).toArray(), what);
        assertEquals(LongStream.of(exp).mapToDouble(v -> v / 1024.0).sum(), p.get().mapToDouble(v -> v / 1024.0).sum(),
                what);
        long last = exp.length > 0 ? exp[exp.length - 1] : 0;
        for (long target : new long[] {last, -1}) {
            assertEquals(LongStream.of(exp).anyMatch(v -> v == target), p.get().anyMatch(v -> v == target), what);
            assertEquals(LongStream.of(exp).allMatch(v -> v != target), p.get().allMatch(v -> v != target), what);
            assertEquals(LongStream.of(exp).noneMatch(v -> v == target), p.get().noneMatch(v -> v == target), what);
        }
        assertEquals(LongStream.of(exp).findFirst(), p.get().findFirst(), what);
        assertEquals(LongStream.of(exp).filter(v -> (v & 7) == 3).findFirst(),
                p.get().filter(v -> (v & 7) == 3).findFirst(), what);
        OptionalLong any = p.get().filter(v -> (v & 7) == 3).findAny();
        assertEquals(LongStream.of(exp).anyMatch(v -> (v & 7) == 3), any.isPresent(), what);
        any.ifPresent(v -> assertTrue((v & 7) == 3 && LongStream.of(exp).anyMatch(e -> e == v), what));
        LongAdder sum = new LongAdder();
        p.get().forEach(sum::add);
        assertEquals(LongStream.of(exp).sum(), sum.sum(), what);
    }

    // --- doubles ----------------------------------------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void doubleOperationsMatchDoubleStream(TestPools.Config c) {
        ParallelFixtures.withPool(c, "doubleOperationsMatchDoubleStream", (pool, prefix) -> {
            for (int n : SIZES) {
                // quarters of small integers: every partial sum is exact, so any summation order gives the same sum
                double[] data = IntStream.of(ints(n)).mapToDouble(v -> v / 4.0).toArray();
                List<Double> list = DoubleStream.of(data).boxed().collect(Collectors.toCollection(LinkedList::new));
                Map<String, Supplier<ParallelDoubles>> m = new LinkedHashMap<>();
                m.put("double[]", () -> Parallel.of(data));
                m.put("range.mapToDouble", () -> Parallel.range(0, n).mapToDouble(i -> value(i) / 4.0));
                m.put("LinkedList.mapToDouble", () -> Parallel.of(list).mapToDouble(Double::doubleValue));
                m.put("double[].filter(all)", () -> Parallel.of(data).filter(v -> true));
                for (Map.Entry<String, Supplier<ParallelDoubles>> s : m.entrySet()) {
                    checkDoubles(s.getKey() + ", n=" + n, () -> s.getValue().get().on(pool), data);
                }
            }
        });
    }

    static void checkDoubles(String what, Supplier<ParallelDoubles> p, double[] exp) {
        assertArrayEquals(exp, p.get().toArray(), what);
        assertEquals(DoubleStream.of(exp).sum(), p.get().sum(), what);
        assertEquals(DoubleStream.of(exp).min(), p.get().min(), what);
        assertEquals(DoubleStream.of(exp).max(), p.get().max(), what);
        assertEquals(exp.length, p.get().count(), what);
        assertEquals(DoubleStream.of(exp).reduce(0, Double::sum), p.get().reduce(0, Double::sum), what);
        assertEquals(DoubleStream.of(exp).reduce((a, b) -> b), p.get().reduce((a, b) -> b), what);
        assertArrayEquals(DoubleStream.of(exp).map(v -> v * 2 + 0.5).toArray(), p.get().map(v -> v * 2 + 0.5).toArray(),
                what);
        double[] negative = DoubleStream.of(exp).filter(v -> v < 0).toArray();
        assertArrayEquals(negative, p.get().filter(v -> v < 0).toArray(), what);
        assertEquals(negative.length, p.get().filter(v -> v < 0).count(), what);
        assertEquals(DoubleStream.of(exp).mapToObj(Double::toString).toList(),
                p.get().mapToObj(Double::toString).toList(), what);
        assertEquals(DoubleStream.of(exp).boxed().toList(), p.get().boxed().toList(), what);
        assertArrayEquals(DoubleStream.of(exp).mapToInt(v -> (int) v).toArray(),
                p.get().mapToInt(v -> (int) v).toArray(), what);
        assertArrayEquals(DoubleStream.of(exp).mapToLong(Math::round).toArray(),
                p.get().mapToLong(Math::round).toArray(), what);
        double last = exp.length > 0 ? exp[exp.length - 1] : 0;
        for (double target : new double[] {last, 0.3}) {
            assertEquals(DoubleStream.of(exp).anyMatch(v -> v == target), p.get().anyMatch(v -> v == target), what);
            assertEquals(DoubleStream.of(exp).allMatch(v -> v != target), p.get().allMatch(v -> v != target), what);
            assertEquals(DoubleStream.of(exp).noneMatch(v -> v == target), p.get().noneMatch(v -> v == target),
                    what);
        }
        assertEquals(DoubleStream.of(exp).findFirst(), p.get().findFirst(), what);
        assertEquals(DoubleStream.of(exp).filter(v -> v > 200).findFirst(), p.get().filter(v -> v > 200).findFirst(),
                what);
        OptionalDouble any = p.get().filter(v -> v > 200).findAny();
        assertEquals(DoubleStream.of(exp).anyMatch(v -> v > 200), any.isPresent(), what);
        LongAdder count = new LongAdder();
        p.get().forEach(v -> count.increment());
        assertEquals(exp.length, count.sum(), what);
    }

    // --- objects ----------------------------------------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void itemOperationsMatchStream(TestPools.Config c) {
        ParallelFixtures.withPool(c, "itemOperationsMatchStream", (pool, prefix) -> {
            for (int n : SIZES) {
                // distinct instances for equal values, so that assertSame can tell which of equal elements came out
                String[] data = IntStream.of(ints(n)).mapToObj(v -> new String("s" + v)).toArray(String[]::new);
                List<String> arrayList = new ArrayList<>(Arrays.asList(data));
                Map<String, Supplier<ParallelItems<String>>> m = new LinkedHashMap<>();
                m.put("String[]", () -> Parallel.of(data));
                m.put("ArrayList", () -> Parallel.of(arrayList));
                m.put("List.of", () -> Parallel.of(List.of(data)));
                m.put("LinkedList", () -> Parallel.of(new LinkedList<>(arrayList)));
                m.put("ArrayDeque", () -> Parallel.of(new ArrayDeque<>(arrayList)));
                m.put("unsized spliterator", () -> Parallel.of(unsized(arrayList)));
                m.put("sized spliterator", () -> Parallel.of(arrayList.spliterator()));
                m.put("range.mapToObj", () -> Parallel.range(0, n).mapToObj(i -> data[i]));
                m.put("String[].filter(all)", () -> Parallel.of(data).filter(s -> true));
                for (Map.Entry<String, Supplier<ParallelItems<String>>> s : m.entrySet()) {
                    checkItems(s.getKey() + ", n=" + n, () -> s.getValue().get().on(pool), data);
                }
            }
        });
    }

    static void checkItems(String what, Supplier<ParallelItems<String>> p, String[] exp) {
        List<String> expList = Arrays.asList(exp);
        assertEquals(expList, p.get().toList(), what);
        assertArrayEquals(exp, p.get().toArray(String[]::new), what);
        assertArrayEquals(exp, p.get().toArray(), what);
        assertEquals(exp.length, p.get().count(), what);
        // concatenation is associative but not commutative: pieces must be combined in encounter order
        assertEquals(String.join("", exp), p.get().reduce("", String::concat), what);
        assertEquals(Stream.of(exp).reduce(String::concat), p.get().reduce(String::concat), what);
        assertEquals(expList, p.get().collect(ArrayList::new, ArrayList::add, ArrayList::addAll), what);
        Comparator<String> byLength = Comparator.comparingInt(String::length);
        assertSameOptional(Stream.of(exp).min(byLength), p.get().min(byLength), what);
        assertSameOptional(Stream.of(exp).max(byLength), p.get().max(byLength), what);
        assertEquals(Stream.of(exp).min(Comparator.naturalOrder()), p.get().min(Comparator.naturalOrder()), what);
        assertEquals(Stream.of(exp).map(String::length).toList(), p.get().map(String::length).toList(), what);
        List<String> sevens = Stream.of(exp).filter(s -> s.endsWith("7")).toList();
        assertEquals(sevens, p.get().filter(s -> s.endsWith("7")).toList(), what);
        assertEquals(sevens.size(), p.get().filter(s -> s.endsWith("7")).count(), what);
        assertEquals(Stream.of(exp).mapToInt(String::length).sum(), p.get().mapToInt(String::length).sum(), what);
        assertEquals(Stream.of(exp).mapToLong(String::hashCode).sum(), p.get().mapToLong(String::hashCode).sum(),
                what);
        assertEquals(Stream.of(exp).mapToDouble(String::length).sum(), p.get().mapToDouble(String::length).sum(),
                what);
        String last = exp.length > 0 ? exp[exp.length - 1] : "none";
        for (String target : new String[] {last, "absent"}) {
            assertEquals(Stream.of(exp).anyMatch(target::equals), p.get().anyMatch(target::equals), what);
            assertEquals(Stream.of(exp).allMatch(s -> !s.equals(target)), p.get().allMatch(s -> !s.equals(target)),
                    what);
            assertEquals(Stream.of(exp).noneMatch(target::equals), p.get().noneMatch(target::equals), what);
        }
        assertSameOptional(Stream.of(exp).findFirst(), p.get().findFirst(), what);
        assertSameOptional(Stream.of(exp).filter(s -> s.endsWith("99")).findFirst(),
                p.get().filter(s -> s.endsWith("99")).findFirst(), what);
        Optional<String> any = p.get().filter(s -> s.endsWith("99")).findAny();
        assertEquals(!Stream.of(exp).filter(s -> s.endsWith("99")).toList().isEmpty(), any.isPresent(), what);
        any.ifPresent(s -> assertTrue(s.endsWith("99") && expList.contains(s), what));
        LongAdder count = new LongAdder();
        p.get().forEach(s -> count.increment());
        assertEquals(exp.length, count.sum(), what);
    }

    private static <T> void assertSameOptional(Optional<T> expected, Optional<T> actual, String what) {
        assertEquals(expected.isPresent(), actual.isPresent(), what);
        expected.ifPresent(e -> assertSame(e, actual.get(), what + ": not the same element"));
    }

    // --- large inputs -----------------------------------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void largeOddInputsKeepOrderAndTotals(TestPools.Config c) {
        ParallelFixtures.withPool(c, "largeOddInputsKeepOrderAndTotals", (pool, prefix) -> {
            int[] data = ints(LARGE);
            List<Integer> list = new ArrayList<>(IntStream.of(data).boxed().toList());
            assertEquals(IntStream.of(data).asLongStream().sum(), Parallel.of(data).on(pool).sum());
            assertArrayEquals(IntStream.of(data).filter(v -> v % 7 == 0).toArray(),
                    Parallel.of(data).on(pool).filter(v -> v % 7 == 0).toArray());
            assertEquals(IntStream.range(0, LARGE).mapToObj(i -> "#" + i).toList(),
                    Parallel.range(0, LARGE).on(pool).mapToObj(i -> "#" + i).toList());
            assertEquals(list.stream().filter(v -> v > 0).toList(),
                    Parallel.of(unsized(list)).on(pool).filter(v -> v > 0).toList());
            assertEquals(list.stream().filter(v -> v > 0).toList(),
                    Parallel.of(new LinkedList<>(list)).on(pool).filter(v -> v > 0).toList());
            assertEquals(IntStream.of(data).reduce((a, b) -> b), Parallel.of(data).on(pool).reduce((a, b) -> b));
            assertEquals(IntStream.of(data).filter(v -> v == 999).findFirst(),
                    Parallel.of(data).on(pool).filter(v -> v == 999).findFirst());
            assertEquals(list.stream().filter(v -> v == 999).findFirst(),
                    Parallel.of(unsized(list)).on(pool).filter(v -> v == 999).findFirst());
            assertEquals(LARGE, Parallel.of(unsized(list)).on(pool).count());
        });
    }

    // --- special values ---------------------------------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void doubleSumIsCompensatedAndHandlesInfinitiesAndNaN(TestPools.Config c) {
        ParallelFixtures.withPool(c, "doubleSumIsCompensatedAndHandlesInfinitiesAndNaN", (pool, prefix) -> {
            double[] a = new double[2002];
            a[0] = 1e16;
            Arrays.fill(a, 1, 2001, 1.0);
            a[2001] = -1e16;
            // a plain left-to-right sum loses every 1.0 against 1e16 and returns 0
            assertEquals(2000.0, Parallel.of(a).on(pool).sum());
            assertEquals(DoubleStream.of(a).sum(), Parallel.of(a).on(pool).sum());
            double inf = Double.POSITIVE_INFINITY;
            assertEquals(inf, Parallel.of(new double[] {1, inf, 2, inf, 3}).on(pool).sum());
            assertEquals(-inf, Parallel.of(new double[] {-inf, -1, -inf}).on(pool).sum());
            assertTrue(Double.isNaN(Parallel.of(new double[] {inf, 1, -inf}).on(pool).sum()));
            assertTrue(Double.isNaN(Parallel.of(new double[] {1, Double.NaN, 2}).on(pool).sum()));
            double[] withNaN = {3, -0.0, Double.NaN, 0.0, -7};
            assertEquals(DoubleStream.of(withNaN).min(), Parallel.of(withNaN).on(pool).min());
            assertEquals(DoubleStream.of(withNaN).max(), Parallel.of(withNaN).on(pool).max());
            double[] zeros = {0.0, -0.0, 0.0};
            assertEquals(Double.doubleToRawLongBits(-0.0),
                    Double.doubleToRawLongBits(Parallel.of(zeros).on(pool).min().getAsDouble()));
        });
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void intSumDoesNotOverflowAndExtremeRangesWork(TestPools.Config c) {
        ParallelFixtures.withPool(c, "intSumDoesNotOverflowAndExtremeRangesWork", (pool, prefix) -> {
            int[] big = new int[1001];
            Arrays.fill(big, Integer.MAX_VALUE);
            assertEquals(1001L * Integer.MAX_VALUE, Parallel.of(big).on(pool).sum());
            assertEquals(IntStream.of(big).sum(), Parallel.of(big).on(pool).reduce(0, Integer::sum),
                    "reduce wraps around as IntStream does");
            assertArrayEquals(IntStream.range(Integer.MAX_VALUE - 5, Integer.MAX_VALUE).toArray(),
                    Parallel.range(Integer.MAX_VALUE - 5, Integer.MAX_VALUE).on(pool).toArray());
            assertArrayEquals(IntStream.range(Integer.MIN_VALUE, Integer.MIN_VALUE + 3).toArray(),
                    Parallel.range(Integer.MIN_VALUE, Integer.MIN_VALUE + 3).on(pool).toArray());
            assertArrayEquals(LongStream.range(Long.MAX_VALUE - 4, Long.MAX_VALUE).toArray(),
                    Parallel.range(Long.MAX_VALUE - 4, Long.MAX_VALUE).on(pool).toArray());
            // 2^32 - 1 elements: counted and matched without being materialised
            assertEquals((1L << 32) - 1, Parallel.range(Integer.MIN_VALUE, Integer.MAX_VALUE).on(pool).count());
            assertTrue(Parallel.range(Integer.MIN_VALUE, Integer.MAX_VALUE).on(pool)
                    .anyMatch(v -> v == Integer.MIN_VALUE + 5));
            assertEquals(Long.MAX_VALUE, Parallel.range(0L, Long.MAX_VALUE).on(pool).count());
            assertEquals(OptionalLong.of(Long.MAX_VALUE - 1),
                    Parallel.range(Long.MAX_VALUE - 3, Long.MAX_VALUE).on(pool).max());
            assertFalse(Parallel.range(7, 7).on(pool).anyMatch(v -> true));
        });
    }

    static <T> Spliterator<T> unsized(List<T> list) {
        return Spliterators.spliteratorUnknownSize(list.iterator(), Spliterator.ORDERED);
    }
}
