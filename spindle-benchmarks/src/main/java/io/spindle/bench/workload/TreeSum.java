package io.spindle.bench.workload;

import io.spindle.Pair;
import io.spindle.Spindle;
import io.spindle.ThreadPool;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

/**
 * tree-sum and tree-sum-1k: the sum of a balanced binary tree with a join at every inner node (Spice's benchmark).
 * The big tree measures join overhead on pointer-chasing work; the 1,023-node tree measures how well a pool copes
 * with work so small that each tree is mostly join overhead: a run sums it {@code trees} times inside one
 * {@code install} / {@code invoke}, as Spice and Chili measure it, so that the time is the joins' and not the trip
 * into the pool ({@link TinyInstall} times that trip).
 */
final class TreeSum extends ComputeWorkload {
    private final int depth;
    private final int trees;
    private final Form form;
    private final boolean settle;
    private Tree root;

    /** Which of Spindle's join forms the Spindle version uses; FJP's and the sequential code are the same for all. */
    enum Form {
        /** {@code join(Supplier, Supplier)}: a Pair and two boxed sums per join. */
        PAIR(""),
        /** {@code join(LongSupplier, LongSupplier, LongBinaryOperator)}: no Pair, no boxing, two closures. */
        LONG(" (Spindle: join(LongSupplier, LongSupplier, LongBinaryOperator), no Pair, no boxing)"),
        /** {@code join(ToLongFunction, T, T, LongBinaryOperator)} with a static method: no closure either. */
        FUNCTION(" (Spindle: join(TreeSum::sum, left, right, Long::sum), no closure, no Pair, no boxing)");

        final String description;

        Form(String description) {
            this.description = description;
        }
    }

    /**
     * @param trees the tree is summed this many times per run, inside one call into the pool; time_ms is per tree
     */
    TreeSum(String name, int depth, int trees, Form form) {
        this(name, depth, trees, form, true);
    }

    /** @param settle whether setUp lets the tree's layout settle: not for the small trees of the warm-up */
    private TreeSum(String name, int depth, int trees, Form form, boolean settle) {
        super(name);
        if (depth < 1 || trees < 1) throw new IllegalArgumentException("need depth >= 1 and trees >= 1");
        this.depth = depth;
        this.trees = trees;
        this.form = form;
        this.settle = settle;
    }

    @Override
    public String description() {
        String s = String.format("sum of a balanced binary tree of %,d nodes, a join at each of its %,d inner nodes",
                nodes(), joins()) + form.description;
        return trees == 1 ? s : s + String.format("; %,d sums of it inside one install / invoke per run, time_ms is "
                + "per tree", trees);
    }

    long nodes() {
        return nodes(depth);
    }

    static long nodes(int depth) {
        return (1L << depth) - 1;
    }

    @Override
    long joins() {
        return joins(depth);
    }

    /** @return the inner nodes of a balanced tree of {@code 2^depth - 1} nodes: one join each */
    static long joins(int depth) {
        return (1L << (depth - 1)) - 1;
    }

    @Override
    int repetitions() {
        return trees;
    }

    /**
     * Builds the tree, then lets its layout settle: where a collection moves the tree its sequential sum changes
     * (an outside review measured a fresh tree 2-4 times slower than one that young collections had moved), so rows
     * timed before and after the first young collection would time different trees. {@code System.gc()} (a full,
     * compacting collection on G1) moves it into the old generation, where the young collections of the runs leave
     * it alone. The layout it ends in still differs from one JVM to the next (BENCHMARKS.md, "Closing runs (issue
     * 30)": 25 to 161 ms for 2^24 nodes). (Not under {@code -XX:+DisableExplicitGC} or
     * {@code -XX:+ExplicitGCInvokesConcurrent}, which a user may pass through {@code SPINDLE_BENCH_JAVA_OPTS}: then
     * the tree settles only when collections happen to move it.)
     */
    @Override
    public void setUp() {
        root = Tree.balanced(depth);
        if (settle) {
            System.gc();
            System.gc();
        }
    }

    @Override
    public void tearDown() {
        super.tearDown();
        root = null;
    }

    /** Trees of depth 8 up to 14 (or this one's depth), summed up to 10 times per run when this one sums more. */
    @Override
    List<ComputeWorkload> smallInstances() {
        List<ComputeWorkload> small = new ArrayList<>();
        for (int d = Math.min(8, depth); d <= Math.min(14, depth); d++) {
            small.add(new TreeSum(name() + "-" + d, d, Math.min(trees, 10), form, false));
        }
        return small;
    }

    @Override
    boolean reportsBytesPerJoin() {
        return true; // a join per node of data that exists already: every byte is the join's
    }

    @Override
    long onSpindle(ThreadPool pool) {
        Tree r = root;
        int n = trees;
        Form f = form;
        return pool.install(() -> {
            long total = 0;
            for (int i = 0; i < n; i++) {
                total += f == Form.PAIR ? spindle(r) : f == Form.LONG ? spindleLong(r) : spindleFunction(r);
            }
            return total;
        });
    }

    @Override
    long onFjp(ForkJoinPool pool) {
        return pool.invoke(new Trees(root, trees));
    }

    @Override
    long onSequential() {
        long total = 0;
        for (int i = 0; i < trees; i++) total += sequential(root);
        return total;
    }

    @Override
    void verify(long result) {
        expect("tree sum x " + trees, result, Tree.expectedSum(nodes()) * trees);
    }

    static long spindle(Tree t) {
        if (t.left == null) return t.value;
        Pair<Long, Long> r = Spindle.join(() -> spindle(t.left), () -> spindle(t.right));
        return t.value + r.first() + r.second();
    }

    static long spindleLong(Tree t) {
        if (t.left == null) return t.value;
        return t.value + Spindle.join(() -> spindleLong(t.left), () -> spindleLong(t.right), Long::sum);
    }

    static long spindleFunction(Tree t) {
        if (t.left == null) return t.value;
        return t.value + Spindle.join(TreeSum::spindleFunction, t.left, t.right, Long::sum);
    }

    static long sequential(Tree t) {
        if (t.left == null) return t.value;
        return t.value + sequential(t.left) + sequential(t.right);
    }

    /** The FJP version's one call: a task that sums the tree {@code n} times on its worker, as the install does. */
    @SuppressWarnings("serial")
    static final class Trees extends RecursiveTask<Long> {
        private final Tree t;
        private final int n;

        Trees(Tree t, int n) {
            this.t = t;
            this.n = n;
        }

        @Override
        protected Long compute() {
            long total = 0;
            for (int i = 0; i < n; i++) total += new Task(t).compute();
            return total;
        }
    }

    @SuppressWarnings("serial")
    static final class Task extends RecursiveTask<Long> {
        private final Tree t;

        Task(Tree t) {
            this.t = t;
        }

        @Override
        protected Long compute() {
            if (t.left == null) return t.value;
            Task right = new Task(t.right);
            right.fork();
            long left = new Task(t.left).compute();
            return t.value + left + right.join();
        }
    }
}
