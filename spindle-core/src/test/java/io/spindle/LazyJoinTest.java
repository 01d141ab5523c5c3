package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Lazy joins (docs/DESIGN.md §7) through the public API: what only a lazy pool does (promotion, its statistics, a root
 * join's immediate share) and the semantics of docs/DESIGN.md §1.2 with frames promoted at every join (heartbeat 0, the
 * stress setting). The whole behavioural suite also runs with lazy joins (the default) and with eager ones (see the
 * pom).
 */
class LazyJoinTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private static ThreadPool stressPool(TestPools.Config c) {
        return c.builder().joinStrategy(JoinStrategy.LAZY).heartbeatInterval(Duration.ZERO).build();
    }

    static long fib(int n) {
        if (n < 2) {
            return n;
        }
        Pair<Long, Long> p = Spindle.join(() -> fib(n - 1), () -> fib(n - 2));
        return p.first() + p.second();
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void resultsAreRightWhenEveryJoinMayPromote(TestPools.Config c) {
        try (ThreadPool pool = stressPool(c)) {
            for (int i = 0; i < 20; i++) {
                long r = Watchdog.call(DEADLINE, () -> "fib on " + c + "\n" + pool, () -> pool.install(() -> fib(20)));
                assertEquals(6765L, r);
            }
            if (c.threads() == 1) {
                assertEquals(0L, pool.stats().promotions(), "a single worker never has an idle worker to share with");
            }
        }
    }

    static long fibLong(int n) {
        return n < 2 ? n : Spindle.join(() -> fibLong(n - 1), () -> fibLong(n - 2), Long::sum);
    }

    /** The long form: right on every configuration, lazy promoting at every join and eager (both run here). */
    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void theLongFormIsRightLazyAndEager(TestPools.Config c) {
        for (JoinStrategy js : JoinStrategy.values()) {
            try (ThreadPool pool = c.builder().joinStrategy(js).heartbeatInterval(Duration.ZERO).build()) {
                for (int i = 0; i < 10; i++) {
                    long r = Watchdog.call(DEADLINE, () -> "fibLong on " + c + " " + js + "\n" + pool,
                            () -> pool.install(() -> fibLong(20)));
                    assertEquals(6765L, r);
                }
                assertEquals(6765L * 3 + 1, pool.join(() -> fibLong(20), () -> 2 * fibLong(20), (x, y) -> x + y + 1),
                        "from outside the pool, and combine applied in order");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void theLongFormFollowsSpecOneOnFailure(TestPools.Config c) {
        try (ThreadPool pool = stressPool(c)) {
            for (int i = 0; i < 30; i++) {
                AtomicInteger bRuns = new AtomicInteger();
                AtomicInteger combines = new AtomicInteger();
                IllegalStateException failA = new IllegalStateException("a");
                IllegalArgumentException failB = new IllegalArgumentException("b");
                RuntimeException thrown = Watchdog.call(DEADLINE, () -> "joinLong on " + c, () -> pool.install(() ->
                        assertThrows(RuntimeException.class, () -> Spindle.join(() -> {
                            fibLong(12); // joins inside a: beats that promote the outer b
                            throw failA;
                        }, () -> {
                            bRuns.incrementAndGet();
                            fibLong(10);
                            throw failB;
                        }, (x, y) -> combines.incrementAndGet()))));
                assertSame(failA, thrown, "a's failure wins");
                assertSame(failB, thrown.getSuppressed()[0], "b's failure is suppressed into a's");
                assertEquals(1, bRuns.get(), "b ran exactly once");
                long onlyB = Watchdog.call(DEADLINE, () -> "joinLong on " + c, () -> pool.install(() -> {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                            () -> Spindle.join(() -> fibLong(12), () -> {
                                throw failB;
                            }, (x, y) -> combines.incrementAndGet()));
                    return e == failB ? 1L : 0L;
                }));
                assertEquals(1L, onlyB, "b's failure alone is thrown as it is");
                assertEquals(0, combines.get(), "combine never runs after a failure");
            }
        }
    }

    static long fibFunction(int n) {
        return n < 2 ? n : Spindle.join(LazyJoinTest::fibFunction, n - 1, n - 2, Long::sum);
    }

    /** A balanced tree of {@code 2^depth - 1} nodes, each worth 1. */
    record Node(Node left, Node right) {
        static Node balanced(int depth) {
            return depth == 1 ? new Node(null, null) : new Node(balanced(depth - 1), balanced(depth - 1));
        }
    }

    static long countFunction(Node n) {
        return n.left() == null ? 1 : 1 + Spindle.join(LazyJoinTest::countFunction, n.left(), n.right(), Long::sum);
    }

    /** The function form: right on every configuration, lazy promoting at every join and eager (both run here). */
    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void theFunctionFormIsRightLazyAndEager(TestPools.Config c) {
        Node tree = Node.balanced(10);
        for (JoinStrategy js : JoinStrategy.values()) {
            try (ThreadPool pool = c.builder().joinStrategy(js).heartbeatInterval(Duration.ZERO).build()) {
                for (int i = 0; i < 10; i++) {
                    long r = Watchdog.call(DEADLINE, () -> "fibFunction on " + c + " " + js + "\n" + pool,
                            () -> pool.install(() -> fibFunction(20) * 10_000 + countFunction(tree)));
                    assertEquals(6765L * 10_000 + 1023, r);
                }
                assertEquals(2 * 6765L + 55, pool.join(LazyJoinTest::fibFunction, 20, 10, (x, y) -> 2 * x + y),
                        "from outside the pool, and combine applied in order");
                assertEquals(14L, pool.join((Object o) -> o == null ? 7 : 0, null, null, Long::sum),
                        "null arguments reach f");
                if (js == JoinStrategy.LAZY && c.threads() > 1) {
                    // LZ8: each install's root join promotes a frame on a pool of two or more, so function frames
                    // went through makeJob and a thief or the owner's reclaim
                    assertTrue(pool.stats().promotions() > 0, "no function frame was promoted: " + pool.stats());
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void theFunctionFormFollowsSpecOneOnFailure(TestPools.Config c) {
        for (JoinStrategy js : JoinStrategy.values()) {
            try (ThreadPool pool = c.builder().joinStrategy(js).heartbeatInterval(Duration.ZERO).build()) {
                functionFormFailures(c, pool);
            }
        }
    }

    private static void functionFormFailures(TestPools.Config c, ThreadPool pool) {
        for (int i = 0; i < 30; i++) {
            AtomicInteger yRuns = new AtomicInteger();
            AtomicInteger combines = new AtomicInteger();
            IllegalStateException failX = new IllegalStateException("x");
            IllegalArgumentException failY = new IllegalArgumentException("y");
            java.util.function.ToLongFunction<String> f = s -> {
                fibFunction(12); // joins inside: beats that promote the outer frame
                if (s.equals("x")) {
                    throw failX;
                }
                yRuns.incrementAndGet();
                throw failY;
            };
            RuntimeException thrown = Watchdog.call(DEADLINE, () -> "function join on " + c, () -> pool.install(
                    () -> assertThrows(RuntimeException.class,
                            () -> Spindle.join(f, "x", "y", (x, y) -> combines.incrementAndGet()))));
            assertSame(failX, thrown, "f(x)'s failure wins");
            assertSame(failY, thrown.getSuppressed()[0], "f(y)'s failure is suppressed into f(x)'s");
            assertEquals(1, yRuns.get(), "f(y) ran exactly once");
            long onlyY = Watchdog.call(DEADLINE, () -> "function join on " + c, () -> pool.install(() -> {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> Spindle.join(s -> s.equals("y") ? f.applyAsLong(s) : fibFunction(12), "ok", "y",
                                (x, y) -> combines.incrementAndGet()));
                return e == failY ? 1L : 0L;
            }));
            assertEquals(1L, onlyY, "f(y)'s failure alone is thrown as it is");
            assertEquals(0, combines.get(), "combine never runs after a failure");
        }
    }

    /**
     * What the function form is for: with a static method and arguments that already exist, a join nobody takes
     * allocates nothing (one worker: nobody to promote to). Checked on the worker's own allocation counter, over
     * 50 sums of a 2,047-node tree (51,150 joins), the least of ten such windows: even one byte per join would fail it.
     */
    @Test
    void aFunctionJoinNobodyTakesAllocatesNothing() throws ReflectiveOperationException {
        // com.sun.management through reflection: this test module does not read jdk.management
        Object mx = java.lang.management.ManagementFactory.getThreadMXBean();
        Class<?> withAllocations = Class.forName("com.sun.management.ThreadMXBean");
        org.junit.jupiter.api.Assumptions.assumeTrue(withAllocations.isInstance(mx)
                && (Boolean) withAllocations.getMethod("isThreadAllocatedMemorySupported").invoke(mx)
                && (Boolean) withAllocations.getMethod("isThreadAllocatedMemoryEnabled").invoke(mx));
        java.lang.reflect.Method allocatedBytes = withAllocations.getMethod("getThreadAllocatedBytes", long.class);
        Node tree = Node.balanced(11);
        try (ThreadPool pool = ThreadPool.builder().threads(1).joinStrategy(JoinStrategy.LAZY).build()) {
            long[] measured = pool.install(() -> {
                long id = Thread.currentThread().getId();
                long total = 0;
                for (int i = 0; i < 50; i++) {
                    total += countFunction(tree); // links the call sites; the loop below then measures
                }
                // The least of ten windows: a window in which the JIT deoptimizes the recursion (the other tests
                // leave f's call site polymorphic) re-materializes objects it had scalar-replaced, which allocates
                long least = Long.MAX_VALUE;
                try {
                    for (int window = 0; window < 10; window++) {
                        long before = (Long) allocatedBytes.invoke(mx, id);
                        for (int i = 0; i < 50; i++) {
                            total += countFunction(tree);
                        }
                        long after = (Long) allocatedBytes.invoke(mx, id);
                        if (before <= 0) {
                            throw new AssertionError("the allocation counter reads " + before);
                        }
                        least = Math.min(least, after - before);
                    }
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(e);
                }
                return new long[] {least, total};
            });
            assertEquals(550L * 2047, measured[1]);
            assertTrue(measured[0] < 50L * 1023, "bytes allocated by 51,150 joins: " + measured[0]);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void failuresFollowSpecOneWhenHalvesArePromoted(TestPools.Config c) {
        try (ThreadPool pool = stressPool(c)) {
            for (int i = 0; i < 50; i++) {
                AtomicInteger bRuns = new AtomicInteger();
                IllegalStateException failA = new IllegalStateException("a");
                IllegalArgumentException failB = new IllegalArgumentException("b");
                RuntimeException thrown = Watchdog.call(DEADLINE, () -> "join on " + c, () -> pool.install(() ->
                        assertThrows(RuntimeException.class, () -> Spindle.join(() -> {
                            fib(12); // joins inside a: beats that promote the outer b
                            throw failA;
                        }, () -> {
                            bRuns.incrementAndGet();
                            fib(10);
                            throw failB;
                        }))));
                assertSame(failA, thrown, "a's failure wins");
                assertEquals(1, bRuns.get(), "b ran exactly once");
                assertEquals(1, thrown.getSuppressed().length);
                assertSame(failB, thrown.getSuppressed()[0], "b's failure is suppressed into a's");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void eachHalfRunsExactlyOnceUnderPromotion(TestPools.Config c) {
        try (ThreadPool pool = stressPool(c)) {
            int leaves = 1 << 12;
            AtomicInteger[] runs = new AtomicInteger[leaves];
            for (int i = 0; i < leaves; i++) {
                runs[i] = new AtomicInteger();
            }
            Watchdog.run(DEADLINE, () -> "tree on " + c + "\n" + pool, () -> pool.install(() -> {
                visit(runs, 0, leaves);
                return null;
            }));
            for (int i = 0; i < leaves; i++) {
                assertEquals(1, runs[i].get(), "leaf " + i);
            }
        }
    }

    private static void visit(AtomicInteger[] runs, int lo, int hi) {
        if (hi - lo == 1) {
            runs[lo].incrementAndGet();
            return;
        }
        int mid = (lo + hi) >>> 1;
        Spindle.join(() -> visit(runs, lo, mid), () -> visit(runs, mid, hi));
    }

    /**
     * docs/DESIGN.md §7 (LZ8): a root join checks at once, and a's own joins keep checking, so b is shared while a
     * runs: here a cannot end before b started elsewhere. On an eager pool the same holds trivially; on a lazy pool
     * that never promoted, the watchdog turns the wait into a failure.
     */
    @ParameterizedTest
    @EnumSource(SleepStrategy.class)
    void aRootJoinsSecondHalfIsSharedWhileTheFirstKeepsJoining(SleepStrategy s) throws Exception {
        try (ThreadPool pool = ThreadPool.builder().threads(2).sleepStrategy(s).joinStrategy(JoinStrategy.LAZY)
                .build()) {
            CountDownLatch bStarted = new CountDownLatch(1);
            AtomicReference<Thread> bThread = new AtomicReference<>();
            Thread aThread = Watchdog.call(DEADLINE, () -> "root join on " + s + "\n" + pool, () -> pool.install(() -> {
                AtomicReference<Thread> a = new AtomicReference<>();
                Spindle.join(() -> {
                    a.set(Thread.currentThread());
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(50);
                    while (bStarted.getCount() > 0 && System.nanoTime() < deadline) {
                        Spindle.join(() -> { }, () -> { }); // latent inner joins: each may be a beat
                    }
                }, () -> {
                    bThread.set(Thread.currentThread());
                    bStarted.countDown();
                });
                return a.get();
            }));
            assertEquals(0, bStarted.getCount(), "b never started while a ran: nothing was promoted");
            assertNotEquals(aThread, bThread.get(), "b ran on the other worker");
            assertTrue(pool.stats().promotions() >= 1, pool.stats().toString());
        }
    }

    @Test
    void theDefaultIsLazyUnlessThePropertySaysOtherwise() {
        try (ThreadPool pool = ThreadPool.builder().threads(1).build()) {
            String property = System.getProperty("spindle.joinStrategy");
            JoinStrategy expected = property == null || property.equalsIgnoreCase("lazy") ? JoinStrategy.LAZY
                    : JoinStrategy.EAGER;
            assertEquals(expected, pool.joinStrategy());
        }
    }

    @Test
    void eagerPoolsPromoteNothing() {
        try (ThreadPool pool = ThreadPool.builder().threads(2).joinStrategy(JoinStrategy.EAGER).build()) {
            assertEquals(JoinStrategy.EAGER, pool.joinStrategy());
            assertEquals(832040L, pool.install(() -> fib(30)));
            assertEquals(0L, pool.stats().promotions());
            assertTrue(pool.stats().workers().stream().allMatch(w -> w.promotions() == 0));
        }
    }

    @Test
    void promotionsAreCountedPerWorkerAndInTotal() {
        try (ThreadPool pool = ThreadPool.builder().threads(2).joinStrategy(JoinStrategy.LAZY)
                .heartbeatInterval(Duration.ZERO).build()) {
            for (int i = 0; i < 20; i++) {
                pool.install(() -> fib(22));
            }
            PoolStats s = pool.stats();
            assertEquals(s.workers().stream().mapToLong(WorkerStats::promotions).sum(), s.promotions());
            assertTrue(s.toString().contains("promotions="), s.toString());
        }
    }

    /** LZ9: a worker that goes idle keeps no closure of a finished join alive. */
    @ParameterizedTest
    @EnumSource(JoinStrategy.class)
    void finishedJoinsLeaveNothingReachable(JoinStrategy js) throws Exception {
        try (ThreadPool pool = ThreadPool.builder().threads(1).joinStrategy(js).build()) {
            WeakReference<Object> ref = pool.install(() -> {
                Object big = new byte[1 << 20];
                WeakReference<Object> r = new WeakReference<>(big);
                deepJoins(100, big); // deeper than the initial frame stack: it grows
                return r;
            });
            assertCollected(ref, "a closure of a finished join is still reachable");
        }
    }

    /** LZ9 for the function form: the arguments its frames held are dropped when the job ends. */
    @ParameterizedTest
    @EnumSource(JoinStrategy.class)
    void finishedFunctionJoinsLeaveNoArgumentReachable(JoinStrategy js) throws Exception {
        try (ThreadPool pool = ThreadPool.builder().threads(1).joinStrategy(js).build()) {
            WeakReference<Object> ref = pool.install(() -> {
                Object big = new byte[1 << 20];
                WeakReference<Object> r = new WeakReference<>(big);
                deepFunctionJoins(new Deep(100, big)); // deeper than the initial frame stack: it grows
                return r;
            });
            assertCollected(ref, "an argument of a finished function join is still reachable");
        }
    }

    /** Asks for collections (up to 50, a second in all) until {@code ref} is cleared, then asserts it is. */
    private static void assertCollected(WeakReference<?> ref, String message) throws InterruptedException {
        for (int i = 0; i < 50 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertNull(ref.get(), message);
    }

    record Deep(int depth, Object payload) {}

    private static long deepFunctionJoins(Deep d) {
        if (d.depth() == 0) {
            return d.payload().hashCode() & 1;
        }
        // y, a leaf holding the payload, waits in the frame's argument slot while x recurses
        return Spindle.join(LazyJoinTest::deepFunctionJoins, new Deep(d.depth() - 1, d.payload()),
                new Deep(0, d.payload()), Long::sum);
    }

    private static void deepJoins(int depth, Object captured) {
        if (depth == 0) {
            return;
        }
        Spindle.join(() -> deepJoins(depth - 1, captured), () -> captured.hashCode());
    }

    @Test
    void builderChecksTheHeartbeatInterval() {
        ThreadPool.Builder b = ThreadPool.builder();
        IllegalArgumentException neg = assertThrows(IllegalArgumentException.class,
                () -> b.heartbeatInterval(Duration.ofNanos(-1)));
        assertTrue(neg.getMessage().contains("PT-0.000000001S"), neg.getMessage());
        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                () -> b.heartbeatInterval(Duration.ofSeconds(2)));
        assertTrue(tooLong.getMessage().contains("PT2S"), tooLong.getMessage());
        assertThrows(NullPointerException.class, () -> b.heartbeatInterval(null));
        assertThrows(NullPointerException.class, () -> b.joinStrategy(null));
    }

    @Test
    void theLongFormNamesItsNullArguments() {
        try (ThreadPool pool = ThreadPool.builder().threads(1).build()) {
            NullPointerException e = assertThrows(NullPointerException.class,
                    () -> pool.join(() -> 1L, () -> 2L, null));
            assertEquals("combine", e.getMessage());
            e = assertThrows(NullPointerException.class, () -> pool.join(null, () -> 2L, Long::sum));
            assertEquals("a", e.getMessage());
            e = pool.install(() -> assertThrows(NullPointerException.class,
                    () -> Spindle.join(() -> 1L, null, Long::sum)));
            assertEquals("b", e.getMessage());
        }
    }

    @Test
    void theFunctionFormNamesItsNullArguments() {
        try (ThreadPool pool = ThreadPool.builder().threads(1).build()) {
            NullPointerException e = assertThrows(NullPointerException.class,
                    () -> pool.join((Integer n) -> n, 1, 2, null));
            assertEquals("combine", e.getMessage());
            e = assertThrows(NullPointerException.class, () -> pool.join(null, 1, 2, Long::sum));
            assertEquals("f", e.getMessage());
            e = pool.install(() -> assertThrows(NullPointerException.class,
                    () -> Spindle.join(null, "x", "y", Long::sum)));
            assertEquals("f", e.getMessage());
        }
    }

    @Test
    void systemPropertiesSetTheDefaultsAndBadValuesAreNamed() {
        String oldJoin = System.getProperty("spindle.joinStrategy");
        String oldBeat = System.getProperty("spindle.heartbeatMicros");
        try {
            System.setProperty("spindle.joinStrategy", "Eager");
            try (ThreadPool pool = ThreadPool.builder().threads(1).build()) {
                assertEquals(JoinStrategy.EAGER, pool.joinStrategy());
            }
            System.setProperty("spindle.joinStrategy", "sometimes");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ThreadPool.builder().threads(1).build());
            assertTrue(e.getMessage().contains("spindle.joinStrategy") && e.getMessage().contains("sometimes"),
                    e.getMessage());
            System.setProperty("spindle.joinStrategy", "lazy");
            System.setProperty("spindle.heartbeatMicros", "-5");
            e = assertThrows(IllegalArgumentException.class, () -> ThreadPool.builder().threads(1).build());
            assertTrue(e.getMessage().contains("spindle.heartbeatMicros") && e.getMessage().contains("-5"),
                    e.getMessage());
            System.setProperty("spindle.heartbeatMicros", "30");
            try (ThreadPool pool = ThreadPool.builder().threads(1).build()) {
                assertEquals(JoinStrategy.LAZY, pool.joinStrategy());
            }
        } finally {
            restore("spindle.joinStrategy", oldJoin);
            restore("spindle.heartbeatMicros", oldBeat);
        }
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    /** A long a with no joins at all shares nothing (the documented limit), yet the join still completes. */
    @Test
    void aJoinWhoseFirstHalfNeverJoinsStillRunsBoth() {
        try (ThreadPool pool = ThreadPool.builder().threads(2).joinStrategy(JoinStrategy.LAZY).build()) {
            AtomicBoolean ranB = new AtomicBoolean();
            pool.install(() -> {
                Spindle.join(() -> fib(15), () -> ranB.set(true));
                return null;
            });
            assertTrue(ranB.get());
        }
    }
}
