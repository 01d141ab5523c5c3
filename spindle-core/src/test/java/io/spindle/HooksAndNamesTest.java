package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** threadName, onThreadStart, onThreadExit (docs/DESIGN.md §1.11). */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HooksAndNamesTest {
    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    private static String uniquePrefix() {
        return "hooks-" + POOL_IDS.incrementAndGet() + "-";
    }

    private static Set<Integer> range(int n) {
        Set<Integer> s = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            s.add(i);
        }
        return s;
    }

    /** Where and with what a hook ran. */
    record Call(int index, Thread thread) {}

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void threadNameGetsEachZeroBasedIndexOnce(TestPools.Config c) {
        String prefix = uniquePrefix();
        List<Integer> asked = new CopyOnWriteArrayList<>();
        try (ThreadPool pool = c.builder().threadName(i -> {
            asked.add(i);
            return prefix + i;
        }).build()) {
            List<String> names = pool.broadcast(ctx -> Thread.currentThread().getName());
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < c.threads(); i++) {
                expected.add(prefix + i);
            }
            assertEquals(expected, names, "worker i is not named threadName(i)");
            assertEquals(range(c.threads()), new TreeSet<>(asked));
            assertEquals(c.threads(), asked.size(), "threadName called more than once per worker");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void onThreadStartRunsOnEachWorkerWithItsIndexBeforeAnyWork(TestPools.Config c) {
        String prefix = uniquePrefix();
        Map<Integer, Call> starts = new ConcurrentHashMap<>();
        AtomicInteger calls = new AtomicInteger();
        try (ThreadPool pool = c.builder().threadName(i -> prefix + i).onThreadStart(i -> {
            calls.incrementAndGet();
            starts.put(i, new Call(i, Thread.currentThread()));
        }).build()) {
            // every copy checks that its worker's start hook already ran, on this very thread
            List<Boolean> hookRanFirst = pool.broadcast(ctx -> {
                Call call = starts.get(ctx.index());
                return call != null && call.thread() == Thread.currentThread();
            });
            assertFalse(hookRanFirst.contains(false), "a worker took work before its start hook ran on it");
            assertEquals(range(c.threads()), new TreeSet<>(starts.keySet()));
            assertEquals(c.threads(), calls.get(), "onThreadStart ran more than once per worker");
            for (Call call : starts.values()) {
                assertEquals(prefix + call.index(), call.thread().getName(), "hook for index " + call.index()
                        + " ran on another thread");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void onThreadStartSeesTheWorkersIndex(TestPools.Config c) {
        Map<Integer, Integer> seen = new ConcurrentHashMap<>();
        try (ThreadPool pool = c.builder().onThreadStart(i -> seen.put(i, Spindle.currentThreadIndex().orElse(-1)))
                .build()) {
            pool.broadcast(ctx -> null);
            for (Map.Entry<Integer, Integer> e : seen.entrySet()) {
                assertEquals(e.getKey(), e.getValue(), "in onThreadStart, currentThreadIndex differs from the index");
            }
            assertEquals(c.threads(), seen.size());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void onThreadExitRunsOnEachWorkerWithItsIndexAfterItsLastWork(TestPools.Config c) {
        String prefix = uniquePrefix();
        Map<Integer, Call> exits = new ConcurrentHashMap<>();
        Map<Integer, Thread> workers = new ConcurrentHashMap<>();
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger workAfterExit = new AtomicInteger();
        ThreadPool pool = c.builder().threadName(i -> prefix + i).onThreadExit(i -> {
            calls.incrementAndGet();
            exits.put(i, new Call(i, Thread.currentThread()));
        }).build();
        pool.broadcast(ctx -> workers.put(ctx.index(), Thread.currentThread()));
        for (int i = 0; i < 50; i++) {
            pool.spawn(() -> {
                if (exits.containsKey(Spindle.currentThreadIndex().orElse(-1))) {
                    workAfterExit.incrementAndGet();
                }
            });
        }
        pool.close();
        assertEquals(range(c.threads()), new TreeSet<>(exits.keySet()));
        assertEquals(c.threads(), calls.get(), "onThreadExit ran more than once per worker");
        for (Call call : exits.values()) {
            assertSame(workers.get(call.index()), call.thread(), "exit hook for index " + call.index()
                    + " ran on another thread");
        }
        assertEquals(0, workAfterExit.get(), "a worker ran work after its exit hook");
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void startHookRunsBeforeExitHookOnTheSameThread(TestPools.Config c) {
        List<String> events = new CopyOnWriteArrayList<>();
        try (ThreadPool pool = c.builder()
                .onThreadStart(i -> events.add("start " + i + " " + Thread.currentThread().getId()))
                .onThreadExit(i -> events.add("exit " + i + " " + Thread.currentThread().getId()))
                .build()) {
            pool.install(() -> 1);
        }
        assertEquals(2 * c.threads(), events.size(), String.valueOf(events));
        for (int i = 0; i < c.threads(); i++) {
            String start = null;
            String exit = null;
            int startAt = -1;
            int exitAt = -1;
            for (int k = 0; k < events.size(); k++) {
                String e = events.get(k);
                if (e.startsWith("start " + i + " ")) {
                    start = e;
                    startAt = k;
                } else if (e.startsWith("exit " + i + " ")) {
                    exit = e;
                    exitAt = k;
                }
            }
            assertNotNull(start, "no start hook for " + i);
            assertNotNull(exit, "no exit hook for " + i);
            assertTrue(startAt < exitAt, "exit hook before start hook for " + i);
            assertEquals(start.substring("start ".length()), exit.substring("exit ".length()),
                    "start and exit hooks of worker " + i + " ran on different threads");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void uncaughtExceptionHandlerGetsTheNamedWorkerThread(TestPools.Config c) throws Exception {
        String prefix = uniquePrefix();
        java.util.concurrent.LinkedBlockingQueue<Thread> got = new java.util.concurrent.LinkedBlockingQueue<>();
        try (ThreadPool pool = c.builder().threadName(i -> prefix + i)
                .uncaughtExceptionHandler((t, e) -> got.add(t)).build()) {
            pool.execute(() -> {
                throw new IllegalStateException();
            });
            Thread t = got.poll(30, java.util.concurrent.TimeUnit.SECONDS);
            assertNotNull(t, "handler not called");
            assertTrue(t.getName().startsWith(prefix), t.getName());
        }
    }
}
