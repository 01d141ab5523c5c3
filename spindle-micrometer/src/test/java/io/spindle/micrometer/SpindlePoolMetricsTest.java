package io.spindle.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spindle.PoolStats;
import io.spindle.Spindle;
import io.spindle.ThreadPool;

import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link SpindlePoolMetrics} on a {@link SimpleMeterRegistry}. No timing assertions: counters are polled. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SpindlePoolMetricsTest {

    /** Every counter the binder registers, with the {@link PoolStats} figure it publishes. */
    private static final Map<String, ToLongFunction<PoolStats>> COUNTERS = new TreeMap<>(Map.of(
            "executor.completed", PoolStats::jobsExecuted,
            "executor.steals", PoolStats::steals,
            "executor.injected", PoolStats::injected,
            "executor.promotions", PoolStats::promotions,
            "executor.sleeps", PoolStats::sleeps,
            "executor.wakeups", PoolStats::wakeups,
            "executor.io.polls", PoolStats::ioPolls,
            "executor.io.ready", PoolStats::ioReadyEvents,
            "executor.io.wakeups", PoolStats::ioWakeups,
            "executor.io.watchdog.polls", PoolStats::ioWatchdogPolls));

    private static final Set<String> GAUGES =
            Set.of("executor.queued", "executor.injector.queued", "executor.parallelism", "executor.pool.size");

    private static ThreadPool pool(int threads) {
        return ThreadPool.builder().threads(threads).build();
    }

    /** A binder that takes a fresh snapshot at every read, so that a read right after work sees it. */
    private static SpindlePoolMetrics uncached(ThreadPool pool) {
        return new SpindlePoolMetrics(pool, SpindlePoolMetrics.nameOf(pool), Tags.empty(), Duration.ZERO);
    }

    private static double counter(MeterRegistry registry, String name) {
        return registry.get(name).functionCounter().count();
    }

    private static double gauge(MeterRegistry registry, String name) {
        return registry.get(name).gauge().value();
    }

    /** Polls until {@code condition} holds; fails after 30 s, saying {@code what} it waited for. */
    private static void pollUntil(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("never saw " + what);
            }
            sleepMillis(2);
        }
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static void await(CountDownLatch latch) throws InterruptedException {
        assertTrue(latch.await(30, TimeUnit.SECONDS), "timed out waiting for a latch");
    }

    private static long fib(int n) {
        return n < 2 ? n : Spindle.join(() -> fib(n - 1), () -> fib(n - 2), Long::sum);
    }

    @Test
    void bindsEveryMeterWithItsTypeUnitAndTags() {
        try (ThreadPool pool = pool(2)) {
            MeterRegistry registry = new SimpleMeterRegistry();
            new SpindlePoolMetrics(pool, Tags.of("app", "x")).bindTo(registry);

            Set<String> names = registry.getMeters().stream().map(m -> m.getId().getName())
                    .collect(Collectors.toSet());
            Set<String> expected = new HashSet<>(COUNTERS.keySet());
            expected.addAll(GAUGES);
            assertEquals(expected, names);
            Tags tags = Tags.of("app", "x", "name", SpindlePoolMetrics.nameOf(pool));
            for (Meter m : registry.getMeters()) {
                String name = m.getId().getName();
                assertEquals(tags, Tags.of(m.getId().getTags()), name);
                if (COUNTERS.containsKey(name)) {
                    assertInstanceOf(FunctionCounter.class, m, name);
                } else {
                    assertInstanceOf(Gauge.class, m, name);
                }
                assertNotNull(m.getId().getBaseUnit(), name);
                assertNotNull(m.getId().getDescription(), name);
            }
            assertEquals("tasks", registry.get("executor.steals").meter().getId().getBaseUnit());
            assertEquals("threads", registry.get("executor.parallelism").meter().getId().getBaseUnit());
            assertEquals(2.0, gauge(registry, "executor.parallelism"));
            assertEquals(2.0, gauge(registry, "executor.pool.size"));
        }
    }

    @Test
    void nameTagIsThePoolsNameUnlessOneIsGiven() {
        try (ThreadPool a = pool(1); ThreadPool b = pool(1)) {
            String nameA = SpindlePoolMetrics.nameOf(a);
            String nameB = SpindlePoolMetrics.nameOf(b);
            // The name is read from toString (the pool has no accessor): this pins the format it is read from.
            assertTrue(nameA.matches("spindle-[0-9]+"), nameA);
            assertTrue(a.toString().startsWith("ThreadPool[name=" + nameA + ","), a.toString());
            assertNotEquals(nameA, nameB);

            MeterRegistry registry = new SimpleMeterRegistry();
            new SpindlePoolMetrics(a).bindTo(registry);
            new SpindlePoolMetrics(b, "render", Tags.of(Tag.of("app", "x"))).bindTo(registry);
            assertEquals(1.0, registry.get("executor.parallelism").tag("name", nameA).gauge().value());
            assertEquals(Tags.of("app", "x", "name", "render"),
                    Tags.of(registry.get("executor.steals").tag("name", "render").meter().getId().getTags()));
            assertEquals(2 * (COUNTERS.size() + GAUGES.size()), registry.getMeters().size());
        }
    }

    @Test
    void countersMoveWithWork() throws Exception {
        try (ThreadPool pool = pool(2)) {
            MeterRegistry registry = new SimpleMeterRegistry();
            uncached(pool).bindTo(registry);
            double completed = counter(registry, "executor.completed");
            double injected = counter(registry, "executor.injected");

            int n = 20;
            CountDownLatch done = new CountDownLatch(n);
            for (int i = 0; i < n; i++) {
                pool.spawn(done::countDown);
            }
            await(done);
            assertEquals(832040, pool.install(() -> fib(30)));

            // Each external spawn and the install is one injected job and one executed job; a job is counted
            // just after it ran, so the last ones may show a moment after the latch opened.
            pollUntil(() -> counter(registry, "executor.completed") >= completed + n + 1
                    && counter(registry, "executor.injected") >= injected + n + 1, "the jobs counted");
            // An idle worker blocks; waiting here is for the counters, not a measure of how long that takes.
            pollUntil(() -> counter(registry, "executor.sleeps") > 0, "a worker asleep after the work");
        }
    }

    @Test
    void gaugesReadTheCurrentQueue() throws Exception {
        try (ThreadPool pool = pool(1)) {
            MeterRegistry registry = new SimpleMeterRegistry();
            uncached(pool).bindTo(registry);
            assertEquals(0.0, gauge(registry, "executor.queued"));

            // The only worker waits in a job of its own, so jobs spawned from outside stay in the injector.
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            pool.spawn(() -> {
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            await(started);
            int k = 5;
            CountDownLatch done = new CountDownLatch(k);
            for (int i = 0; i < k; i++) {
                pool.spawn(done::countDown);
            }
            try {
                assertEquals(k, gauge(registry, "executor.injector.queued"));
                assertEquals(k, gauge(registry, "executor.queued"));
            } finally {
                release.countDown();
            }
            await(done);
            pollUntil(() -> gauge(registry, "executor.queued") == 0, "the queue drained");
            assertEquals(0.0, gauge(registry, "executor.injector.queued"));
        }
    }

    @Test
    void aClosedPoolScrapesItsFinalCounters() throws Exception {
        ThreadPool pool = pool(2);
        MeterRegistry registry = new SimpleMeterRegistry();
        new SpindlePoolMetrics(pool).bindTo(registry);
        assertEquals(832040, pool.install(() -> fib(30)));
        Pipe pipe = Pipe.open();
        try (Pipe.SourceChannel source = pipe.source(); Pipe.SinkChannel sink = pipe.sink()) {
            source.configureBlocking(false);
            ByteBuffer dst = ByteBuffer.allocate(8);
            var read = pool.io().read(source, dst);
            sink.write(ByteBuffer.wrap(new byte[] {42}));
            assertEquals(1, read.get(30, TimeUnit.SECONDS));
        }
        pool.close();

        // After termination nothing moves, so every meter equals the pool's final figures exactly.
        PoolStats last = pool.stats();
        assertTrue(last.jobsExecuted() > 0 && last.ioPolls() > 0 && last.ioReadyEvents() > 0, String.valueOf(last));
        for (Meter m : registry.getMeters()) {
            m.measure().forEach(measurement -> assertTrue(Double.isFinite(measurement.getValue()),
                    m.getId() + " measured " + measurement));
        }
        COUNTERS.forEach((name, figure) ->
                assertEquals((double) figure.applyAsLong(last), counter(registry, name), name + ": " + last));
        assertEquals(0.0, gauge(registry, "executor.queued"));
        assertEquals(0.0, gauge(registry, "executor.injector.queued"));
        assertEquals(2.0, gauge(registry, "executor.parallelism"));
        assertEquals(0.0, gauge(registry, "executor.pool.size"));
    }

    @Test
    void oneSnapshotServesTheReadsWithinItsWindow() {
        try (ThreadPool pool = pool(2)) {
            MeterRegistry registry = new SimpleMeterRegistry();
            new SpindlePoolMetrics(pool, "cached", Tags.empty(), Duration.ofHours(1)).bindTo(registry);
            double completed = counter(registry, "executor.completed");

            pool.install(() -> 1);
            pollUntil(() -> pool.stats().jobsExecuted() > completed, "the install counted by the pool");
            assertEquals(completed, counter(registry, "executor.completed"), "read from the first snapshot");
            assertEquals(0.0, counter(registry, "executor.injected"), "the first snapshot had no injected job yet");
        }
    }

    @Test
    void theRegistryDoesNotKeepThePoolAlive() {
        MeterRegistry registry = new SimpleMeterRegistry();
        WeakReference<ThreadPool> ref = bindAndClose(registry);
        double completed = counter(registry, "executor.completed");
        assertTrue(completed > 0, "the pool's counters were read before it went");

        // HotSpot's System.gc() runs a full collection unless -XX:+DisableExplicitGC, which these tests do not set;
        // a few rounds allow for a worker thread that is still being torn down after close() returned.
        for (int i = 0; i < 100 && ref.get() != null; i++) {
            System.gc();
            sleepMillis(10);
        }
        assertEquals(null, ref.get(), "a closed pool bound to a registry was never collected");
        assertTrue(Double.isNaN(gauge(registry, "executor.queued")), "a collected pool's gauges read NaN");
        assertEquals(completed, counter(registry, "executor.completed"), "its counters keep their last value");
    }

    /** Binds a pool, runs a job, closes it and returns only a weak reference to it. */
    private static WeakReference<ThreadPool> bindAndClose(MeterRegistry registry) {
        ThreadPool pool = pool(1);
        new SpindlePoolMetrics(pool).bindTo(registry);
        pool.install(() -> 1);
        pool.close();
        return new WeakReference<>(pool);
    }
}
