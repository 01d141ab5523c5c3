package io.spindle.bench.workload;

import io.spindle.bench.Metric;
import io.spindle.bench.PoolKind;
import io.spindle.bench.Target;
import io.spindle.bench.Value;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * idle: a burst of work (naive fib with joins, every worker busy), then nothing: how much CPU the workers burn in the
 * window after the burst ended, spinning or searching before they sleep and while they sleep.
 */
final class Idle implements Workload {
    private static final int BURST_FIB = 25;
    private final int windowMillis;

    Idle(int windowMillis) {
        this.windowMillis = windowMillis;
    }

    @Override
    public String name() {
        return "idle";
    }

    @Override
    public String description() {
        return String.format("worker CPU in the %.1f s after a burst (naive fib(%d)) ends", windowMillis / 1000.0,
                BURST_FIB);
    }

    @Override
    public List<Metric> metrics(PoolKind kind) {
        return List.of(Metric.IDLE_CPU_MS);
    }

    @Override
    public List<Value> run(Target t, boolean warmup) {
        long result = t.kind().isSpindle()
                ? t.spindle().install(() -> FibNaive.spindle(BURST_FIB))
                : t.fjp().invoke(new FibNaive.Task(BURST_FIB));
        ComputeWorkload.expect("fib(" + BURST_FIB + ")", result, FibNaive.value(BURST_FIB));
        long cpu0 = t.workerCpuNanos();
        long window = TimeUnit.MILLISECONDS.toNanos(warmup ? Math.min(windowMillis, 100) : windowMillis);
        Pace.parkUntil(System.nanoTime() + window);
        return List.of(new Value(Metric.IDLE_CPU_MS, t.threads(), (t.workerCpuNanos() - cpu0) / 1e6));
    }
}
