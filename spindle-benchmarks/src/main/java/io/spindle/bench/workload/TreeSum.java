package io.spindle.bench.workload;

import io.spindle.Pair;
import io.spindle.Spindle;
import io.spindle.ThreadPool;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

/**
 * tree-sum and tree-sum-1k: the sum of a balanced binary tree with a join at every inner node (Spice's benchmark).
 * The big tree measures join overhead on pointer-chasing work; the 1,023-node tree measures how well a pool copes
 * with work so small that each call is mostly overhead: each repetition is one call from outside
 * ({@code install} / {@code invoke}), as a program would make it.
 */
final class TreeSum extends ComputeWorkload {
    private final int depth;
    private final int reps;
    private Tree root;

    TreeSum(String name, int depth, int reps) {
        super(name);
        this.depth = depth;
        this.reps = reps;
    }

    @Override
    public String description() {
        String s = String.format("sum of a balanced binary tree of %,d nodes, a join at each of its %,d inner nodes",
                nodes(), joins());
        return reps == 1 ? s : s + String.format("; %,d calls per run, time_ms is per call", reps);
    }

    private long nodes() {
        return (1L << depth) - 1;
    }

    @Override
    long joins() {
        return (1L << (depth - 1)) - 1;
    }

    @Override
    int repetitions() {
        return reps;
    }

    @Override
    public void setUp() {
        root = Tree.balanced(depth);
    }

    @Override
    public void tearDown() {
        root = null;
    }

    @Override
    long onSpindle(ThreadPool pool) {
        Tree r = root;
        long total = 0;
        for (int i = 0; i < reps; i++) total += pool.install(() -> spindle(r));
        return total;
    }

    @Override
    long onFjp(ForkJoinPool pool) {
        long total = 0;
        for (int i = 0; i < reps; i++) total += pool.invoke(new Task(root));
        return total;
    }

    @Override
    long onSequential() {
        long total = 0;
        for (int i = 0; i < reps; i++) total += sequential(root);
        return total;
    }

    @Override
    void verify(long result) {
        expect("tree sum x " + reps, result, Tree.expectedSum(nodes()) * reps);
    }

    static long spindle(Tree t) {
        if (t.left == null) return t.value;
        Pair<Long, Long> r = Spindle.join(() -> spindle(t.left), () -> spindle(t.right));
        return t.value + r.first() + r.second();
    }

    static long sequential(Tree t) {
        if (t.left == null) return t.value;
        return t.value + sequential(t.left) + sequential(t.right);
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
