package io.spindle.bench.workload;

import io.spindle.PoolStats;
import io.spindle.ThreadPool;
import io.spindle.bench.Stats;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;

/**
 * A held-out probe of fine-grained joins as a user meets them: five join-heavy forms, each timed sequentially, on a
 * Spindle pool of 1 worker, on a Spindle pool of 2 workers (both {@code ThreadPool.builder().threads(k).build()}: the
 * default JOBS_EVENT_COUNTER sleep protocol and lazy joins) and on a {@code ForkJoinPool(2)}, all in one JVM. Not part
 * of the runner, of any test or of CI; BENCHMARKS.md may cite it.
 *
 * <pre>
 * mvn -B -q -pl spindle-benchmarks -am -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true package
 * bin/join-probe [--per-form] [forms=a,b] [fib=30] [tree=22] [rounds=15] [warmup-s=3] [rest-ms=20] \
 *     [pools=all|spindle-1]
 *   # which is, for one JVM:
 * java -cp spindle-core/target/spindle-core-VERSION.jar:spindle-benchmarks/target/spindle-bench-VERSION.jar \
 *     io.spindle.bench.workload.JoinProbe [forms=a,b] [fib=30] [tree=22] [rounds=15] [warmup-s=3] [rest-ms=20] \
 *     [pools=all|spindle-1]
 * </pre>
 *
 * <p>The forms ({@code forms=} takes a comma-separated list of them; default all, in this order):
 * <dl>
 *   <dt>{@code fib-pair}</dt><dd>fib(n) with {@code Spindle.join(() -> f(n-1), () -> f(n-2))} returning a
 *       {@code Pair<Long, Long>} ({@code FibNaive.spindle}); fib(n+1) - 1 joins.</dd>
 *   <dt>{@code fib-function}</dt><dd>fib(n) with {@code Spindle.join(F::f, n-1, n-2, Long::sum)}
 *       ({@code FibNaive.spindleFunction}).</dd>
 *   <dt>{@code tree-pair}</dt><dd>the sum of a balanced binary tree of depth {@code tree} (2^depth - 1 nodes, a join
 *       at each inner node) with {@code Spindle.join(() -> sum(l), () -> sum(r))} ({@code TreeSum.spindle}).</dd>
 *   <dt>{@code tree-function}</dt><dd>the same with {@code Spindle.join(TreeSum::spindleFunction, left, right,
 *       Long::sum)} ({@code TreeSum.spindleFunction}).</dd>
 *   <dt>{@code tree1k-function}</dt><dd>a 1,023-node tree (depth 10) summed 100 times in a loop inside ONE
 *       {@code install} / {@code invoke}, function form; its times are for all 100 sums.</dd>
 * </dl>
 * Each form's sequential version is plain recursion ({@code FibNaive.sequential}, {@code TreeSum.sequential}); its
 * ForkJoinPool version is a {@code RecursiveTask} that forks one half and computes the other ({@code FibNaive.Task},
 * {@code TreeSum.Task}, {@code TreeSum.Trees}). Runs on a pool go through {@code pool.install(...)} /
 * {@code fjp.invoke(...)}; the sequential one runs on the main thread.
 *
 * <p>Honesty rules (the point of the probe):
 * <ol>
 *   <li><b>Warm-up on small inputs, the way real code warms.</b> Before any timed run, every form runs many small
 *       inputs (fib(12..20), trees of depth 8..14; for tree1k-function trees of depth 8..10 summed 100 times per
 *       install), each on every pool and sequentially, for {@code warmup-s} seconds per form. The forms are warmed
 *       in turns of at most 200 ms, so the JIT sees them mixed as in an application. No recursion is first compiled
 *       from one deep call.</li>
 *   <li><b>Trees are built once and settled.</b> The full-size tree is built once, before its forms are timed
 *       (tree-pair and tree-function share it), then {@code System.gc()} is called twice (on the default G1 that is
 *       a full, compacting collection rather than a young one; it moves the tree into the old generation where young
 *       collections leave it alone) and the sequential ns per node is printed. A timed window with a collection (the
 *       sum of every {@code GarbageCollectorMXBean.getCollectionCount()} changed) is kept and counted: with the tree
 *       settled, the collections in a window are those the form's own allocation causes (the {@code Pair} form's,
 *       FJP's tasks), part of what it costs; re-running such windows, as this probe did at first, kept only the
 *       windows of the allocating contenders that happened to have none.</li>
 *   <li><b>Every timed run starts from rest.</b> Before each timed run (the sequential one too) the main thread sleeps
 *       {@code rest-ms} (default 20 ms), long enough for every pool's idle workers to have gone to sleep: a pool run
 *       pays its own wake-up, and no other pool's spinning workers take a core from it.</li>
 *   <li><b>Interleaved rounds.</b> Each of {@code rounds} rounds times sequential, spindle-1, spindle-2 and fjp-2
 *       once each; the order rotates by one each round.</li>
 *   <li><b>What is reported, per form.</b> Median and min-max over the rounds of each row's ms; the ratios
 *       spindle-1 / seq, spindle-2 / seq, fjp-2 / seq and spindle-2 / fjp-2, computed per round and then summarized
 *       (median, min-max); ns per join on spindle-1 (its time / joins); the heap bytes allocated per join on
 *       spindle-1, spindle-2 and fjp-2 (the sum of {@code com.sun.management.ThreadMXBean.getThreadAllocatedBytes}
 *       over all live threads, before and after 3 untimed runs, as {@link FibProbe} counts); and per timed pool run
 *       the promotions and steals of {@link ThreadPool#stats()} and the steals of {@link
 *       ForkJoinPool#getStealCount()}. For tree forms, the sequential ns per node.</li>
 *   <li><b>Shared or alone.</b> By default all selected forms share the JVM, as the join sites of an application
 *       do: they share the JIT's profiles of Spindle's join code (and a form that runs alone may be compiled better
 *       than it would be in an application). For one form per JVM, run the program once per form ({@code
 *       forms=fib-pair}, then {@code forms=tree-pair}, ...); {@code bin/join-probe --per-form} does exactly that,
 *       one JVM after the other, with the same arguments. By default the same recursion also runs on a second
 *       Spindle pool and on a ForkJoinPool in the JVM, as in an application that uses both; {@code pools=spindle-1}
 *       builds only the 1-worker pool and times only seq and spindle-1, so that the two runs show what the other
 *       pools' use of the same code costs the first (the others' rows are left out of the per-form tables, their
 *       summary columns read "-"). Two things differ besides: the warm-up's steps, each on fewer kinds, are about
 *       twice as many in the same {@code warmup-s}, and fewer threads are alive.</li>
 *   <li><b>Stated and verified.</b> The first line of output names the JDK ({@code Runtime.version()}),
 *       {@code availableProcessors}, the JVM's flags and the sizes. Every result, warm-up included, is checked; a
 *       wrong sum throws.</li>
 * </ol>
 * Output: per form a Markdown table, one line per row, then a summary table of all forms.
 *
 * <p>Options are {@code key=value}: {@code forms=} (default all), {@code fib=30} (n, 2..60), {@code tree=22} (depth,
 * 2..27), {@code rounds=15} (at least 1), {@code warmup-s=3} (seconds per form, may be fractional, at least 0),
 * {@code rest-ms=20} (at least 0), {@code pools=all} (or {@code spindle-1}). {@code --list-forms} prints the form
 * names, one per line. A bad key or value
 * throws an IllegalArgumentException that names it.
 */
public final class JoinProbe {
    private JoinProbe() {}

    /** Every form, in the default order. */
    static final List<String> FORMS = List.of("fib-pair", "fib-function", "tree-pair", "tree-function",
            "tree1k-function");

    private static final int TREE1K_DEPTH = 10;
    private static final int TREE1K_SUMS = 100;
    private static final int ALLOCATION_RUNS = 3;
    private static final long WARMUP_SLICE_NANOS = 200_000_000L;

    /** The parsed command line. */
    record Options(List<String> forms, int fib, int tree, int rounds, double warmupSeconds, int restMillis,
                   boolean onePool) {
        static Options parse(String... args) {
            List<String> forms = FORMS;
            int fib = 30;
            int tree = 22;
            int rounds = 15;
            double warmup = 3;
            int rest = 20;
            boolean onePool = false;
            for (String arg : args) {
                int eq = arg.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("expected key=value (keys: forms, fib, tree, rounds, warmup-s, "
                            + "rest-ms, pools), got '" + arg + "'");
                }
                String key = arg.substring(0, eq);
                String value = arg.substring(eq + 1);
                switch (key) {
                    case "forms" -> forms = parseForms(value);
                    case "fib" -> fib = parseInt(key, value, 2, 60);
                    case "tree" -> tree = parseInt(key, value, 2, 27);
                    case "rounds" -> rounds = parseInt(key, value, 1, 100_000);
                    case "warmup-s" -> warmup = parseSeconds(key, value);
                    case "rest-ms" -> rest = parseInt(key, value, 0, 60_000);
                    case "pools" -> onePool = parsePools(value);
                    default -> throw new IllegalArgumentException("unknown option '" + key + "' in '" + arg
                            + "' (keys: forms, fib, tree, rounds, warmup-s, rest-ms, pools)");
                }
            }
            return new Options(forms, fib, tree, rounds, warmup, rest, onePool);
        }

        /** @return true for {@code pools=spindle-1} (only seq and the 1-worker pool), false for {@code pools=all} */
        private static boolean parsePools(String value) {
            return switch (value) {
                case "all" -> false;
                case "spindle-1" -> true;
                default -> throw new IllegalArgumentException("pools: '" + value + "' is neither 'all' nor "
                        + "'spindle-1'");
            };
        }

        private static List<String> parseForms(String value) {
            Set<String> forms = new LinkedHashSet<>();
            for (String f : value.split(",", -1)) {
                if (!FORMS.contains(f)) {
                    throw new IllegalArgumentException("forms: unknown form '" + f + "' in '" + value
                            + "' (forms: " + String.join(",", FORMS) + ")");
                }
                forms.add(f);
            }
            return List.copyOf(forms);
        }

        private static int parseInt(String key, String value, int min, int max) {
            int v;
            try {
                v = Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + ": '" + value + "' is not a whole number");
            }
            if (v < min || v > max) {
                throw new IllegalArgumentException(key + ": '" + value + "' is out of range " + min + ".." + max);
            }
            return v;
        }

        private static double parseSeconds(String key, String value) {
            double v;
            try {
                v = Double.parseDouble(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + ": '" + value + "' is not a number of seconds");
            }
            if (!(v >= 0 && v <= 3600)) {
                throw new IllegalArgumentException(key + ": '" + value + "' is out of range 0..3600");
            }
            return v;
        }
    }

    /** Where a run happens: the columns of the tables, in the order of the first round. */
    private enum Kind {
        SEQ("seq"), S1("spindle-1"), S2("spindle-2"), FJP("fjp-2");

        final String id;

        Kind(String id) {
            this.id = id;
        }
    }

    /**
     * The pools, and the kinds of run this JVM makes: all four, or with {@code pools=spindle-1} only seq and
     * spindle-1 ({@code s2} and {@code fjp} are then null: never built, so no other pool runs the recursion).
     */
    private record Pools(ThreadPool s1, ThreadPool s2, ForkJoinPool fjp, List<Kind> kinds) {
        boolean has(Kind k) {
            return kinds.contains(k);
        }
    }

    /** One form: its sizes, its four versions and its small warm-up inputs. */
    private abstract static class Form {
        final String name;

        Form(String name) {
            this.name = name;
        }

        abstract String description();

        abstract long joins();

        /** @return the nodes a timed run visits, or 0 for fib */
        long nodes() {
            return 0;
        }

        /** Builds what the timed runs need (and settles it); prints what it did. */
        void setUp() {}

        void tearDown() {}


        /** Runs the full-size input on {@code kind} and checks the result. */
        abstract void run(Kind kind, Pools pools);

        /** Runs the {@code step}-th small input on all four kinds, checking every result. */
        abstract void warmStep(int step, Pools pools);
    }

    private static final class Fib extends Form {
        private final int n;
        private final boolean function;
        private final int[] small;

        Fib(String name, int n, boolean function) {
            super(name);
            this.n = n;
            this.function = function;
            int hi = Math.min(20, n);
            int lo = Math.min(12, hi);
            small = new int[hi - lo + 1];
            for (int i = 0; i < small.length; i++) small[i] = lo + i;
        }

        @Override
        String description() {
            return String.format(Locale.ROOT, "fib(%d), %s, %,d joins", n, function
                    ? "Spindle.join(FibNaive::spindleFunction, n - 1, n - 2, Long::sum)"
                    : "Spindle.join(() -> fib(n - 1), () -> fib(n - 2)) -> Pair<Long, Long>", joins());
        }

        @Override
        long joins() {
            return FibNaive.value(n + 1) - 1;
        }

        @Override
        void run(Kind kind, Pools pools) {
            fib(kind, pools, n);
        }

        @Override
        void warmStep(int step, Pools pools) {
            int m = small[step % small.length];
            for (Kind k : pools.kinds()) fib(k, pools, m);
        }

        private void fib(Kind kind, Pools pools, int m) {
            long r = switch (kind) {
                case SEQ -> FibNaive.sequential(m);
                case S1 -> onSpindle(pools.s1(), m);
                case S2 -> onSpindle(pools.s2(), m);
                case FJP -> pools.fjp().invoke(new FibNaive.Task(m));
            };
            check(name + " fib(" + m + ") on " + kind.id, r, FibNaive.value(m));
        }

        private long onSpindle(ThreadPool pool, int m) {
            return function ? pool.install(() -> FibNaive.spindleFunction(m)) : pool.install(() -> FibNaive.spindle(m));
        }
    }

    /** The full-size tree, built once for tree-pair and tree-function. */
    private static final class BigTree {
        private final int depth;
        private Tree root;

        BigTree(int depth) {
            this.depth = depth;
        }

        Tree get() {
            if (root == null) {
                long t0 = System.nanoTime();
                root = Tree.balanced(depth);
                long built = System.nanoTime() - t0;
                System.gc(); // twice: on G1 each is a full, compacting collection; the tree ends in the old generation
                System.gc();
                long nodes = TreeSum.nodes(depth);
                long best = Long.MAX_VALUE;
                for (int i = 0; i < 3; i++) {
                    long s0 = System.nanoTime();
                    long sum = TreeSum.sequential(root);
                    best = Math.min(best, System.nanoTime() - s0);
                    check("tree depth " + depth, sum, Tree.expectedSum(nodes));
                }
                System.out.printf(Locale.ROOT, "tree of depth %d built once (%,d nodes) in %.0f ms, then System.gc() "
                        + "x2; sequential sum after settling: %.2f ns/node (best of 3)%n", depth, nodes, built / 1e6,
                        (double) best / nodes);
            }
            return root;
        }

        void drop() {
            root = null;
        }
    }

    /** tree-pair, tree-function (sums = 1, the big tree) and tree1k-function (sums = 100, a 1,023-node tree). */
    private static final class TreeForm extends Form {
        private final int depth;
        private final int sums;
        private final boolean function;
        private final BigTree big; // null for tree1k
        private final Tree[] small;
        private final long[] smallNodes;
        private Tree root;

        TreeForm(String name, int depth, int sums, boolean function, BigTree big) {
            super(name);
            this.depth = depth;
            this.sums = sums;
            this.function = function;
            this.big = big;
            int hi = Math.min(big == null ? TREE1K_DEPTH : 14, depth);
            int lo = Math.min(8, hi);
            small = new Tree[hi - lo + 1];
            smallNodes = new long[small.length];
            for (int i = 0; i < small.length; i++) {
                small[i] = Tree.balanced(lo + i);
                smallNodes[i] = TreeSum.nodes(lo + i);
            }
        }

        @Override
        String description() {
            String join = function ? "Spindle.join(TreeSum::spindleFunction, left, right, Long::sum)"
                    : "Spindle.join(() -> sum(left), () -> sum(right)) -> Pair<Long, Long>";
            return sums == 1
                    ? String.format(Locale.ROOT, "sum of a balanced tree of depth %d (%,d nodes), %s, %,d joins",
                            depth, TreeSum.nodes(depth), join, joins())
                    : String.format(Locale.ROOT, "%d sums of a %,d-node tree (depth %d) in one install / invoke, %s, "
                            + "%,d joins; times are for all %d sums", sums, TreeSum.nodes(depth), depth, join,
                            joins(), sums);
        }

        @Override
        long joins() {
            return TreeSum.joins(depth) * sums;
        }

        @Override
        long nodes() {
            return TreeSum.nodes(depth) * sums;
        }

        @Override
        void setUp() {
            root = big != null ? big.get() : Tree.balanced(depth);
        }

        @Override
        void tearDown() {
            root = null;
        }

        @Override
        void run(Kind kind, Pools pools) {
            sum(kind, pools, root, TreeSum.nodes(depth));
        }

        @Override
        void warmStep(int step, Pools pools) {
            int i = step % small.length;
            for (Kind k : pools.kinds()) sum(k, pools, small[i], smallNodes[i]);
        }

        private void sum(Kind kind, Pools pools, Tree t, long nodes) {
            int n = sums;
            long r = switch (kind) {
                case SEQ -> {
                    long total = 0;
                    for (int i = 0; i < n; i++) total += TreeSum.sequential(t);
                    yield total;
                }
                case S1 -> onSpindle(pools.s1(), t);
                case S2 -> onSpindle(pools.s2(), t);
                case FJP -> n == 1 ? pools.fjp().invoke(new TreeSum.Task(t)) : pools.fjp().invoke(new TreeSum.Trees(t, n));
            };
            check(name + " tree of " + nodes + " nodes x " + n + " on " + kind.id, r, Tree.expectedSum(nodes) * n);
        }

        private long onSpindle(ThreadPool pool, Tree t) {
            int n = sums;
            if (n == 1) {
                return function ? pool.install(() -> TreeSum.spindleFunction(t)) : pool.install(() -> TreeSum.spindle(t));
            }
            return pool.install(() -> {
                long total = 0;
                for (int i = 0; i < n; i++) total += function ? TreeSum.spindleFunction(t) : TreeSum.spindle(t);
                return total;
            });
        }
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length == 1 && args[0].equals("--list-forms")) {
            FORMS.forEach(System.out::println);
            return;
        }
        Options o = Options.parse(args);
        System.out.printf(Locale.ROOT, "JoinProbe: JDK %s (%s), availableProcessors=%d, JVM flags %s, fib=%d, tree=%d "
                        + "(%,d nodes), tree1k=%,d nodes x %d, rounds=%d, warmup-s=%s, rest-ms=%d, pools=%s, "
                        + "forms=%s%n",
                Runtime.version(), System.getProperty("java.vm.name"), Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getRuntimeMXBean().getInputArguments(), o.fib(), o.tree(), TreeSum.nodes(o.tree()),
                TreeSum.nodes(TREE1K_DEPTH), TREE1K_SUMS, o.rounds(), o.warmupSeconds(), o.restMillis(),
                o.onePool() ? "spindle-1" : "all", String.join(",", o.forms()));

        BigTree big = new BigTree(o.tree());
        List<Form> forms = new ArrayList<>();
        for (String f : o.forms()) {
            forms.add(switch (f) {
                case "fib-pair" -> new Fib(f, o.fib(), false);
                case "fib-function" -> new Fib(f, o.fib(), true);
                case "tree-pair" -> new TreeForm(f, o.tree(), 1, false, big);
                case "tree-function" -> new TreeForm(f, o.tree(), 1, true, big);
                case "tree1k-function" -> new TreeForm(f, TREE1K_DEPTH, TREE1K_SUMS, true, null);
                default -> throw new IllegalStateException(f);
            });
        }

        ForkJoinPool fjp = o.onePool() ? null : new ForkJoinPool(2);
        try (ThreadPool s1 = ThreadPool.builder().threads(1).build();
             ThreadPool s2 = o.onePool() ? null : ThreadPool.builder().threads(2).build()) { // null: not closed
            Pools pools = o.onePool() ? new Pools(s1, null, null, List.of(Kind.SEQ, Kind.S1))
                    : new Pools(s1, s2, fjp, List.of(Kind.values()));
            warmUp(forms, pools, o.warmupSeconds());
            List<Summary> summaries = new ArrayList<>();
            for (Form form : forms) {
                form.setUp();
                summaries.add(measure(form, pools, o));
                form.tearDown();
                if (forms.stream().skip(forms.indexOf(form) + 1).noneMatch(f -> f instanceof TreeForm t
                        && t.big != null)) {
                    big.drop();
                }
            }
            printSummary(summaries);
        } finally {
            if (fjp != null) fjp.shutdown();
        }
    }

    /** Warms the forms in turns of at most 200 ms until each had {@code seconds} of small inputs. */
    private static void warmUp(List<Form> forms, Pools pools, double seconds) {
        long budget = (long) (seconds * 1e9);
        long[] spent = new long[forms.size()];
        int[] steps = new int[forms.size()];
        long t0 = System.nanoTime();
        boolean left = budget > 0;
        while (left) {
            left = false;
            for (int i = 0; i < forms.size(); i++) {
                if (spent[i] >= budget) continue;
                long start = System.nanoTime();
                long end = start + Math.min(WARMUP_SLICE_NANOS, budget - spent[i]);
                do {
                    forms.get(i).warmStep(steps[i]++, pools);
                } while (System.nanoTime() < end);
                spent[i] += System.nanoTime() - start;
                left |= spent[i] < budget;
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < forms.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(forms.get(i).name).append(' ').append(steps[i]);
        }
        System.out.printf(Locale.ROOT, "warm-up: %.1f s on small inputs, each step on %s; steps per form: %s%n",
                (System.nanoTime() - t0) / 1e9, pools.kinds().stream().map(k -> k.id).toList(), sb);
    }

    /** One form's headline figures, for the summary table. */
    private record Summary(String form, double seqMs, Stats s1Seq, Stats s2Seq, Stats fjpSeq, Stats s2Fjp,
                           double s1NsPerJoin, double s1Bytes, double s2Bytes, double fjpBytes, int withGc,
                           int windows) {}

    private static Summary measure(Form form, Pools pools, Options o) throws InterruptedException {
        int rounds = o.rounds();
        List<Kind> kinds = pools.kinds();
        double[][] ns = new double[Kind.values().length][rounds];
        int[] poolRuns = new int[Kind.values().length];
        int[] gc = new int[1]; // timed windows with a collection
        boolean all = pools.has(Kind.FJP);
        PoolStats st1 = pools.s1().stats();
        PoolStats st2 = all ? pools.s2().stats() : null;
        long fjpSteals = all ? pools.fjp().getStealCount() : 0;
        for (int r = 0; r < rounds; r++) {
            for (int j = 0; j < kinds.size(); j++) {
                Kind k = kinds.get((r + j) % kinds.size());
                ns[k.ordinal()][r] = timed(form, k, pools, o.restMillis(), gc, poolRuns);
            }
        }
        PoolStats en1 = pools.s1().stats();
        PoolStats en2 = all ? pools.s2().stats() : null;
        long fjpStealsEnd = all ? pools.fjp().getStealCount() : 0;

        double b1 = bytesPerJoin(form, Kind.S1, pools);
        double b2 = all ? bytesPerJoin(form, Kind.S2, pools) : Double.NaN;
        double bf = all ? bytesPerJoin(form, Kind.FJP, pools) : Double.NaN;

        double[] seq = ns[Kind.SEQ.ordinal()];
        double[] s1 = ns[Kind.S1.ordinal()];
        double[] s2 = ns[Kind.S2.ordinal()];
        double[] fj = ns[Kind.FJP.ordinal()];
        Stats s1Seq = Stats.of(ratios(s1, seq));
        Stats s2Seq = all ? Stats.of(ratios(s2, seq)) : null;
        Stats fjpSeq = all ? Stats.of(ratios(fj, seq)) : null;
        Stats s2Fjp = all ? Stats.of(ratios(s2, fj)) : null;
        double[] s1PerJoin = new double[rounds];
        for (int r = 0; r < rounds; r++) s1PerJoin[r] = s1[r] / form.joins();
        Stats s1Ns = Stats.of(s1PerJoin);

        System.out.println();
        System.out.println("### " + form.name + ": " + form.description());
        System.out.println();
        System.out.println("| row | median | min | max |");
        System.out.println("|---|---:|---:|---:|");
        for (Kind k : Kind.values()) {
            if (pools.has(k)) msRow(k.id + " ms", Stats.of(ns[k.ordinal()]));
        }
        ratioRow("spindle-1 ÷ seq", s1Seq);
        if (all) {
            ratioRow("spindle-2 ÷ seq", s2Seq);
            ratioRow("fjp-2 ÷ seq", fjpSeq);
            ratioRow("spindle-2 ÷ fjp-2", s2Fjp);
        }
        ratioRow("spindle-1 ns/join", s1Ns);
        if (form.nodes() > 0) {
            double[] perNode = new double[rounds];
            for (int r = 0; r < rounds; r++) perNode[r] = seq[r] / form.nodes();
            ratioRow("seq ns/node", Stats.of(perNode));
        }
        System.out.println();
        System.out.println("| pool | bytes/join | promotions per timed run | steals per timed run |");
        System.out.println("|---|---:|---:|---:|");
        row("seq", bytes(bytesPerJoin(form, Kind.SEQ, pools)), "-", "-");
        row("spindle-1", bytes(b1), perRun(en1.promotions() - st1.promotions(), poolRuns[Kind.S1.ordinal()]),
                perRun(en1.steals() - st1.steals(), poolRuns[Kind.S1.ordinal()]));
        if (all) {
            row("spindle-2", bytes(b2), perRun(en2.promotions() - st2.promotions(), poolRuns[Kind.S2.ordinal()]),
                    perRun(en2.steals() - st2.steals(), poolRuns[Kind.S2.ordinal()]));
            row("fjp-2", bytes(bf), "-", perRun(fjpStealsEnd - fjpSteals, poolRuns[Kind.FJP.ordinal()]));
        }
        System.out.println();
        int windows = rounds * kinds.size();
        System.out.printf(Locale.ROOT, "timed windows with a GC: %d of %d (kept)%n", gc[0], windows);
        return new Summary(form.name, Stats.of(seq).median() / 1e6, s1Seq, s2Seq, fjpSeq, s2Fjp, s1Ns.median(), b1,
                b2, bf, gc[0], windows);
    }

    /** Rests, then times one run of {@code kind}, counting the window if a collection happened in it. */
    private static double timed(Form form, Kind kind, Pools pools, int restMillis, int[] gc, int[] poolRuns)
            throws InterruptedException {
        if (restMillis > 0) Thread.sleep(restMillis);
        long g0 = gcCount();
        long t0 = System.nanoTime();
        form.run(kind, pools);
        long t = System.nanoTime() - t0;
        if (gcCount() != g0) gc[0]++;
        poolRuns[kind.ordinal()]++;
        return t;
    }

    private static double bytesPerJoin(Form form, Kind kind, Pools pools) {
        long a0 = allocatedBytes();
        for (int i = 0; i < ALLOCATION_RUNS; i++) form.run(kind, pools);
        long a1 = allocatedBytes();
        return (double) (a1 - a0) / ((double) ALLOCATION_RUNS * form.joins());
    }

    private static void printSummary(List<Summary> summaries) {
        System.out.println();
        System.out.println("### Summary (medians of per-round ratios; bytes per join)");
        System.out.println();
        System.out.println("| form | seq ms | spindle-1 ÷ seq | spindle-2 ÷ seq | fjp-2 ÷ seq | spindle-2 ÷ fjp-2 "
                + "| spindle-1 ns/join | B/join spindle-1 | B/join spindle-2 | B/join fjp-2 | timed windows with a "
                + "GC |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Summary s : summaries) {
            System.out.printf(Locale.ROOT, "| %s | %.3f | %.2f | %s | %s | %s | %.2f | %s | %s | %s | %d of %d "
                            + "|%n", s.form(), s.seqMs(), s.s1Seq().median(), median(s.s2Seq()),
                    median(s.fjpSeq()), median(s.s2Fjp()), s.s1NsPerJoin(), bytes(s.s1Bytes()), bytes(s.s2Bytes()),
                    bytes(s.fjpBytes()), s.withGc(), s.windows());
        }
    }

    private static double[] ratios(double[] a, double[] b) {
        double[] r = new double[a.length];
        for (int i = 0; i < a.length; i++) r[i] = a[i] / b[i];
        return r;
    }

    private static void msRow(String name, Stats s) {
        row(name, String.format(Locale.ROOT, "%.3f", s.median() / 1e6), String.format(Locale.ROOT, "%.3f",
                s.min() / 1e6), String.format(Locale.ROOT, "%.3f", s.max() / 1e6));
    }

    private static void ratioRow(String name, Stats s) {
        row(name, String.format(Locale.ROOT, "%.2f", s.median()), String.format(Locale.ROOT, "%.2f", s.min()),
                String.format(Locale.ROOT, "%.2f", s.max()));
    }

    private static void row(String name, String median, String min, String max) {
        System.out.println("| " + name + " | " + median + " | " + min + " | " + max + " |");
    }

    private static String bytes(double perJoin) {
        return Double.isNaN(perJoin) ? "-" : String.format(Locale.ROOT, "%.1f", perJoin);
    }

    /** @return the median to two places, or "-" for a pool this JVM did not run ({@code pools=spindle-1}) */
    private static String median(Stats s) {
        return s == null ? "-" : String.format(Locale.ROOT, "%.2f", s.median());
    }

    private static String perRun(long count, int runs) {
        return String.format(Locale.ROOT, "%.1f", runs == 0 ? 0.0 : (double) count / runs);
    }

    private static void check(String what, long result, long expected) {
        if (result != expected) throw new AssertionError(what + " = " + result + ", expected " + expected);
    }

    private static long gcCount() {
        long n = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, b.getCollectionCount()); // -1 where a collector does not count
        }
        return n;
    }

    /** Heap bytes allocated so far by all live threads (FibProbe counts the same way). */
    static long allocatedBytes() {
        com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long total = 0;
        for (long b : mx.getThreadAllocatedBytes(mx.getAllThreadIds())) {
            total += Math.max(0, b); // -1 for a thread that ended meanwhile
        }
        return total;
    }
}
