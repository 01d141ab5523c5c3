package io.spindle.bench.workload;

import io.spindle.Spindle;
import io.spindle.ThreadPool;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/** join-depth-20: a complete binary tree of empty joins, 2^20 - 1 of them: pure join overhead. */
final class JoinDepth extends ComputeWorkload {
    private final int depth;

    JoinDepth(int depth) {
        super("join-depth-" + depth);
        this.depth = depth;
    }

    @Override
    public String description() {
        return String.format("recursive empty join to depth %d, %,d joins", depth, joins());
    }

    @Override
    long joins() {
        return (1L << depth) - 1;
    }

    @Override
    boolean reportsBytesPerJoin() {
        return true; // empty joins: every byte is the join's own
    }

    /** Depths 8 to 14: 255 to 16,383 joins each. */
    @Override
    List<ComputeWorkload> smallInstances() {
        List<ComputeWorkload> small = new ArrayList<>();
        for (int d = Math.min(8, depth); d <= Math.min(14, depth); d++) small.add(new JoinDepth(d));
        return small;
    }

    @Override
    long onSpindle(ThreadPool pool) {
        pool.install(() -> {
            spindle(depth);
            return null;
        });
        return 0;
    }

    @Override
    long onFjp(ForkJoinPool pool) {
        pool.invoke(new Task(depth));
        return 0;
    }

    @Override
    long onSequential() {
        sequential(depth);
        return 0;
    }

    @Override
    void verify(long result) {
        // nothing is computed: the joins are the work
    }

    static void spindle(int depth) {
        if (depth == 0) return;
        Spindle.join(() -> spindle(depth - 1), () -> spindle(depth - 1));
    }

    static void sequential(int depth) {
        if (depth == 0) return;
        sequential(depth - 1);
        sequential(depth - 1);
    }

    @SuppressWarnings("serial")
    static final class Task extends RecursiveAction {
        private final int depth;

        Task(int depth) {
            this.depth = depth;
        }

        @Override
        protected void compute() {
            if (depth == 0) return;
            invokeAll(new Task(depth - 1), new Task(depth - 1));
        }
    }
}
