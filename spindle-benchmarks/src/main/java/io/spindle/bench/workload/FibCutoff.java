package io.spindle.bench.workload;

import io.spindle.Pair;
import io.spindle.Spindle;
import io.spindle.ThreadPool;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

/** fib-cutoff: fib(35), joining only while n >= 20: coarse tasks, the way real code uses join. */
final class FibCutoff extends ComputeWorkload {
    static final int CUTOFF = 20;
    private final int n;

    FibCutoff(int n) {
        super("fib-cutoff");
        this.n = n;
    }

    @Override
    public String description() {
        return "fib(" + n + "), sequential below n < " + CUTOFF;
    }

    /** fib(21) to fib(26): 2 to 33 joins above the cutoff each, and their leaves' sequential code. */
    @Override
    List<ComputeWorkload> smallInstances() {
        List<ComputeWorkload> small = new ArrayList<>();
        for (int m = Math.min(CUTOFF + 1, n); m <= Math.min(CUTOFF + 6, n); m++) small.add(new FibCutoff(m));
        return small;
    }

    @Override
    long onSpindle(ThreadPool pool) {
        return pool.install(() -> spindle(n));
    }

    @Override
    long onFjp(ForkJoinPool pool) {
        return pool.invoke(new Task(n));
    }

    @Override
    long onSequential() {
        return FibNaive.sequential(n);
    }

    @Override
    void verify(long result) {
        expect("fib(" + n + ")", result, FibNaive.value(n));
    }

    static long spindle(int n) {
        if (n < CUTOFF) return FibNaive.sequential(n);
        Pair<Long, Long> r = Spindle.join(() -> spindle(n - 1), () -> spindle(n - 2));
        return r.first() + r.second();
    }

    @SuppressWarnings("serial")
    static final class Task extends RecursiveTask<Long> {
        private final int n;

        Task(int n) {
            this.n = n;
        }

        @Override
        protected Long compute() {
            if (n < CUTOFF) return FibNaive.sequential(n);
            Task second = new Task(n - 2);
            second.fork();
            long first = new Task(n - 1).compute();
            return first + second.join();
        }
    }
}
