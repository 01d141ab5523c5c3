package io.spindle.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The command line of bin/spindle-bench.
 *
 * @param only         workload names to run (empty: all); checked against the workload list by the runner
 * @param pools        the contenders in run order
 * @param lightThreads the pool sizes at which the light loads are measured too, besides {@code threads} (empty:
 *                     none); see {@link #lightThreadsBesideThreads()}
 * @param joinThreads  the pool sizes at which the join workloads are measured too, besides {@code threads} (empty:
 *                     none); see {@link #joinThreadsBesideThreads()}
 * @param heartbeatMicros the heartbeat interval of the lazy-join Spindle pools, in µs; empty: the library's default
 * @param coarsePairSteps coarse-pair's work per half in loop steps; 0: calibrate (see {@code CoarsePair})
 * @param reportFrom   a results.json to write the reports from instead of running anything (with a later build's
 *                     report code); empty: run
 */
public record Options(boolean quick, int threads, List<Integer> lightThreads, List<Integer> joinThreads,
                      List<String> only, List<PoolKind> pools, Path out, int runs, int warmup, int warmupMillis,
                      boolean orderCheck, boolean jvmPerPool, OptionalInt heartbeatMicros, long coarsePairSteps,
                      Optional<Path> reportFrom) {

    /** Default of {@code --warmup-ms} for full runs: enough for C2 to finish the recursive join code on 2 cores. */
    public static final int DEFAULT_WARMUP_MILLIS = 2_000;

    /**
     * Default of {@code --light-threads}: 8 workers, more than a small machine has cores, where keeping idle workers
     * asleep is hardest and an idle pool's overhead shows most (issue 13).
     */
    public static final List<Integer> DEFAULT_LIGHT_THREADS = List.of(8);

    /**
     * Default of {@code --join-threads}: 1 worker, where a join nobody can steal shows its whole cost against the
     * sequential version (issue 14: "Join workloads also run at 1 worker").
     */
    public static final List<Integer> DEFAULT_JOIN_THREADS = List.of(1);

    /** The range of {@code --heartbeat-micros}: that of {@code ThreadPool.Builder.heartbeatInterval}, 0..1 s. */
    public static final int MAX_HEARTBEAT_MICROS = 1_000_000;

    private static final int MAX_THREADS = 1024;

    /** Thrown for a bad command line; the message says what is wrong. */
    public static final class UsageException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    public static final String USAGE = """
            usage: spindle-bench [--quick] [--threads N] [--light-threads M,..|none] [--join-threads M,..|none]
                                 [--heartbeat-micros H] [--only a,b] [--pools p,q] [--out DIR] [--runs K]
                                 [--warmup W] [--warmup-ms T] [--order-check] [--jvm-per-pool]
                                 [--coarse-pair-steps S] [--report-from FILE]
              --quick        smaller sizes and fewer runs: the whole run in about 3 to 5 minutes on 2 cores
              --threads N    workers of every Spindle pool and of the ForkJoinPool (default: available processors;
                             sparse's threads_woken_per_job always uses 8, oversubscribed 4 pools of 2)
              --light-threads M,..|none
                             the light loads (noop-1ms, noop-10ms, sparse) get rows at these pool sizes too,
                             measured in the same interleaved runs as their --threads rows (default 8, which
                             oversubscribes a small machine on purpose; none: only at --threads)
              --join-threads M,..|none
                             the join workloads (join-depth-20, fib-naive, fib-cutoff, tree-sum, tree-sum-1k,
                             their -long and -fn forms, coarse-*, quicksort, mergesort, matmul) get rows at
                             these pool sizes too, measured in the same interleaved runs as their --threads rows
                             (default 1: a join nobody can steal, beside the sequential version; none: only at
                             --threads)
              --heartbeat-micros H
                             the heartbeat interval of every lazy-join Spindle pool (all spindle-* but
                             spindle-jec-eager), 0..1000000 µs (default: the library's, 100 µs unless
                             -Dspindle.heartbeatMicros is given); the reports' header records it
              --only a,b     run only these workloads (default: all), e.g. --only fib-naive,sparse
              --pools p,q    contenders, in this run order (default: spindle-jec,spindle-sleepy,spindle-hint,
                             fjp,sequential); spindle-* use the library's default join strategy (lazy);
                             spindle-jec-eager, only when asked for, is spindle-jec with JoinStrategy.EAGER (best
                             in a run of its own or with --jvm-per-pool: in one JVM with a lazy pool, the two share
                             the JIT's profile of the join code); Spindle strategies this build does not implement
                             are skipped with a note
              --out DIR      where results.json, report.md and report.html go (default: bench-results)
              --runs K       measured runs per workload and pool (default 5; 3 with --quick)
              --warmup W     warm-up runs first, not counted (default 3; 1 with --quick); each warm-up run of
                             a recursion (join-depth, fib-naive, fib-cutoff, tree-sum and their forms) first
                             runs it on small inputs for 100 ms, so that the JIT compiles it from many short
                             calls, as real code warms. Every measured run of a computation starts after a
                             20 ms rest (every pool asleep); tree-sum builds its tree, then lets two full
                             collections settle its layout before any run
              --warmup-ms T  and keep warming up (interleaved) until the warm-up took T ms per pool in all
                             (default 2000; 0 with --quick): a short workload's first few runs end before the
                             JIT has compiled it, and on 2 cores the compiler competes with the workers
              --order-check  afterwards, run everything again in a fresh JVM with the pool order reversed and
                             report how much that moved the numbers (doubles the running time)
              --jvm-per-pool measure each pool in a JVM of its own (fresh JIT and heap), so that pools cannot
                             shape each other's compiled code; the report merges their results
              --coarse-pair-steps S
                             the work per half of coarse-pair and the coarse-nested rows, in loop steps, instead
                             of calibrating 20 ms on this machine (the runner calibrates once and hands the count
                             to the JVMs it starts, so that every JVM of --jvm-per-pool and --order-check does the
                             same work)
              --report-from FILE
                             run nothing: write report.md, report.html and the charts into --out from a
                             results.json of an earlier run (its options and timing are not in that file)
              --help         this text
            Output: progress on stderr; the table on stdout; results.json, report.md, report.html in DIR.
            """;

    /**
     * @throws UsageException for an unknown option or a bad value
     */
    public static Options parse(String... args) {
        boolean quick = false;
        boolean orderCheck = false;
        boolean jvmPerPool = false;
        int threads = Runtime.getRuntime().availableProcessors();
        List<Integer> lightThreads = DEFAULT_LIGHT_THREADS;
        List<Integer> joinThreads = DEFAULT_JOIN_THREADS;
        OptionalInt heartbeatMicros = OptionalInt.empty();
        long coarsePairSteps = 0;
        Optional<Path> reportFrom = Optional.empty();
        List<String> only = List.of();
        // Not spindle-jec-eager by default: an eager and a lazy pool in one JVM share the JIT's profile of the join
        // code, which then stops inlining the lazy join into its callers (BENCHMARKS.md, "Which join?").
        List<PoolKind> pools = Arrays.stream(PoolKind.values()).filter(k -> k != PoolKind.SPINDLE_JEC_EAGER).toList();
        Path out = Path.of("bench-results");
        int runs = -1;
        int warmup = -1;
        int warmupMillis = -1;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--quick" -> quick = true;
                case "--order-check" -> orderCheck = true;
                case "--jvm-per-pool" -> jvmPerPool = true;
                case "--threads" -> threads = intValue(args, ++i, 1, MAX_THREADS);
                case "--light-threads" -> lightThreads = sizes(args, ++i);
                case "--join-threads" -> joinThreads = sizes(args, ++i);
                case "--heartbeat-micros" -> heartbeatMicros = OptionalInt.of(intValue(args, ++i, 0,
                        MAX_HEARTBEAT_MICROS));
                case "--coarse-pair-steps" -> coarsePairSteps = intValue(args, ++i, 1, Integer.MAX_VALUE);
                case "--runs" -> runs = intValue(args, ++i, 1, 1000);
                case "--warmup" -> warmup = intValue(args, ++i, 0, 1000);
                case "--warmup-ms" -> warmupMillis = intValue(args, ++i, 0, 600_000);
                case "--only" -> only = list(args, ++i);
                case "--pools" -> pools = pools(list(args, ++i));
                case "--out" -> out = Path.of(value(args, ++i));
                case "--report-from" -> reportFrom = Optional.of(Path.of(value(args, ++i)));
                default -> throw new UsageException("unknown option: " + a);
            }
        }
        if (runs < 0) runs = quick ? 3 : 5;
        if (warmup < 0) warmup = quick ? 1 : 3;
        if (warmupMillis < 0) warmupMillis = quick ? 0 : DEFAULT_WARMUP_MILLIS;
        return new Options(quick, threads, lightThreads, joinThreads, only, pools, out, runs, warmup, warmupMillis,
                orderCheck, jvmPerPool, heartbeatMicros, coarsePairSteps, reportFrom);
    }

    /** @return the {@code --light-threads} sizes other than {@code --threads}: the light loads' extra pool sizes */
    public List<Integer> lightThreadsBesideThreads() {
        return lightThreads.stream().filter(n -> n != threads).toList();
    }

    /** @return the {@code --join-threads} sizes other than {@code --threads}: the join workloads' extra pool sizes */
    public List<Integer> joinThreadsBesideThreads() {
        return joinThreads.stream().filter(n -> n != threads).toList();
    }

    /** @return {@code --heartbeat-micros} as a duration, or empty for the library's default */
    public Optional<Duration> heartbeat() {
        return heartbeatMicros.isPresent() ? Optional.of(Duration.ofNanos(heartbeatMicros.getAsInt() * 1_000L))
                : Optional.empty();
    }

    /** @return whether {@code args} asks for the usage text */
    public static boolean wantsHelp(String... args) {
        return Arrays.stream(args).anyMatch(a -> a.equals("--help") || a.equals("-h"));
    }

    public Sizes sizes() {
        return quick ? Sizes.quick() : Sizes.full();
    }

    /** @return " (light loads also at 8)" for the progress and the reports, or nothing where there are none */
    public String lightThreadsNote() {
        List<Integer> sizes = lightThreadsBesideThreads();
        if (sizes.isEmpty()) return "";
        return " (light loads also at " + String.join(", ", sizes.stream().map(String::valueOf).toList()) + ")";
    }

    /** @return " (join workloads also at 1)" for the progress and the reports, or nothing where there are none */
    public String joinThreadsNote() {
        List<Integer> sizes = joinThreadsBesideThreads();
        if (sizes.isEmpty()) return "";
        return " (join workloads also at " + String.join(", ", sizes.stream().map(String::valueOf).toList()) + ")";
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) throw new UsageException(args[i - 1] + " needs a value");
        return args[i];
    }

    private static int intValue(String[] args, int i, int min, int max) {
        String v = value(args, i);
        try {
            int n = Integer.parseInt(v);
            if (n >= min && n <= max) return n;
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(args[i - 1] + " must be a number in " + min + ".." + max + ", got '" + v + "'");
    }

    /** @return "none" as no sizes, else the comma-separated sizes, each once, in the given order */
    private static List<Integer> sizes(String[] args, int i) {
        String v = value(args, i);
        if (v.equals("none")) return List.of();
        List<Integer> sizes = new ArrayList<>();
        for (String s : v.split(",", -1)) { // -1: a trailing comma is an empty size, reported below
            int n;
            try {
                n = Integer.parseInt(s.trim());
            } catch (NumberFormatException e) {
                n = 0;
            }
            if (n < 1 || n > MAX_THREADS) {
                throw new UsageException(args[i - 1] + " takes 'none' or pool sizes in 1.." + MAX_THREADS
                        + ", separated by commas; got '" + v + "'");
            }
            if (!sizes.contains(n)) sizes.add(n);
        }
        return List.copyOf(sizes);
    }

    private static List<String> list(String[] args, int i) {
        List<String> items = new ArrayList<>();
        for (String s : value(args, i).split(",")) {
            if (!s.isBlank()) items.add(s.trim());
        }
        if (items.isEmpty()) throw new UsageException(args[i - 1] + " needs at least one name");
        return List.copyOf(items);
    }

    private static List<PoolKind> pools(List<String> ids) {
        List<PoolKind> kinds = new ArrayList<>();
        for (String id : ids) {
            try {
                PoolKind k = PoolKind.byId(id);
                if (!kinds.contains(k)) kinds.add(k);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        return List.copyOf(kinds);
    }
}
