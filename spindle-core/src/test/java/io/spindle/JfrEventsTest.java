package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import io.spindle.internal.event.WakeReason;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Spindle's JFR events, recorded in-process and read back: each event type appears for every sleep strategy, its
 * fields are in range, and the counts add up to the pool's own counters ({@link PoolStats}). No timing assertions.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JfrEventsTest {
    private static final String SLEEP = "io.spindle.WorkerSleep";
    private static final String WOKEN = "io.spindle.WorkerWoken";
    private static final String STEALS = "io.spindle.StealBatch";
    private static final String INJECTION = "io.spindle.Injection";
    private static final int THREADS = 3;
    private static final String THREAD_PREFIX = "jfr-test-";

    /** The reasons each protocol can give, and those that name a worker of the pool as the waker. */
    private static final Map<SleepStrategy, Set<WakeReason>> REASONS = Map.of(
            SleepStrategy.JOBS_EVENT_COUNTER, EnumSet.of(WakeReason.NEW_INTERNAL_JOB, WakeReason.NEW_INJECTED_JOB,
                    WakeReason.CASCADE, WakeReason.BROADCAST, WakeReason.LATCH_SET),
            SleepStrategy.SLEEPY_WORKER, EnumSet.of(WakeReason.NEW_INTERNAL_JOB, WakeReason.NEW_INJECTED_JOB,
                    WakeReason.BROADCAST, WakeReason.LATCH_SET, WakeReason.TERMINATE),
            SleepStrategy.HINT_PIPE, EnumSet.of(WakeReason.HINT_PIPE_DEQUE, WakeReason.HINT_PIPE_INJECTOR,
                    WakeReason.BROADCAST, WakeReason.LATCH_SET));
    private static final Set<WakeReason> WAKER_IS_A_WORKER = EnumSet.of(WakeReason.NEW_INTERNAL_JOB,
            WakeReason.CASCADE, WakeReason.HINT_PIPE_DEQUE);
    private static final Set<WakeReason> WAKER_IS_OUTSIDE = EnumSet.of(WakeReason.NEW_INJECTED_JOB,
            WakeReason.HINT_PIPE_INJECTOR);

    @ParameterizedTest
    @EnumSource(SleepStrategy.class)
    void everyEventIsRecordedAndAddsUpToThePoolsCounters(SleepStrategy strategy) throws Exception {
        Path file = Files.createTempFile("spindle-events-", ".jfr");
        String poolName;
        PoolStats stats;
        Thread submitter = Thread.currentThread();
        try (Recording recording = new Recording()) {
            for (String type : List.of(SLEEP, WOKEN, STEALS, INJECTION)) {
                recording.enable(type).withoutThreshold();
            }
            recording.start();
            ThreadPool pool = ThreadPool.builder().sleepStrategy(strategy).threads(THREADS)
                    .threadName(i -> THREAD_PREFIX + i).build();
            try {
                poolName = ShutdownTest.poolName(pool);
                makeWorkersSleepWakeAndSteal(pool);
            } finally {
                pool.close();
            }
            stats = pool.stats(); // final: every worker has exited, so every sleep has ended and been committed
            recording.stop();
            recording.dump(file);
        }
        List<RecordedEvent> ours;
        try {
            ours = RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().startsWith("io.spindle.")
                            && poolName.equals(e.getString("pool")))
                    .collect(Collectors.toList());
        } finally {
            Files.deleteIfExists(file);
        }
        Map<String, List<RecordedEvent>> byType = ours.stream()
                .collect(Collectors.groupingBy(e -> e.getEventType().getName()));
        String context = strategy + " " + stats;

        List<RecordedEvent> sleeps = byType.getOrDefault(SLEEP, List.of());
        assertEquals(stats.sleeps(), sleeps.size(), "one WorkerSleep per counted sleep: " + context);
        for (RecordedEvent e : sleeps) {
            int worker = e.getInt("worker");
            assertTrue(worker >= 0 && worker < THREADS, e.toString());
            assertEquals(strategy.name(), e.getString("strategy"), e.toString());
            assertEquals(THREAD_PREFIX + worker, threadName(e.getThread()), "committed by the sleeper: " + e);
            assertFalse(e.getDuration().isNegative(), e.toString());
        }

        List<RecordedEvent> woken = byType.getOrDefault(WOKEN, List.of());
        assertEquals(stats.wakeups(), woken.size(), "one WorkerWoken per counted wake-up: " + context);
        for (RecordedEvent e : woken) {
            int worker = e.getInt("worker");
            assertTrue(worker >= 0 && worker < THREADS, e.toString());
            assertEquals(THREAD_PREFIX + worker, threadName(e.getThread()), "committed by the woken worker: " + e);
            assertNotNull(e.getString("reason"), e.toString());
            WakeReason reason = WakeReason.valueOf(e.getString("reason"));
            assertTrue(REASONS.get(strategy).contains(reason), strategy + " cannot wake for " + reason + ": " + e);
            int waker = e.getInt("waker");
            assertTrue(waker >= -1 && waker < THREADS, e.toString());
            if (WAKER_IS_A_WORKER.contains(reason)) {
                assertTrue(waker >= 0, "a worker posted it: " + e);
            }
            if (WAKER_IS_OUTSIDE.contains(reason)) {
                assertEquals(-1, waker, "posted from outside: " + e);
            }
            RecordedThread wakerThread = e.getValue("wakerThread");
            if (waker >= 0 && wakerThread != null) {
                assertEquals(THREAD_PREFIX + waker, threadName(wakerThread), "index and thread agree: " + e);
            }
        }

        List<RecordedEvent> batches = byType.getOrDefault(STEALS, List.of());
        long stolen = 0;
        for (RecordedEvent e : batches) {
            int worker = e.getInt("worker");
            assertTrue(worker >= 0 && worker < THREADS, e.toString());
            assertEquals(THREAD_PREFIX + worker, threadName(e.getThread()), "committed by the thief: " + e);
            long n = e.getLong("steals");
            assertTrue(n >= 1, e.toString());
            stolen += n;
            String[] victims = e.getString("victims").split(",");
            assertEquals(e.getInt("distinctVictims"), victims.length, e.toString());
            for (String v : victims) {
                int victim = Integer.parseInt(v);
                assertTrue(victim >= 0 && victim < THREADS && victim != worker, "victim " + victim + ": " + e);
            }
            assertTrue(Set.of("idle", "limit").contains(e.getString("endedBy")), e.toString());
        }
        assertEquals(stats.steals(), stolen, "the batches add up to every steal: " + context);

        List<RecordedEvent> injections = byType.getOrDefault(INJECTION, List.of());
        long injectedJobs = 0;
        for (RecordedEvent e : injections) {
            assertEquals(submitter.getName(), threadName(e.getThread()), "committed by the submitter: " + e);
            String kind = e.getString("kind");
            assertTrue(Set.of("install", "spawn", "broadcast").contains(kind), e.toString());
            assertEquals(kind.equals("broadcast") ? THREADS : 1, e.getInt("jobs"), e.toString());
            injectedJobs += e.getInt("jobs");
        }
        assertEquals(stats.injected(), injectedJobs, "the injections add up to the injected count: " + context);
        assertEquals(Set.of("install", "spawn", "broadcast"),
                injections.stream().map(e -> e.getString("kind")).collect(Collectors.toSet()), context);

        // The workload guarantees at least one of each (it waits for the counters).
        for (String type : List.of(SLEEP, WOKEN, STEALS, INJECTION)) {
            assertFalse(byType.getOrDefault(type, List.of()).isEmpty(), "no " + type + " event: " + context);
        }
    }

    /** Until the counters show sleeps, wake-ups and steals: sleep, then post from outside and from inside. */
    private static void makeWorkersSleepWakeAndSteal(ThreadPool pool) throws InterruptedException {
        pollUntil(pool, s -> s.sleeps() > 0, "a worker sleeps");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            long sleeps = pool.stats().sleeps();
            assertEquals(6765L, pool.install(() -> JoinTest.fib(20))); // steals, internal pushes, latches
            assertEquals(List.of(0, 1, 2), pool.broadcast(BroadcastContext::index));
            CountDownLatch spawned = new CountDownLatch(10);
            for (int i = 0; i < 10; i++) {
                pool.spawn(spawned::countDown);
            }
            assertTrue(spawned.await(30, TimeUnit.SECONDS), "spawns ran");
            PoolStats s = pool.stats();
            if (s.wakeups() > 0 && s.steals() > 0) {
                return;
            }
            if (System.nanoTime() > deadline) {
                fail("never saw a wake-up and a steal: " + s);
            }
            pollUntil(pool, x -> x.sleeps() > sleeps, "a worker sleeps again, so that the next posts wake it");
        }
    }

    private static void pollUntil(ThreadPool pool, Predicate<PoolStats> condition, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.test(pool.stats())) {
            if (System.nanoTime() > deadline) {
                fail("stats never showed " + what + ": " + pool.stats());
            }
            Thread.sleep(2);
        }
    }

    private static String threadName(RecordedThread t) {
        assertNotNull(t, "event without a thread");
        return t.getJavaName();
    }
}
