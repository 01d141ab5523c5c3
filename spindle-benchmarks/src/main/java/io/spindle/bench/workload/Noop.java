package io.spindle.bench.workload;

import io.spindle.bench.Metric;
import io.spindle.bench.PoolKind;
import io.spindle.bench.Target;
import io.spindle.bench.Value;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * noop-1ms and noop-10ms: an empty task every 1 / 10 ms from outside (rayon issue 642: an almost idle pool should
 * cost almost nothing). Reports the workers' CPU as a percentage of one core over the window, at {@code --threads}
 * and at each {@code --light-threads} size, since every idle worker of a pool can add to that cost.
 */
final class Noop implements Workload {
    private final int periodMillis;
    private final int windowMillis;

    Noop(int periodMillis, int windowMillis) {
        this.periodMillis = periodMillis;
        this.windowMillis = windowMillis;
    }

    @Override
    public String name() {
        return "noop-" + periodMillis + "ms";
    }

    @Override
    public String description() {
        return String.format("an empty task every %d ms from an outside thread for %.1f s", periodMillis,
                windowMillis / 1000.0);
    }

    @Override
    public List<Metric> metrics(PoolKind kind) {
        return List.of(Metric.CPU_PERCENT);
    }

    @Override
    public List<Metric> lightThreadsMetrics(PoolKind kind) {
        return metrics(kind);
    }

    @Override
    public List<Value> run(Target t, boolean warmup) {
        long window = TimeUnit.MILLISECONDS.toNanos(warmup ? Math.min(windowMillis, 200) : windowMillis);
        PeriodicLoad.Outcome o = PeriodicLoad.run(t, TimeUnit.MILLISECONDS.toNanos(periodMillis), window, 0);
        return List.of(new Value(Metric.CPU_PERCENT, t.threads(), 100.0 * o.cpuNanos() / o.wallNanos()));
    }
}
