package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.stream.Stream;

import io.spindle.internal.registry.StartSeam;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** A failed {@code build()} releases what it acquired and hands the failure to its caller unchanged (issue 11 §4). */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BuildFailureTest {
    private static final Path FDS = Path.of("/proc/self/fd");
    /** Descriptors the JVM may open meanwhile for its own reasons (jars, class data); a leak is 2+ per build. */
    private static final int FD_SLACK = 20;
    private static final int BUILDS = 200;
    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    private static String uniquePrefix() {
        return "build-failure-" + POOL_IDS.incrementAndGet() + "-";
    }

    static long openDescriptors() {
        try (Stream<Path> fds = Files.list(FDS)) {
            return fds.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A threadName that fails for worker 1: it throws, or returns null. */
    private static IntFunction<String> failingNames(String how, String prefix) {
        return i -> {
            if (i == 1) {
                if (how.equals("throws")) {
                    throw new IllegalStateException("no name for worker 1");
                }
                return null;
            }
            return prefix + i;
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"throws", "null"})
    void failedBuildsDoNotLeakDescriptors(String how) {
        assumeTrue(Files.isDirectory(FDS), "needs /proc/self/fd (Linux)");
        ThreadPool.Builder b = ThreadPool.builder().threads(3).sleepStrategy(SleepStrategy.HINT_PIPE)
                .threadName(failingNames(how, uniquePrefix()));
        for (int i = 0; i < 5; i++) { // warm-up: classes and jars the failure path loads
            assertThrows(RuntimeException.class, b::build);
        }
        long before = openDescriptors();
        for (int i = 0; i < BUILDS; i++) {
            assertThrows(RuntimeException.class, b::build);
        }
        long after = openDescriptors();
        System.out.println("BuildFailureTest: threadName " + how + ", " + BUILDS + " failed HINT_PIPE builds: "
                + before + " -> " + after + " open descriptors");
        assertTrue(after - before <= FD_SLACK, "open descriptors grew from " + before + " to " + after + " over "
                + BUILDS + " failed builds: the hint pipe and selector leak");
    }

    @ParameterizedTest
    @EnumSource(SleepStrategy.class)
    void aThrowingThreadNameReachesTheCallerUnchanged(SleepStrategy s) {
        RuntimeException failure = new IllegalStateException("no name for worker 2");
        ThreadPool.Builder b = ThreadPool.builder().threads(3).sleepStrategy(s).threadName(i -> {
            if (i == 2) {
                throw failure;
            }
            return "unused-" + i;
        });
        assertSame(failure, assertThrows(IllegalStateException.class, b::build));
        assertEquals(0, failure.getSuppressed().length, "the clean-up added a failure of its own");
    }

    @ParameterizedTest
    @EnumSource(SleepStrategy.class)
    void aNullThreadNameIsANullPointerExceptionNamingTheWorker(SleepStrategy s) {
        ThreadPool.Builder b = ThreadPool.builder().threads(3).sleepStrategy(s)
                .threadName(failingNames("null", "unused-"));
        NullPointerException e = assertThrows(NullPointerException.class, b::build);
        assertTrue(e.getMessage() != null && e.getMessage().contains("worker 1"), "message: " + e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(SleepStrategy.class)
    void aPoolBuiltAfterFailedBuildsWorks(SleepStrategy s) {
        ThreadPool.Builder bad = ThreadPool.builder().threads(2).sleepStrategy(s)
                .threadName(failingNames("throws", uniquePrefix()));
        for (int i = 0; i < 10; i++) {
            assertThrows(IllegalStateException.class, bad::build);
        }
        try (ThreadPool pool = ThreadPool.builder().threads(2).sleepStrategy(s).build()) {
            assertEquals(42, pool.install(() -> 42));
            assertFalse(pool.isShutdown());
        }
    }

    // --- Thread.start failing part-way ------------------------------------------------------------------------------

    private static final int THREADS = 4;
    /** Generous: the started workers only have to notice their terminate latch and run their exit hooks. */
    private static final long EXIT_DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** Strategy, the worker whose start fails, and whether the workers before it are left to fall asleep first. */
    static Stream<Arguments> startFailures() {
        List<Arguments> out = new ArrayList<>();
        for (SleepStrategy s : SleepStrategy.values()) {
            out.add(Arguments.of(s, 0, false));
            for (int failing : new int[] {1, THREADS - 1}) {
                out.add(Arguments.of(s, failing, false));
                out.add(Arguments.of(s, failing, true));
            }
        }
        return out.stream();
    }

    private static Set<Integer> range(int n) {
        Set<Integer> s = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            s.add(i);
        }
        return s;
    }

    /** Live threads whose name starts with {@code prefix}. */
    private static List<Thread> liveThreadsNamed(String prefix) {
        List<Thread> out = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(prefix) && t.isAlive()) {
                out.add(t);
            }
        }
        return out;
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @ParameterizedTest(name = "{0}, start of worker {1} fails, others asleep first: {2}")
    @MethodSource("startFailures")
    void aWorkerThatCannotStartEndsTheOthersAndTheFailureReachesTheCaller(SleepStrategy s, int failing,
            boolean settleFirst) throws Exception {
        String prefix = uniquePrefix();
        OutOfMemoryError failure = new OutOfMemoryError("unable to create native thread (injected)");
        Map<Integer, Thread> started = new ConcurrentHashMap<>();
        Map<Integer, Thread> exited = new ConcurrentHashMap<>();
        AtomicInteger exitCalls = new AtomicInteger();
        ThreadPool.Builder b = ThreadPool.builder().threads(THREADS).sleepStrategy(s).daemon(false)
                .threadName(i -> prefix + i)
                .onThreadStart(i -> started.put(i, Thread.currentThread()))
                .onThreadExit(i -> {
                    exitCalls.incrementAndGet();
                    exited.put(i, Thread.currentThread());
                });
        Runnable beforeFailing = () -> {
            if (settleFirst) {
                while (started.size() < failing) {
                    Thread.onSpinWait();
                }
                sleepQuietly(200); // long enough for every protocol to put its idle workers to sleep
            }
        };
        try (AutoCloseable seam = StartSeam.failStartOf(prefix + failing, failure, beforeFailing)) {
            assertSame(failure, assertThrows(OutOfMemoryError.class, b::build), "build() changed the failure");
        }
        assertEquals(0, failure.getSuppressed().length, "the clean-up failed: " + List.of(failure.getSuppressed()));

        long deadline = System.nanoTime() + EXIT_DEADLINE_NANOS;
        while ((exited.size() < failing || !liveThreadsNamed(prefix).isEmpty()) && System.nanoTime() < deadline) {
            sleepQuietly(5);
        }
        assertEquals(List.of(), liveThreadsNamed(prefix), "workers still alive 10 s after the failed build");
        assertEquals(range(failing), new TreeSet<>(started.keySet()), "start hooks: only the started workers");
        assertEquals(range(failing), new TreeSet<>(exited.keySet()), "exit hooks: every started worker, no other");
        assertEquals(failing, exitCalls.get(), "an exit hook ran more than once");
        for (Map.Entry<Integer, Thread> e : exited.entrySet()) {
            assertSame(started.get(e.getKey()), e.getValue(), "exit hook of " + e.getKey() + " ran on another thread");
            assertFalse(e.getValue().isAlive());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, THREADS - 1})
    void aHintPipePoolWhoseWorkerCannotStartClosesItsPipe(int failing) throws Exception {
        assumeTrue(Files.isDirectory(FDS), "needs /proc/self/fd (Linux)");
        String prefix = uniquePrefix();
        ThreadPool.Builder b = ThreadPool.builder().threads(THREADS).sleepStrategy(SleepStrategy.HINT_PIPE)
                .threadName(i -> prefix + i);
        int builds = 50;
        RuntimeException failure = new IllegalStateException("injected start failure");
        long before;
        try (AutoCloseable seam = StartSeam.failStartOf(prefix + failing, failure)) {
            assertThrows(IllegalStateException.class, b::build); // warm-up
            before = openDescriptors();
            for (int i = 0; i < builds; i++) {
                assertThrows(IllegalStateException.class, b::build);
            }
        }
        long deadline = System.nanoTime() + EXIT_DEADLINE_NANOS;
        while (!liveThreadsNamed(prefix).isEmpty() && System.nanoTime() < deadline) {
            sleepQuietly(5);
        }
        assertEquals(List.of(), liveThreadsNamed(prefix), "workers still alive 10 s after the failed builds");
        // The last worker out closes the protocol before it ends; with none started, build() closed it.
        long after = openDescriptors();
        System.out.println("BuildFailureTest: start of worker " + failing + " fails, " + builds
                + " HINT_PIPE builds: " + before + " -> " + after + " open descriptors");
        assertTrue(after - before <= FD_SLACK, "open descriptors grew from " + before + " to " + after + " over "
                + builds + " builds whose worker " + failing + " could not start");
    }
}
