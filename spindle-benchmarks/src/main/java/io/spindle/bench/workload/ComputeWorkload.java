package io.spindle.bench.workload;

import io.spindle.ThreadPool;
import io.spindle.bench.Metric;
import io.spindle.bench.PoolKind;
import io.spindle.bench.Target;
import io.spindle.bench.ThreadAllocations;
import io.spindle.bench.Value;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;

/**
 * A workload that is one computation: time_ms is its wall time (per repetition), and ns_per_join is added when it
 * counts its joins, bytes_per_join where it asks for it, promotions on every Spindle pool. Subclasses give the three
 * versions and check the result. A join workload (the default) is measured at the {@code --join-threads} sizes too.
 *
 * <p>Measured as the code it stands for would run (issue 30): a recursion that has {@link #smallInstances() small
 * instances} is warmed on them first, at every warm-up run, so that the JIT compiles it from many short calls rather
 * than from one deep one; every measured run starts from rest ({@link #timedFromRest()}); and a workload whose data
 * a collection would move lets it settle at set-up (tree-sum: {@code TreeSum.setUp}). A measured window with a
 * collection is kept: once the data is settled in the old generation the young collections do not move it, and the
 * ones in a window are then those the contender's own allocation causes, which are part of what it costs (dropping
 * them would favour the pools that allocate).
 */
abstract class ComputeWorkload implements Workload {
    /** How long each warm-up run first runs the {@link #smallInstances() small instances}, on its pool. */
    static final long SMALL_WARMUP_NANOS = 100_000_000L;

    private final String name;
    private List<ComputeWorkload> small; // set up at the first warm-up run

    ComputeWorkload(String name) {
        this.name = name;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public boolean supports(PoolKind kind) {
        return !kind.isIoServer(); // every computation has a sequential version
    }

    @Override
    public List<Metric> metrics(PoolKind kind) {
        List<Metric> m = new ArrayList<>(List.of(Metric.TIME_MS));
        if (joins() > 0) m.add(Metric.NS_PER_JOIN);
        if (bytesPerJoin(kind)) m.add(Metric.BYTES_PER_JOIN);
        if (kind.isSpindle()) m.add(Metric.PROMOTIONS);
        return m;
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

    /**
     * @return whether to report bytes_per_join: false by default; the fine-grained join workloads, whose allocation
     *         per join is the cost issue 14 targets, say true
     */
    boolean reportsBytesPerJoin() {
        return false;
    }

    private boolean bytesPerJoin(PoolKind kind) {
        return reportsBytesPerJoin() && joins() > 0 && ThreadAllocations.unsupported().isEmpty();
    }

    /** The Spindle version: runs on {@code pool} (through {@code install}) and returns the result. */
    abstract long onSpindle(ThreadPool pool);

    /** The ForkJoinPool version: RecursiveTask / RecursiveAction invoked on {@code pool}. */
    abstract long onFjp(ForkJoinPool pool);

    /** The same algorithm without any parallelism, on the calling thread. */
    abstract long onSequential();

    /** Throws {@link IllegalStateException} if {@code result} (or the data it worked on) is wrong. */
    abstract void verify(long result);

    /**
     * @return the same computation on small inputs (up to a few thousand joins each), set up at the first warm-up
     *         run and run for {@link #SMALL_WARMUP_NANOS} at the start of each: real code is compiled while it runs
     *         small inputs, and a recursion that C2 first compiles from one deep call can be compiled differently
     *         (an outside review measured fib(30) 1.5 times slower that way, in sequential code and in every pool).
     *         Default none: the workload is not a recursion on a size.
     */
    List<ComputeWorkload> smallInstances() {
        return List.of();
    }

    @Override
    public boolean timedFromRest() {
        return true;
    }

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
    public void tearDown() {
        if (small != null) small.forEach(ComputeWorkload::tearDown);
        small = null;
    }

    @Override
    public final List<Value> run(Target t, boolean warmup) {
        if (warmup) warmSmall(t);
        return runOnce(t);
    }

    /** Runs the small instances on {@code t} for {@link #SMALL_WARMUP_NANOS}, each result checked. */
    private void warmSmall(Target t) {
        if (small == null) {
            List<ComputeWorkload> instances = smallInstances();
            instances.forEach(ComputeWorkload::setUp);
            small = instances;
        }
        if (small.isEmpty()) return;
        long start = System.nanoTime();
        do {
            for (ComputeWorkload w : small) {
                w.beforeRun();
                w.verify(w.compute(t));
            }
        } while (System.nanoTime() - start < SMALL_WARMUP_NANOS);
    }

    private long compute(Target t) {
        return switch (t.kind()) {
            case FJP -> onFjp(t.fjp());
            case SEQUENTIAL -> onSequential();
            default -> onSpindle(t.spindle());
        };
    }

    private List<Value> runOnce(Target t) {
        beforeRun();
        boolean spindle = t.kind().isSpindle();
        boolean bytes = bytesPerJoin(t.kind());
        // the counters are read outside the timed stretch, and in this order (stats() allocates a snapshot, which
        // the allocation counters must not see)
        long promotionsBefore = spindle ? t.spindle().stats().promotions() : 0;
        long bytesBefore = bytes ? t.allocatedBytes() : 0;
        long start = System.nanoTime();
        long result = compute(t);
        long elapsed = System.nanoTime() - start;
        long allocated = bytes ? t.allocatedBytes() - bytesBefore : 0;
        long promotions = spindle ? t.spindle().stats().promotions() - promotionsBefore : 0;
        double nanos = elapsed / (double) repetitions();
        verify(result);
        List<Value> values = new ArrayList<>(4);
        values.add(new Value(Metric.TIME_MS, t.threads(), nanos / 1e6));
        if (joins() > 0) values.add(new Value(Metric.NS_PER_JOIN, t.threads(), nanos / joins()));
        if (bytes) {
            values.add(new Value(Metric.BYTES_PER_JOIN, t.threads(), allocated / ((double) joins() * repetitions())));
        }
        if (spindle) values.add(new Value(Metric.PROMOTIONS, t.threads(), promotions));
        return values;
    }

    static void expect(String what, long actual, long expected) {
        if (actual != expected) {
            throw new IllegalStateException("wrong result: " + what + " = " + actual + ", expected " + expected);
        }
    }
}
