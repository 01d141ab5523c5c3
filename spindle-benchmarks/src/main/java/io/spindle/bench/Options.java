package io.spindle.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The command line of bin/spindle-bench.
 *
 * @param only  workload names to run (empty: all); checked against the workload list by the runner
 * @param pools the contenders in run order
 */
public record Options(boolean quick, int threads, List<String> only, List<PoolKind> pools, Path out, int runs,
                      int warmup, int warmupMillis, boolean orderCheck, boolean jvmPerPool) {

    /** Default of {@code --warmup-ms} for full runs: enough for C2 to finish the recursive join code on 2 cores. */
    public static final int DEFAULT_WARMUP_MILLIS = 2_000;

    /** Thrown for a bad command line; the message says what is wrong. */
    public static final class UsageException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    public static final String USAGE = """
            usage: spindle-bench [--quick] [--threads N] [--only a,b] [--pools p,q] [--out DIR]
                                 [--runs K] [--warmup W] [--warmup-ms T] [--order-check] [--jvm-per-pool]
              --quick        smaller sizes and fewer runs: the whole run in under 3 minutes on 2 cores
              --threads N    workers of every Spindle pool and of the ForkJoinPool (default: available processors;
                             sparse's threads_woken_per_job always uses 8, oversubscribed 4 pools of 2)
              --only a,b     run only these workloads (default: all), e.g. --only fib-naive,sparse
              --pools p,q    contenders, in this run order (default: spindle-jec,spindle-sleepy,spindle-hint,fjp,
                             sequential); Spindle strategies this build does not implement are skipped with a note
              --out DIR      where results.json, report.md and report.html go (default: bench-results)
              --runs K       measured runs per workload and pool (default 5; 3 with --quick)
              --warmup W     warm-up runs first, not counted (default 3; 1 with --quick)
              --warmup-ms T  and keep warming up (interleaved) until the warm-up took T ms per pool in all
                             (default 2000; 0 with --quick): a short workload's first few runs end before the
                             JIT has compiled it, and on 2 cores the compiler competes with the workers
              --order-check  afterwards, run everything again in a fresh JVM with the pool order reversed and
                             report how much that moved the numbers (doubles the running time)
              --jvm-per-pool measure each pool in a JVM of its own (fresh JIT and heap), so that pools cannot
                             shape each other's compiled code; the report merges their results
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
        List<String> only = List.of();
        List<PoolKind> pools = Arrays.asList(PoolKind.values());
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
                case "--threads" -> threads = intValue(args, ++i, 1, 1024);
                case "--runs" -> runs = intValue(args, ++i, 1, 1000);
                case "--warmup" -> warmup = intValue(args, ++i, 0, 1000);
                case "--warmup-ms" -> warmupMillis = intValue(args, ++i, 0, 600_000);
                case "--only" -> only = list(args, ++i);
                case "--pools" -> pools = pools(list(args, ++i));
                case "--out" -> out = Path.of(value(args, ++i));
                default -> throw new UsageException("unknown option: " + a);
            }
        }
        if (runs < 0) runs = quick ? 3 : 5;
        if (warmup < 0) warmup = quick ? 1 : 3;
        if (warmupMillis < 0) warmupMillis = quick ? 0 : DEFAULT_WARMUP_MILLIS;
        return new Options(quick, threads, only, pools, out, runs, warmup, warmupMillis, orderCheck, jvmPerPool);
    }

    /** @return whether {@code args} asks for the usage text */
    public static boolean wantsHelp(String... args) {
        return Arrays.stream(args).anyMatch(a -> a.equals("--help") || a.equals("-h"));
    }

    public Sizes sizes() {
        return quick ? Sizes.quick() : Sizes.full();
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
