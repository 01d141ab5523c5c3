package io.spindle.bench.workload;

import io.spindle.ThreadPool;
import io.spindle.bench.Stats;

import java.util.Locale;
import java.util.concurrent.ForkJoinPool;

/**
 * A diagnostic beside the runner, for one question at a time about fine-grained joins: naive fib(n) on Spindle and on
 * ForkJoinPool in one JVM that runs nothing else (so no other workload shapes the JIT's profile), alternating the two
 * after a long warm-up, and the heap bytes allocated per join by each (summed over all threads with
 * {@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}). BENCHMARKS.md cites it.
 *
 * <pre>
 * java -cp spindle-core/target/spindle-core-VERSION.jar:spindle-benchmarks/target/spindle-bench-VERSION.jar \
 *     io.spindle.bench.workload.FibProbe [n=30] [runs=30] [threads=2]
 * </pre>
 */
public final class FibProbe {
    private FibProbe() {}

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        if (n < 2 || runs < 1 || threads < 1) {
            throw new IllegalArgumentException("need n >= 2, runs >= 1, threads >= 1; got n=" + n + ", runs=" + runs
                    + ", threads=" + threads);
        }
        long joins = FibNaive.value(n + 1) - 1;
        try (ThreadPool pool = ThreadPool.builder().threads(threads).build()) {
            ForkJoinPool fjp = new ForkJoinPool(threads);
            try {
                for (int i = 0; i < 10; i++) {
                    check(n, pool.install(() -> FibNaive.spindle(n)));
                    check(n, fjp.invoke(new FibNaive.Task(n)));
                }
                double[] spindle = new double[runs];
                double[] forkJoin = new double[runs];
                for (int i = 0; i < runs; i++) {
                    long t0 = System.nanoTime();
                    check(n, pool.install(() -> FibNaive.spindle(n)));
                    long t1 = System.nanoTime();
                    check(n, fjp.invoke(new FibNaive.Task(n)));
                    spindle[i] = t1 - t0;
                    forkJoin[i] = System.nanoTime() - t1;
                }
                long a0 = allocatedBytes();
                for (int i = 0; i < 5; i++) check(n, pool.install(() -> FibNaive.spindle(n)));
                long a1 = allocatedBytes();
                for (int i = 0; i < 5; i++) check(n, fjp.invoke(new FibNaive.Task(n)));
                long a2 = allocatedBytes();

                double ms = Stats.of(spindle).median() / 1e6;
                double mf = Stats.of(forkJoin).median() / 1e6;
                System.out.printf(Locale.ROOT, "fib(%d), %d threads, %s: spindle %.2f ms, fjp %.2f ms, "
                                + "spindle/fjp %.2f; bytes per join: spindle %.1f, fjp %.1f%n", n, threads,
                        Runtime.version(), ms, mf, ms / mf, (a1 - a0) / (5.0 * joins), (a2 - a1) / (5.0 * joins));
            } finally {
                fjp.shutdown();
            }
        }
    }

    private static void check(int n, long result) {
        if (result != FibNaive.value(n)) throw new AssertionError("fib(" + n + ") = " + result);
    }

    private static long allocatedBytes() {
        return JoinProbe.allocatedBytes();
    }
}
