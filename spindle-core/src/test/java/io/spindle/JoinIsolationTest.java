package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Consecutive joins are independent: one join's result or failure never leaks into the next, a finished join keeps
 * neither its result nor its closures alive, and the pool stays correct after a stack overflow unwound through open
 * joins. (Written for a per-depth reuse of join jobs that was measured and dropped; the rules hold for any scheme
 * that recycles anything per join.)
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JoinIsolationTest {

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void secondJoinAtSameDepthDoesNotSeeFirstJoinsResultOrFailure(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            pool.install(() -> {
                for (int i = 0; i < 1_000; i++) {
                    Pair<Integer, String> first = Spindle.join(() -> 1, () -> "first");
                    assertEquals("first", first.second());
                    Pair<Integer, String> second = Spindle.join(() -> 2, () -> null);
                    assertNull(second.second(), "a null result must not be replaced by the frame's previous one");
                    IllegalStateException boom = new IllegalStateException("b failed");
                    assertSame(boom, assertThrows(IllegalStateException.class,
                            () -> Spindle.join(() -> 3, () -> {
                                throw boom;
                            })));
                    Pair<Integer, Integer> after = Spindle.join(() -> 4, () -> 5);
                    assertEquals(new Pair<>(4, 5), after, "a failure must not outlive its join");
                    AtomicInteger ran = new AtomicInteger();
                    Spindle.join(ran::incrementAndGet, ran::incrementAndGet); // the Runnable form in between
                    assertEquals(2, ran.get());
                    assertEquals(new Pair<>(6, "x"), Spindle.join(() -> 6, () -> "x"));
                }
                return null;
            });
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void stolenAndInlineHalvesEachRunOnceWithTheirOwnResult(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            for (int round = 0; round < 20; round++) {
                AtomicLong visits = new AtomicLong();
                // Every node joins; with several workers many second halves are stolen while others run inline.
                long sum = pool.install(() -> JoinTest.treeSum(1, 14, visits));
                long n = (1L << 14) - 1;
                assertEquals(n * (n + 1) / 2, sum, "round " + round);
                assertEquals(n, visits.get(), "round " + round);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void aThrowableReturnedAsAResultIsAResultNotAFailure(TestPools.Config c) {
        // The join job keeps its outcome in one field; a returned Throwable must not be mistaken for a thrown one.
        IllegalStateException value = new IllegalStateException("returned, not thrown");
        try (ThreadPool pool = c.build()) {
            for (int round = 0; round < 200; round++) {
                Pair<Long, Throwable> r = pool.install(() -> Spindle.join(() -> busy(20_000), () -> value));
                assertSame(value, r.second(), "round " + round);
                Pair<Throwable, Throwable> both = pool.install(() -> Spindle.join(() -> value, () -> value));
                assertSame(value, both.first());
                assertSame(value, both.second());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void aClosureThatIsBothSupplierAndRunnableRunsAsTheFormItWasPassedAs(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            for (int round = 0; round < 200; round++) {
                Both asSupplier = new Both();
                Pair<Long, String> r = pool.install(() -> Spindle.join(() -> busy(20_000), (Supplier<String>) asSupplier));
                assertEquals("get", r.second(), "round " + round);
                assertEquals("get", asSupplier.calls.toString());

                Both asRunnable = new Both();
                pool.install(() -> {
                    Spindle.join(() -> busy(20_000), (Runnable) asRunnable);
                    return null;
                });
                assertEquals("run", asRunnable.calls.toString(), "round " + round);
            }
        }
    }

    /** Records which of its two methods ran. */
    private static final class Both implements Supplier<String>, Runnable {
        final StringBuffer calls = new StringBuffer(); // written by whichever worker runs it; read after the join

        @Override
        public String get() {
            calls.append("get");
            return "get";
        }

        @Override
        public void run() {
            calls.append("run");
        }
    }

    /** Some work in the first half, so that an idle worker has time to steal the second. */
    private static long busy(int n) {
        long x = 1;
        for (int i = 0; i < n; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    @Test
    void resultOfAJoinIsNotKeptAliveByTheReusableFrame() throws InterruptedException {
        try (ThreadPool pool = ThreadPool.builder().threads(1).build()) {
            WeakReference<Object> ref = pool.install(() -> {
                Pair<Object, Object> r = Spindle.join(() -> null, () -> new byte[1 << 20]);
                return new WeakReference<>(r.second());
            });
            for (int i = 0; i < 100 && ref.get() != null; i++) {
                System.gc();
                Thread.sleep(10);
            }
            assertNull(ref.get(), "something in the pool still references the finished join's result");
        }
    }

    @Test
    void closureOfAJoinIsNotKeptAliveByTheReusableFrame() throws InterruptedException {
        try (ThreadPool pool = ThreadPool.builder().threads(1).build()) {
            WeakReference<Object> ref = pool.install(() -> {
                Object captured = new byte[1 << 20];
                Runnable b = () -> {
                    if (captured.hashCode() == 42) { // never true in practice; keeps the capture
                        System.out.print("");
                    }
                };
                Spindle.join(() -> { }, b);
                return new WeakReference<>(captured);
            });
            for (int i = 0; i < 100 && ref.get() != null; i++) {
                System.gc();
                Thread.sleep(10);
            }
            assertNull(ref.get(), "something in the pool still references the finished join's closure");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void joinsStayCorrectAfterAStackOverflowUnwoundThroughOpenJoins(TestPools.Config c) {
        try (ThreadPool pool = ThreadPool.builder().threads(c.threads()).sleepStrategy(c.strategy())
                .stackSize(256 * 1024).build()) {
            // Unbounded recursion through joins: the overflow unwinds through many open joins, some of whose second
            // halves are stolen or still queued; afterwards the pool must compute right answers.
            Throwable t = assertThrows(Throwable.class, () -> pool.install(() -> deep(0)));
            assertTrue(t instanceof StackOverflowError || t.getCause() instanceof StackOverflowError
                    || hasStackOverflow(t), () -> "unexpected failure " + t);
            for (int round = 0; round < 5; round++) {
                AtomicLong visits = new AtomicLong();
                long sum = pool.install(() -> JoinTest.treeSum(1, 12, visits));
                long n = (1L << 12) - 1;
                assertEquals(n * (n + 1) / 2, sum);
                assertEquals(n, visits.get());
            }
        }
    }

    private static boolean hasStackOverflow(Throwable t) {
        for (Throwable s : t.getSuppressed()) {
            if (s instanceof StackOverflowError) {
                return true;
            }
        }
        return false;
    }

    private static int deep(int d) {
        Pair<Integer, Integer> r = Spindle.join(() -> deep(d + 1), () -> d);
        return r.first() + r.second();
    }
}
