package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link ThreadPool.Builder}: ranges, messages, null checks and defaults (docs/DESIGN.md §1.11, §1.1). */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BuilderTest {

    /** The message names the bad value and the allowed range (both ends, as whole numbers). */
    private static void assertNamesValueAndRange(IllegalArgumentException e, String value, String low, String high) {
        String m = e.getMessage();
        assertNotNull(m, "IllegalArgumentException without a message");
        assertTrue(containsNumber(m, value), () -> "message does not name the value " + value + ": " + m);
        assertTrue(containsNumber(m, low), () -> "message does not name the lower bound " + low + ": " + m);
        assertTrue(containsNumber(m, high), () -> "message does not name the upper bound " + high + ": " + m);
    }

    /** Whether {@code number} occurs in {@code text} as a whole number (not as part of a longer one). */
    private static boolean containsNumber(String text, String number) {
        return Pattern.compile("(?<![0-9-])" + Pattern.quote(number) + "(?![0-9])").matcher(text).find();
    }

    @Test
    void threadsZeroRejectedNamingValueAndRange() {
        var e = assertThrows(IllegalArgumentException.class, () -> ThreadPool.builder().threads(0));
        assertNamesValueAndRange(e, "0", "1", String.valueOf(ThreadPool.MAX_THREADS));
    }

    @Test
    void threadsNegativeRejectedNamingValueAndRange() {
        var e = assertThrows(IllegalArgumentException.class, () -> ThreadPool.builder().threads(-1));
        assertNamesValueAndRange(e, "-1", "1", String.valueOf(ThreadPool.MAX_THREADS));
    }

    @Test
    void threadsAboveMaxRejectedNamingValueAndRange() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> ThreadPool.builder().threads(ThreadPool.MAX_THREADS + 1));
        assertNamesValueAndRange(e, String.valueOf(ThreadPool.MAX_THREADS + 1), "1",
                String.valueOf(ThreadPool.MAX_THREADS));
    }

    @Test
    void threadsMinValueRejected() {
        var e = assertThrows(IllegalArgumentException.class, () -> ThreadPool.builder().threads(Integer.MIN_VALUE));
        assertNamesValueAndRange(e, String.valueOf(Integer.MIN_VALUE), "1", String.valueOf(ThreadPool.MAX_THREADS));
    }

    @Test
    void maxThreadsIsSixteenBits() {
        assertEquals(0xFFFF, ThreadPool.MAX_THREADS);
    }

    @Test
    void threadsAcceptsBothEndsOfRange() {
        ThreadPool.Builder b = ThreadPool.builder();
        assertSame(b, b.threads(1));
        assertSame(b, b.threads(ThreadPool.MAX_THREADS)); // not built: only the range check
    }

    @Test
    void stackSizeNegativeRejectedNamingValueAndRange() {
        var e = assertThrows(IllegalArgumentException.class, () -> ThreadPool.builder().stackSize(-1));
        assertNamesValueAndRange(e, "-1", "0", String.valueOf(Long.MAX_VALUE));
        var e2 = assertThrows(IllegalArgumentException.class, () -> ThreadPool.builder().stackSize(Long.MIN_VALUE));
        assertTrue(containsNumber(e2.getMessage(), String.valueOf(Long.MIN_VALUE)), e2.getMessage());
    }

    @Test
    void stackSizeZeroMeansPlatformDefault() {
        try (ThreadPool pool = ThreadPool.builder().threads(1).stackSize(0).build()) {
            assertEquals(3, pool.install(() -> 3));
        }
    }

    @Test
    void stackSizeIsGivenToWorkers() {
        // 1,000,000 frames overflow any default stack (tests run with -Xss4m) but fit easily in 1 GiB.
        try (ThreadPool pool = ThreadPool.builder().threads(1).stackSize(1L << 30).build()) {
            assertEquals(1_000_000, pool.install(() -> depth(1_000_000)));
        }
    }

    private static int depth(int n) {
        return n == 0 ? 0 : 1 + depth(n - 1);
    }

    @Test
    void nullThreadNameRejectedNamingArgument() {
        var e = assertThrows(NullPointerException.class, () -> ThreadPool.builder().threadName(null));
        assertTrue(e.getMessage() != null && e.getMessage().contains("name"), String.valueOf(e.getMessage()));
    }

    @Test
    void nullSleepStrategyRejectedNamingArgument() {
        var e = assertThrows(NullPointerException.class, () -> ThreadPool.builder().sleepStrategy(null));
        assertTrue(e.getMessage() != null && e.getMessage().contains("sleepStrategy"), String.valueOf(e.getMessage()));
    }

    @Test
    void nullUncaughtExceptionHandlerRejectedNamingArgument() {
        var e = assertThrows(NullPointerException.class, () -> ThreadPool.builder().uncaughtExceptionHandler(null));
        assertTrue(e.getMessage() != null && e.getMessage().contains("uncaughtExceptionHandler"),
                String.valueOf(e.getMessage()));
    }

    @Test
    void nullOnThreadStartRejectedNamingArgument() {
        var e = assertThrows(NullPointerException.class, () -> ThreadPool.builder().onThreadStart(null));
        assertTrue(e.getMessage() != null && e.getMessage().contains("onThreadStart"), String.valueOf(e.getMessage()));
    }

    @Test
    void nullOnThreadExitRejectedNamingArgument() {
        var e = assertThrows(NullPointerException.class, () -> ThreadPool.builder().onThreadExit(null));
        assertTrue(e.getMessage() != null && e.getMessage().contains("onThreadExit"), String.valueOf(e.getMessage()));
    }

    @Test
    void settersReturnTheSameBuilder() {
        ThreadPool.Builder b = ThreadPool.builder();
        assertSame(b, b.threadName(i -> "x" + i));
        assertSame(b, b.daemon(false));
        assertSame(b, b.stackSize(0));
        assertSame(b, b.sleepStrategy(SleepStrategy.JOBS_EVENT_COUNTER));
        assertSame(b, b.uncaughtExceptionHandler((t, e) -> { }));
        assertSame(b, b.onThreadStart(i -> { }));
        assertSame(b, b.onThreadExit(i -> { }));
    }

    @Test
    void defaultThreadCountIsAvailableProcessors() {
        try (ThreadPool pool = ThreadPool.builder().build()) {
            assertEquals(Runtime.getRuntime().availableProcessors(), pool.threadCount());
            assertEquals(pool.threadCount(), pool.broadcast(ctx -> ctx.threadCount()).size());
        }
    }

    @Test
    void defaultSleepStrategyIsJobsEventCounter() {
        try (ThreadPool pool = ThreadPool.builder().threads(1).build()) {
            assertEquals(SleepStrategy.JOBS_EVENT_COUNTER, pool.sleepStrategy());
        }
    }

    @Test
    void defaultWorkersAreDaemonThreads() {
        try (ThreadPool pool = ThreadPool.builder().threads(2).build()) {
            List<Boolean> daemon = pool.broadcast(ctx -> Thread.currentThread().isDaemon());
            assertEquals(List.of(true, true), daemon);
        }
    }

    @Test
    void defaultThreadNamesNameThePoolAndTheWorkerIndex() {
        try (ThreadPool first = ThreadPool.builder().threads(3).build();
             ThreadPool second = ThreadPool.builder().threads(2).build()) {
            List<String> firstNames = first.broadcast(ctx -> Thread.currentThread().getName());
            List<String> secondNames = second.broadcast(ctx -> Thread.currentThread().getName());
            String firstPool = firstNames.get(0).replaceFirst("-worker-0$", "");
            String secondPool = secondNames.get(0).replaceFirst("-worker-0$", "");
            assertTrue(firstPool.matches("spindle-\\d+"), firstNames.toString());
            assertTrue(secondPool.matches("spindle-\\d+"), secondNames.toString());
            // two pools' workers never share a name, so a thread dump tells them apart (both were spindle-worker-0 once)
            assertNotEquals(firstPool, secondPool);
            assertEquals(List.of(firstPool + "-worker-0", firstPool + "-worker-1", firstPool + "-worker-2"), firstNames);
            assertEquals(List.of(secondPool + "-worker-0", secondPool + "-worker-1"), secondNames);
        }
    }

    @Test
    void daemonFalseGivesNonDaemonWorkers() {
        try (ThreadPool pool = ThreadPool.builder().threads(2).daemon(false).build()) {
            assertEquals(List.of(false, false), pool.broadcast(ctx -> Thread.currentThread().isDaemon()));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void builtPoolHasRequestedThreadsAndStrategy(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            assertEquals(c.threads(), pool.threadCount());
            assertEquals(c.strategy(), pool.sleepStrategy());
            assertFalse(pool.isShutdown());
            assertFalse(pool.isTerminated());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void oneBuilderBuildsIndependentPools(TestPools.Config c) {
        ThreadPool.Builder b = c.builder();
        try (ThreadPool p1 = b.build(); ThreadPool p2 = b.build()) {
            p1.close();
            assertTrue(p1.isTerminated());
            assertFalse(p2.isShutdown());
            assertEquals(5, p2.install(() -> 5));
        }
    }
}
