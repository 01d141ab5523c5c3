package io.spindle.bench.workload;

import io.spindle.ThreadPool;

import java.util.concurrent.ForkJoinPool;

/**
 * tiny-install: one call into the pool from an outside thread per 1,023-node tree ({@code install} /
 * {@code invoke} of {@link TreeSum}'s tree), which was tree-sum-1k's measurement before tree-sum-1k moved its trees
 * inside one call. The tree takes a few µs; the rest is the round trip: an injection, the wake of a sleeping worker,
 * the wake of the waiting caller. A latency row: it makes no claim about the joins, so it reports no ns_per_join and
 * gets no {@code --join-threads} rows. Its sequential row is the tree alone, the floor of the round trip.
 */
final class TinyInstall extends ComputeWorkload {
    static final int DEPTH = 10;
    private final int calls;
    private Tree root;

    /** @param calls calls into the pool per run; time_ms is the mean per call */
    TinyInstall(int calls) {
        super("tiny-install");
        if (calls < 1) throw new IllegalArgumentException("need calls >= 1");
        this.calls = calls;
    }

    @Override
    public String description() {
        return String.format("one install / invoke from an outside thread per sum of a %,d-node tree (%,d joins); "
                + "%,d calls per run, time_ms is per call: the round trip into the pool", TreeSum.nodes(DEPTH),
                TreeSum.joins(DEPTH), calls);
    }

    @Override
    boolean isJoinWorkload() {
        return false; // a round trip from outside: the joins are not what it measures
    }

    @Override
    int repetitions() {
        return calls;
    }

    @Override
    public void setUp() {
        root = Tree.balanced(DEPTH);
    }

    @Override
    public void tearDown() {
        super.tearDown();
        root = null;
    }

    @Override
    long onSpindle(ThreadPool pool) {
        Tree r = root;
        long total = 0;
        for (int i = 0; i < calls; i++) total += pool.install(() -> TreeSum.spindle(r));
        return total;
    }

    @Override
    long onFjp(ForkJoinPool pool) {
        long total = 0;
        for (int i = 0; i < calls; i++) total += pool.invoke(new TreeSum.Task(root));
        return total;
    }

    @Override
    long onSequential() {
        long total = 0;
        for (int i = 0; i < calls; i++) total += TreeSum.sequential(root);
        return total;
    }

    @Override
    void verify(long result) {
        expect("tree sum x " + calls, result, Tree.expectedSum(TreeSum.nodes(DEPTH)) * calls);
    }
}
