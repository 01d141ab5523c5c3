package io.spindle.bench.workload;

import io.spindle.bench.Metric;
import io.spindle.bench.PoolKind;
import io.spindle.bench.Stats;
import io.spindle.bench.Target;
import io.spindle.bench.Value;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * sparse: a 20 µs task every 1 ms from an outside thread. Reports the workers' CPU per unit of useful work, the
 * submit-to-start latency, and (Spindle only) how many sleeping workers each job woke: that last one on a second
 * pool of {@link #WAKE_POOL_THREADS} workers, where waking too many is visible, whatever --threads is. The first
 * three are measured at each {@code --light-threads} size too; the wake-up count is not, as it has its own pool.
 */
final class Sparse implements Workload {
    static final int WAKE_POOL_THREADS = 8;
    private static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long TASK_NANOS = TimeUnit.MICROSECONDS.toNanos(20);

    private final int windowMillis;
    private final int wakeWindowMillis;

    Sparse(int windowMillis, int wakeWindowMillis) {
        this.windowMillis = windowMillis;
        this.wakeWindowMillis = wakeWindowMillis;
    }

    @Override
    public String name() {
        return "sparse";
    }

    @Override
    public String description() {
        return String.format("a 20 µs task every 1 ms from an outside thread for %.1f s (threads_woken_per_job: "
                + "the same load for %.1f s on a pool of %d workers)", windowMillis / 1000.0,
                wakeWindowMillis / 1000.0, WAKE_POOL_THREADS);
    }

    @Override
    public List<Metric> metrics(PoolKind kind) {
        List<Metric> m = new ArrayList<>(List.of(Metric.CPU_PER_USEFUL, Metric.LATENCY_P50_US, Metric.LATENCY_P99_US));
        if (kind.isSpindle()) m.add(Metric.THREADS_WOKEN_PER_JOB); // FJP counts no wake-ups: n/a
        return m;
    }

    @Override
    public List<Metric> lightThreadsMetrics(PoolKind kind) {
        return List.of(Metric.CPU_PER_USEFUL, Metric.LATENCY_P50_US, Metric.LATENCY_P99_US);
    }

    @Override
    public List<Value> run(Target t, boolean warmup) {
        List<Value> values = new ArrayList<>(load(t, warmup));
        if (t.kind().isSpindle() && !warmup) {
            double woken = wokenPerJob(t, TimeUnit.MILLISECONDS.toNanos(wakeWindowMillis));
            values.add(new Value(Metric.THREADS_WOKEN_PER_JOB, WAKE_POOL_THREADS, woken));
        }
        return values;
    }

    @Override
    public List<Value> runAtLightThreads(Target t, boolean warmup) {
        return load(t, warmup);
    }

    /** The sparse load on {@code t} itself: its CPU per unit of useful work and its latencies. */
    private List<Value> load(Target t, boolean warmup) {
        long window = TimeUnit.MILLISECONDS.toNanos(warmup ? Math.min(windowMillis, 200) : windowMillis);
        PeriodicLoad.Outcome o = PeriodicLoad.run(t, PERIOD_NANOS, window, TASK_NANOS);
        return List.of(
                new Value(Metric.CPU_PER_USEFUL, t.threads(), o.cpuNanos() / (double) (o.tasks() * TASK_NANOS)),
                new Value(Metric.LATENCY_P50_US, t.threads(), Stats.percentile(o.latencies(), 50) / 1e3),
                new Value(Metric.LATENCY_P99_US, t.threads(), Stats.percentile(o.latencies(), 99) / 1e3));
    }

    /** The load on a pool like {@code t} (same kind and heartbeat) of {@link #WAKE_POOL_THREADS} workers. */
    private static double wokenPerJob(Target t, long window) {
        try (Target wide = t.sibling(WAKE_POOL_THREADS)) {
            long before = wide.spindle().stats().wakeups();
            PeriodicLoad.Outcome o = PeriodicLoad.run(wide, PERIOD_NANOS, window, TASK_NANOS);
            return (wide.spindle().stats().wakeups() - before) / (double) o.tasks();
        }
    }
}
