package io.spindle.bench.workload;

import io.spindle.Pair;
import io.spindle.Spindle;
import io.spindle.ThreadPool;
import io.spindle.bench.Metric;
import io.spindle.bench.PoolKind;
import io.spindle.bench.Target;
import io.spindle.bench.Value;

import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.TimeUnit;

/**
 * tick: a control loop. Each tick runs a short parallel region (a join-based sum over 256 Ki ints), then ~200 µs of
 * serial work on the calling thread, then sleeps ~3 ms. The workers must wake fast for the region, and not steal the
 * core from the serial stretch while they wind down. time_ms is the busy part of the loop (region + serial stretch,
 * summed over the ticks); cpu_percent is the workers' CPU over the whole loop.
 */
final class Tick implements Workload {
    private static final int LENGTH = 1 << 18;
    private static final int CHUNK = 1 << 14;
    private static final long SERIAL_NANOS = TimeUnit.MICROSECONDS.toNanos(200);
    private static final long GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(3);

    private final int ticks;
    private int[] data;
    private long expected;
    private long serialIterations;

    Tick(int ticks) {
        this.ticks = ticks;
    }

    @Override
    public String name() {
        return "tick";
    }

    @Override
    public String description() {
        return String.format("%d ticks of: parallel sum of %,d ints, 200 µs serial work, 3 ms sleep", ticks, LENGTH);
    }

    @Override
    public boolean supports(PoolKind kind) {
        return !kind.isIoServer();
    }

    @Override
    public List<Metric> metrics(PoolKind kind) {
        return kind == PoolKind.SEQUENTIAL ? List.of(Metric.TIME_MS) : List.of(Metric.TIME_MS, Metric.CPU_PERCENT);
    }

    @Override
    public void setUp() {
        data = new int[LENGTH];
        for (int i = 0; i < LENGTH; i++) data[i] = i % 1000;
        expected = sequential(data, 0, LENGTH);
        serialIterations = Burn.calibrate(SERIAL_NANOS); // once, so every pool gets the same serial work
    }

    @Override
    public void tearDown() {
        data = null;
    }

    @Override
    public List<Value> run(Target t, boolean warmup) {
        int n = warmup ? Math.max(1, ticks / 10) : ticks;
        long busy = 0;
        long cpu0 = t.workerCpuNanos();
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            long tickStart = System.nanoTime();
            long sum = region(t);
            Burn.run(serialIterations);
            long tickEnd = System.nanoTime();
            busy += tickEnd - tickStart;
            ComputeWorkload.expect("tick sum", sum, expected);
            Pace.parkUntil(tickEnd + GAP_NANOS);
        }
        long wall = System.nanoTime() - start;
        long cpu = t.workerCpuNanos() - cpu0;
        Value time = new Value(Metric.TIME_MS, t.threads(), busy / 1e6);
        if (t.kind() == PoolKind.SEQUENTIAL) return List.of(time);
        return List.of(time, new Value(Metric.CPU_PERCENT, t.threads(), 100.0 * cpu / wall));
    }

    private long region(Target t) {
        return switch (t.kind()) {
            case FJP -> t.fjp().invoke(new Task(data, 0, LENGTH));
            case SEQUENTIAL -> sequential(data, 0, LENGTH);
            default -> spindle(t.spindle(), data);
        };
    }

    private static long spindle(ThreadPool pool, int[] a) {
        return pool.install(() -> spindle(a, 0, a.length));
    }

    static long spindle(int[] a, int lo, int hi) {
        if (hi - lo <= CHUNK) return sequential(a, lo, hi);
        int mid = (lo + hi) >>> 1;
        Pair<Long, Long> r = Spindle.join(() -> spindle(a, lo, mid), () -> spindle(a, mid, hi));
        return r.first() + r.second();
    }

    static long sequential(int[] a, int lo, int hi) {
        long s = 0;
        for (int i = lo; i < hi; i++) s += a[i];
        return s;
    }

    @SuppressWarnings("serial")
    static final class Task extends RecursiveTask<Long> {
        private final int[] a;
        private final int lo;
        private final int hi;

        Task(int[] a, int lo, int hi) {
            this.a = a;
            this.lo = lo;
            this.hi = hi;
        }

        @Override
        protected Long compute() {
            if (hi - lo <= CHUNK) return sequential(a, lo, hi);
            int mid = (lo + hi) >>> 1;
            Task right = new Task(a, mid, hi);
            right.fork();
            long left = new Task(a, lo, mid).compute();
            return left + right.join();
        }
    }
}
