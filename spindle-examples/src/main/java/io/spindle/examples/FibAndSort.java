package io.spindle.examples;

import io.spindle.SleepStrategy;
import io.spindle.ThreadPool;

import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.ForkJoinPool;

/**
 * Runs naive fib and a parallel merge sort on a Spindle {@link ThreadPool} and on a {@link ForkJoinPool} of the same
 * size, checks the results and prints both times and their ratio. A first look, not a benchmark: the benchmark runner
 * comes later.
 *
 * <pre>
 * bin/spindle-examples fibsort [--threads N] [--runs K] [--warmup W] [--fib N]
 * bin/spindle-examples fibsort --fib-report [--runs K] [--warmup W] [--fib N]
 * </pre>
 */
public final class FibAndSort {
    /** The sleep protocol of the Spindle pools; try the others. */
    private static final SleepStrategy STRATEGY = SleepStrategy.JOBS_EVENT_COUNTER;
    private static final int SORT_SIZE = 5_000_000;
    private static final int[] REPORT_THREADS = {1, 2, 8};

    private FibAndSort() {}

    public static void main(String[] args) {
        Options o = Options.parse(args);
        if (o.fibReport()) {
            fibReport(o);
            return;
        }
        System.out.printf("Spindle (%s) vs ForkJoinPool, %d threads, median of %d runs after %d warm-up (%s)%n",
                STRATEGY, o.threads(), o.runs(), o.warmup(), machine());
        try (Pools pools = new Pools(o.threads())) {
            System.out.printf("%nfib(%d), a join at every level (%,d joins) = %d%n",
                    o.fib(), Fib.joins(o.fib()), Fib.value(o.fib()));
            print(compareFib(pools, o.fib(), o.warmup(), o.runs()));

            System.out.printf("%nmerge sort of %,d random ints (sequential below %,d)%n", SORT_SIZE, MergeSort.CUTOFF);
            print(compareSort(pools, o.warmup(), o.runs()));
        }
    }

    /** fib on both pools at 1, 2 and 8 threads, as a Markdown table. */
    private static void fibReport(Options o) {
        System.out.printf("fib(%d), a join at every level (%,d joins); Spindle (%s) vs ForkJoinPool; %d runs after %d"
                + " warm-up; %s%n%n", o.fib(), Fib.joins(o.fib()), STRATEGY, o.runs(), o.warmup(), machine());
        System.out.println("| threads | Spindle ms: median (min-max) | FJP ms: median (min-max) | Spindle/FJP (medians) |");
        System.out.println("|--:|--:|--:|--:|");
        for (int threads : REPORT_THREADS) {
            try (Pools pools = new Pools(threads)) {
                Result r = compareFib(pools, o.fib(), o.warmup(), o.runs());
                System.out.printf("| %d | %s | %s | %.2f |%n", threads, r.spindle(), r.fjp(), r.ratio());
            }
        }
    }

    private static Result compareFib(Pools pools, int n, int warmup, int runs) {
        long expected = Fib.value(n);
        Trial spindle = () -> {
            long start = System.nanoTime();
            long v = pools.spindle().install(() -> Fib.spindle(n));
            double ms = millisSince(start);
            check(v == expected, "Spindle fib(" + n + ") = " + v + ", expected " + expected);
            return ms;
        };
        Trial fjp = () -> {
            long start = System.nanoTime();
            long v = pools.fjp().invoke(new Fib.Task(n));
            double ms = millisSince(start);
            check(v == expected, "ForkJoinPool fib(" + n + ") = " + v + ", expected " + expected);
            return ms;
        };
        return compare(spindle, fjp, warmup, runs);
    }

    private static Result compareSort(Pools pools, int warmup, int runs) {
        int[] input = new Random(42).ints(SORT_SIZE).toArray();
        long checksum = MergeSort.checksum(input);
        Trial spindle = () -> {
            int[] a = input.clone();
            int[] tmp = new int[a.length];
            long start = System.nanoTime();
            pools.spindle().install(() -> MergeSort.spindle(a, tmp));
            double ms = millisSince(start);
            checkSorted("Spindle", a, checksum);
            return ms;
        };
        Trial fjp = () -> {
            int[] a = input.clone();
            int[] tmp = new int[a.length];
            long start = System.nanoTime();
            pools.fjp().invoke(new MergeSort.Task(a, tmp, 0, a.length));
            double ms = millisSince(start);
            checkSorted("ForkJoinPool", a, checksum);
            return ms;
        };
        return compare(spindle, fjp, warmup, runs);
    }

    /** One run of a workload on one pool: prepares, times and checks it; returns the time in ms. */
    private interface Trial {
        double run();
    }

    /** Warms both up, then alternates timed runs of the two so that both see the same machine. */
    private static Result compare(Trial spindle, Trial fjp, int warmup, int runs) {
        for (int i = 0; i < warmup; i++) {
            spindle.run();
            fjp.run();
        }
        double[] spindleMs = new double[runs];
        double[] fjpMs = new double[runs];
        for (int i = 0; i < runs; i++) {
            spindleMs[i] = spindle.run();
            fjpMs[i] = fjp.run();
        }
        return new Result(Stats.of(spindleMs), Stats.of(fjpMs));
    }

    private static void print(Result r) {
        String line = "  %-12s %8.1f ms median (min %.1f, max %.1f)%n";
        System.out.printf(line, "Spindle", r.spindle().median(), r.spindle().min(), r.spindle().max());
        System.out.printf(line, "ForkJoinPool", r.fjp().median(), r.fjp().min(), r.fjp().max());
        System.out.printf("  Spindle/FJP  %8.2f (medians; below 1 means Spindle is faster)%n", r.ratio());
    }

    private static void check(boolean ok, String failure) {
        if (!ok) throw new IllegalStateException("wrong result: " + failure);
    }

    private static void checkSorted(String pool, int[] a, long checksum) {
        check(MergeSort.isSorted(a), pool + " left the array unsorted");
        check(MergeSort.checksum(a) == checksum, pool + " changed the array's checksum");
    }

    private static double millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e6;
    }

    private static String machine() {
        return Runtime.getRuntime().availableProcessors() + " CPUs, JDK " + Runtime.version()
                + ", " + System.getProperty("os.name") + " " + System.getProperty("os.arch");
    }

    /** A Spindle pool and a ForkJoinPool with the same number of threads. */
    private record Pools(ThreadPool spindle, ForkJoinPool fjp) implements AutoCloseable {
        Pools(int threads) {
            this(ThreadPool.builder().threads(threads).sleepStrategy(STRATEGY).build(), new ForkJoinPool(threads));
        }

        @Override
        public void close() {
            spindle.close();
            fjp.shutdown();
        }
    }

    private record Result(Stats spindle, Stats fjp) {
        double ratio() {
            return spindle.median() / fjp.median();
        }
    }

    private record Stats(double median, double min, double max) {
        static Stats of(double[] ms) {
            double[] s = ms.clone();
            Arrays.sort(s);
            int n = s.length;
            double median = n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
            return new Stats(median, s[0], s[n - 1]);
        }

        /** For the report table: "median (min-max)". */
        @Override
        public String toString() {
            return String.format("%.1f (%.1f-%.1f)", median, min, max);
        }
    }

    /** The command line. Runs and warm-up default to 5 and 3, or 15 and 5 with --fib-report. */
    private record Options(int threads, int runs, int warmup, int fib, boolean fibReport) {
        static Options parse(String[] args) {
            int threads = Runtime.getRuntime().availableProcessors();
            int runs = -1;
            int warmup = -1;
            int fib = 30;
            boolean fibReport = false;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--threads" -> threads = intArg(args, ++i, 1, ThreadPool.MAX_THREADS);
                    case "--runs" -> runs = intArg(args, ++i, 1, 10_000);
                    case "--warmup" -> warmup = intArg(args, ++i, 0, 10_000);
                    case "--fib" -> fib = intArg(args, ++i, 0, 50);
                    case "--fib-report" -> fibReport = true;
                    case "-h", "--help" -> {
                        System.out.print(USAGE);
                        System.exit(0);
                    }
                    default -> usageError("unknown option: " + args[i]);
                }
            }
            if (runs < 0) runs = fibReport ? 15 : 5;
            if (warmup < 0) warmup = fibReport ? 5 : 3;
            return new Options(threads, runs, warmup, fib, fibReport);
        }

        private static int intArg(String[] args, int i, int min, int max) {
            if (i >= args.length) usageError(args[i - 1] + " needs a number");
            try {
                int v = Integer.parseInt(args[i]);
                if (v >= min && v <= max) return v;
            } catch (NumberFormatException e) {
                // reported below
            }
            usageError(args[i - 1] + " must be a number in " + min + ".." + max + ", got " + args[i]);
            return 0; // not reached
        }

        private static void usageError(String message) {
            System.err.println("fibsort: " + message);
            System.err.print(USAGE);
            System.exit(2);
        }

        private static final String USAGE = """
                usage: bin/spindle-examples fibsort [--threads N] [--runs K] [--warmup W] [--fib N]
                       bin/spindle-examples fibsort --fib-report [--runs K] [--warmup W] [--fib N]
                  --threads N   pool size for both pools (default: available processors)
                  --runs K      timed runs per pool (default 5; 15 with --fib-report)
                  --warmup W    untimed runs per pool first (default 3; 5 with --fib-report)
                  --fib N       naive fib size (default 30)
                  --fib-report  fib only, at 1, 2 and 8 threads, as a Markdown table
                """;
    }
}
