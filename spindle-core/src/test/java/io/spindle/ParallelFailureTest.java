package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A throwable from a user function reaches the caller of the terminal operation as the same instance, from any
 * terminal operation and source, called from outside the pool or from one of its workers; the pool keeps working.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ParallelFailureTest {
    private static final int N = 10_003;
    private static final int FAIL_AT = 7_777;

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> RuntimeException sneakyThrow(Throwable t) throws T {
        throw (T) t;
    }

    /** Every terminal operation, over sources whose mapping throws {@code e} at element {@link #FAIL_AT}. */
    private static Map<String, Runnable> failingOperations(ThreadPool pool, Throwable e) {
        IntUnaryOperator failing = v -> {
            if (v == FAIL_AT) {
                throw sneakyThrow(e);
            }
            return v;
        };
        List<Integer> linked = new LinkedList<>(IntStream.range(0, N).boxed().toList());
        Function<Integer, Integer> failingItem = v -> failing.applyAsInt(v);
        Map<String, Runnable> ops = new LinkedHashMap<>();
        ops.put("sum", () -> Parallel.range(0, N).on(pool).map(failing).sum());
        ops.put("toArray", () -> Parallel.range(0, N).on(pool).map(failing).toArray());
        ops.put("filter.toArray", () -> Parallel.range(0, N).on(pool).map(failing).filter(v -> v > 0).toArray());
        ops.put("filter.count", () -> Parallel.range(0, N).on(pool).map(failing).filter(v -> v > 0).count());
        ops.put("reduce", () -> Parallel.range(0, N).on(pool).map(failing).reduce(Integer::sum));
        ops.put("forEach", () -> Parallel.range(0, N).on(pool).forEach(v -> failing.applyAsInt(v)));
        ops.put("anyMatch", () -> Parallel.range(0, N).on(pool).anyMatch(v -> failing.applyAsInt(v) < 0));
        ops.put("findFirst", () -> Parallel.range(0, N).on(pool).filter(v -> failing.applyAsInt(v) < 0).findFirst());
        ops.put("long[].mapToObj.toList", () -> Parallel.of(new long[N]).on(pool)
                .mapToObj(v -> failingItem.apply(FAIL_AT)).toList());
        ops.put("double[].max", () -> Parallel.of(new double[N]).on(pool).map(v -> failing.applyAsInt(FAIL_AT))
                .max());
        ops.put("LinkedList.map.toList", () -> Parallel.of(linked).on(pool).map(failingItem).toList());
        ops.put("LinkedList.collect", () -> Parallel.of(linked).on(pool).collect(ArrayList::new,
                (l, v) -> l.add(failingItem.apply(v)), ArrayList::addAll));
        ops.put("collect supplier", () -> Parallel.range(0, N).on(pool).boxed().<List<Integer>>collect(() -> {
            throw sneakyThrow(e);
        }, List::add, List::addAll));
        return ops;
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void failureOfAUserFunctionPropagatesAsItselfFromOutside(TestPools.Config c) {
        ParallelFixtures.withPool(c, "failureOfAUserFunctionPropagatesAsItselfFromOutside", (pool, prefix) -> {
            RuntimeException boom = new IllegalStateException("boom");
            for (Map.Entry<String, Runnable> op : failingOperations(pool, boom).entrySet()) {
                RuntimeException thrown = assertThrows(RuntimeException.class, op.getValue()::run, op.getKey());
                assertSame(boom, thrown, op.getKey());
            }
            assertEquals(IntStream.range(0, N).asLongStream().sum(), Parallel.range(0, N).on(pool).sum(),
                    "the pool works after the failures");
        });
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void failurePropagatesAsItselfInsideAWorker(TestPools.Config c) {
        ParallelFixtures.withPool(c, "failurePropagatesAsItselfInsideAWorker", (pool, prefix) -> {
            Error error = new AssertionError("error from a leaf");
            List<String> wrong = pool.install(() -> {
                List<String> w = new ArrayList<>();
                for (Map.Entry<String, Runnable> op : failingOperations(pool, error).entrySet()) {
                    try {
                        op.getValue().run();
                        w.add(op.getKey() + ": no failure");
                    } catch (Throwable t) {
                        if (t != error) {
                            w.add(op.getKey() + ": " + t);
                        }
                    }
                }
                return w;
            });
            assertEquals(List.of(), wrong);
            assertEquals((long) N, pool.install(() -> Parallel.range(0, N).filter(v -> true).count()).longValue());
        });
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void checkedThrowableSneakedOutOfAFunctionPropagatesAsIs(TestPools.Config c) {
        ParallelFixtures.withPool(c, "checkedThrowableSneakedOutOfAFunctionPropagatesAsIs", (pool, prefix) -> {
            IOException io = new IOException("sneaky");
            Throwable thrown = assertThrows(IOException.class, () -> Parallel.range(0, N).on(pool).forEach(v -> {
                if (v == FAIL_AT) {
                    throw sneakyThrow(io);
                }
            }));
            assertSame(io, thrown);
        });
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void severalFailuresGiveOneOfThemWithTheOthersSuppressed(TestPools.Config c) {
        ParallelFixtures.withPool(c, "severalFailuresGiveOneOfThemWithTheOthersSuppressed", (pool, prefix) -> {
            Set<Throwable> thrownOnes = java.util.concurrent.ConcurrentHashMap.newKeySet();
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> Parallel.range(0, N).on(pool)
                    .forEach(v -> {
                        RuntimeException e = new IllegalStateException("element " + v);
                        thrownOnes.add(e);
                        throw e;
                    }));
            assertTrue(thrownOnes.contains(thrown));
            Set<Throwable> reachable = new HashSet<>();
            collect(thrown, reachable);
            assertEquals(thrownOnes, reachable, "every failure is the one thrown or suppressed under it");
        });
    }

    private static void collect(Throwable t, Set<Throwable> into) {
        if (into.add(t)) {
            for (Throwable s : t.getSuppressed()) {
                collect(s, into);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void aFailureSkipsThePiecesThatHaveNotStarted(TestPools.Config c) {
        ParallelFixtures.withPool(c, "aFailureSkipsThePiecesThatHaveNotStarted", (pool, prefix) -> {
            int n = 1_000_000;
            AtomicLong visited = new AtomicLong();
            RuntimeException boom = new IllegalStateException("first element");
            assertSame(boom, assertThrows(RuntimeException.class, () -> Parallel.range(0, n).on(pool).forEach(v -> {
                visited.incrementAndGet();
                if (v == 0) {
                    throw boom;
                }
            })));
            // With one worker nothing runs beside the leftmost leaf, which fails first, so every other piece is
            // skipped; with more, how much other workers had started by then is a matter of timing.
            if (c.threads() == 1) {
                assertEquals(1, visited.get());
            }
        });
    }
}
