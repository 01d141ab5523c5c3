package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Idle workers block: after work ends, every worker goes to sleep ({@code stats().sleeps()} reaches the thread count)
 * and the workers' CPU time stays flat. A correctness property, not a benchmark: the CPU bound is very generous (a
 * single spinning or busy-polling worker burns about a whole second of CPU per second of window; the bound is a fifth
 * of that for all workers together).
 */
class IdleBlockingTest {
    /** Window over which idle CPU is measured after a burst (shorter windows elsewhere, with a proportional bound). */
    static final Duration WINDOW = Duration.ofMillis(1_000);
    /** Total CPU all workers together may use per second of window: one spinning worker alone would use ~1000 ms. */
    static final long MAX_IDLE_CPU_MS_PER_S = 200;
    /** How long the workers get to fall asleep after work ends. */
    static final Duration FALL_ASLEEP = Duration.ofSeconds(15);

    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    private static ThreadMXBean cpuClock() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(mx.isThreadCpuTimeSupported(), "thread CPU time not supported by this JVM");
        if (!mx.isThreadCpuTimeEnabled()) {
            try {
                mx.setThreadCpuTimeEnabled(true);
            } catch (UnsupportedOperationException | SecurityException e) {
                Assumptions.abort("thread CPU time cannot be enabled: " + e);
            }
        }
        return mx;
    }

    private static long cpuNanos(ThreadMXBean mx, Thread[] workers) {
        long total = 0;
        for (Thread t : workers) {
            long ns = mx.getThreadCpuTime(t.getId());
            if (ns > 0) {
                total += ns;
            }
        }
        return total;
    }

    static long fib(int k) {
        if (k < 2) {
            return k;
        }
        if (k < 12) {
            return fib(k - 1) + fib(k - 2);
        }
        Pair<Long, Long> r = Spindle.join(() -> fib(k - 1), () -> fib(k - 2));
        return r.first() + r.second();
    }

    static long fibSeq(int k) {
        return k < 2 ? k : fibSeq(k - 1) + fibSeq(k - 2);
    }

    /** Each idle scenario: build, find workers, do {@code work}, wait for sleep, measure. */
    private void checkIdle(TestPools.Config config, String what, Duration window,
                           java.util.function.Consumer<ThreadPool> work) {
        long maxCpuMs = MAX_IDLE_CPU_MS_PER_S * window.toMillis() / 1_000L;
        ThreadMXBean mx = cpuClock();
        int n = config.threads();
        String prefix = "idle" + POOL_IDS.incrementAndGet() + "-w";
        String[] phase = {"build"};
        ThreadPool built = config.builder().threadName(i -> prefix + i).build();
        Watchdog.Workers workers = new Watchdog.Workers(built, prefix, n);
        java.util.function.Supplier<String> ctx = () -> "config=" + config + " scenario=" + what + " phase="
                + phase[0] + " stats=" + built.stats() + " pool=" + built + " workers=[" + workers.describe() + "]";
        try (Watchdog.Guard g = Watchdog.guard(built, ctx)) {
            ThreadPool pool = g.pool();
            phase[0] = "find workers";
            Watchdog.awaitCondition(() -> workers.threads().length == n, Duration.ofSeconds(10), ctx);
            Thread[] ts = workers.threads();

            phase[0] = "work";
            long before = pool.stats().sleeps();
            Watchdog.run(Duration.ofSeconds(60), ctx, () -> work.accept(pool));

            // Every worker blocks: the sleeps counter reaches at least the thread count (each worker has blocked at
            // least once since the pool started; those that ran the work block again afterwards).
            phase[0] = "fall asleep";
            Watchdog.awaitCondition(() -> pool.stats().sleeps() >= n, FALL_ASLEEP,
                    () -> "stats().sleeps() never reached the thread count " + n + ": idle workers do not block; "
                            + ctx.get());
            // Then let them settle: all parked, or the stats count all of them blocked (a pipe reader shows as
            // RUNNABLE, so this is a wait, not an assertion; the CPU window below is the assertion).
            workers.settle(Duration.ofSeconds(3));
            // A little slack for a worker still finishing its last yield rounds.
            Watchdog.poll(() -> false, Duration.ofMillis(50));

            phase[0] = "measure";
            long cpu0 = cpuNanos(mx, ts);
            long sleeps0 = pool.stats().sleeps();
            long t0 = System.nanoTime();
            Watchdog.poll(() -> false, window);
            long wall = System.nanoTime() - t0;
            long cpu = cpuNanos(mx, ts) - cpu0;
            long sleeps1 = pool.stats().sleeps();
            long cpuMs = cpu / 1_000_000L;
            System.out.printf("[IdleBlockingTest] %s %s: sleeps %d->%d (before work %d), workers' CPU %d ms over %d "
                    + "ms idle%n", config, what, sleeps0, sleeps1, before, cpuMs, wall / 1_000_000L);
            assertTrue(cpuMs < maxCpuMs, "idle workers used " + cpuMs + " ms of CPU in a "
                    + wall / 1_000_000L + " ms window (bound " + maxCpuMs + " ms total): they do not block; "
                    + ctx.get() + "\n" + Watchdog.threadDump());
        }
    }

    /** A freshly built pool that never got work: its workers go to sleep and stay asleep. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.TestPools#configs")
    void freshPoolBlocks(TestPools.Config config) {
        checkIdle(config, "fresh", WINDOW.dividedBy(2), pool -> { });
    }

    /** After a burst of fork-join work (joins, scopes, spawns) ends, the workers block. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.TestPools#configs")
    void workersBlockAfterBurst(TestPools.Config config) {
        checkIdle(config, "burst", WINDOW, pool -> {
            long want = fibSeq(22);
            for (int r = 0; r < 3; r++) {
                assertEquals(want, (long) pool.install(() -> fib(22)));
                AtomicLong sum = new AtomicLong();
                pool.scope(s -> {
                    for (int i = 0; i < 200; i++) {
                        int v = i;
                        s.spawn(s2 -> s2.spawn(() -> sum.addAndGet(v)));
                    }
                });
                assertEquals(199L * 200 / 2, sum.get());
                CountDownLatch spawned = new CountDownLatch(100);
                for (int i = 0; i < 100; i++) {
                    pool.spawn(spawned::countDown);
                }
                Watchdog.await(spawned, Duration.ofSeconds(20), () -> "spawn burst of " + config);
                pool.broadcast(bc -> bc.index());
            }
        });
    }

    /**
     * After a trickle of sparse outside posts (each one waking somebody), the workers go back to sleep and stay asleep:
     * a wake-up must not leave a worker spinning.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.TestPools#configs")
    void workersBlockAfterSparsePosts(TestPools.Config config) {
        checkIdle(config, "sparse", WINDOW.dividedBy(2), pool -> {
            for (int i = 0; i < 50; i++) {
                CountDownLatch ran = new CountDownLatch(1);
                pool.spawn(ran::countDown);
                Watchdog.await(ran, Duration.ofSeconds(20), () -> "sparse post of " + config);
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
            }
        });
    }
}
