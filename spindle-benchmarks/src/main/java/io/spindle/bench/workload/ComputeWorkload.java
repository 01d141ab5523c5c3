package io.spindle.bench.workload;

import io.spindle.ThreadPool;
import io.spindle.bench.Metric;
import io.spindle.bench.PoolKind;
import io.spindle.bench.Target;
import io.spindle.bench.Value;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;

/**
 * A workload that is one computation: time_ms is its wall time (per repetition), and ns_per_join is added when it
 * counts its joins. Subclasses give the three versions and check the result. A join workload (the default) is
 * measured at the {@code --join-threads} sizes too.
 */
abstract class ComputeWorkload implements Workload {
    private final String name;

    ComputeWorkload(String name) {
        this.name = name;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public boolean supports(PoolKind kind) {
        return true; // every computation has a sequential version
    }

    @Override
    public List<Metric> metrics(PoolKind kind) {
        return joins() > 0 ? List.of(Metric.TIME_MS, Metric.NS_PER_JOIN) : List.of(Metric.TIME_MS);
    }

    /** All of a join workload's metrics, at every {@code --join-threads} size: the pool's size is all that changes. */
    @Override
    public List<Metric> joinThreadsMetrics(PoolKind kind) {
        return isJoinWorkload() ? metrics(kind) : List.of();
    }

    /**
     * @return whether this computation is made of {@code Spindle.join}s (and FJP forks) written by hand, and so gets
     *         rows at the {@code --join-threads} sizes: true but for the par-* workloads, which compare data-parallel
     *         APIs, and tiny-install, a round trip into the pool
     */
    boolean isJoinWorkload() {
        return true;
    }

    /** The Spindle version: runs on {@code pool} (through {@code install}) and returns the result. */
    abstract long onSpindle(ThreadPool pool);

    /** The ForkJoinPool version: RecursiveTask / RecursiveAction invoked on {@code pool}. */
    abstract long onFjp(ForkJoinPool pool);

    /** The same algorithm without any parallelism, on the calling thread. */
    abstract long onSequential();

    /** Throws {@link IllegalStateException} if {@code result} (or the data it worked on) is wrong. */
    abstract void verify(long result);

    /** Untimed preparation before each run (a fresh copy of the unsorted input, a zeroed result matrix). */
    void beforeRun() {}

    /** @return joins one repetition makes, or 0 if ns_per_join is not reported for this workload */
    long joins() {
        return 0;
    }

    /** @return computations per run; time_ms is the time of one */
    int repetitions() {
        return 1;
    }

    @Override
    public final List<Value> run(Target t, boolean warmup) {
        beforeRun();
        long start = System.nanoTime();
        long result = switch (t.kind()) {
            case FJP -> onFjp(t.fjp());
            case SEQUENTIAL -> onSequential();
            default -> onSpindle(t.spindle());
        };
        double nanos = (System.nanoTime() - start) / (double) repetitions();
        verify(result);
        List<Value> values = new ArrayList<>(2);
        values.add(new Value(Metric.TIME_MS, t.threads(), nanos / 1e6));
        if (joins() > 0) values.add(new Value(Metric.NS_PER_JOIN, t.threads(), nanos / joins()));
        return values;
    }

    static void expect(String what, long actual, long expected) {
        if (actual != expected) {
            throw new IllegalStateException("wrong result: " + what + " = " + actual + ", expected " + expected);
        }
    }
}
