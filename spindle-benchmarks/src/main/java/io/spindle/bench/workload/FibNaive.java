package io.spindle.bench.workload;

import io.spindle.Pair;
import io.spindle.Spindle;
import io.spindle.ThreadPool;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

/** fib-naive: fib(n) with a join at every level: fib(30) makes 1,346,268 joins. */
final class FibNaive extends ComputeWorkload {
    private final int n;

    FibNaive(int n) {
        super("fib-naive");
        this.n = n;
    }

    @Override
    public String description() {
        return String.format("fib(%d) with a join at every level, %,d joins", n, joins());
    }

    @Override
    long joins() {
        return value(n + 1) - 1; // one per call with n >= 2
    }

    @Override
    boolean reportsBytesPerJoin() {
        return true; // the closures and the Pair of each join: what a lazy join still allocates
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
        return sequential(n);
    }

    @Override
    void verify(long result) {
        expect("fib(" + n + ")", result, value(n));
    }

    static long spindle(int n) {
        if (n < 2) return n;
        Pair<Long, Long> r = Spindle.join(() -> spindle(n - 1), () -> spindle(n - 2));
        return r.first() + r.second();
    }

    static long sequential(int n) {
        return n < 2 ? n : sequential(n - 1) + sequential(n - 2);
    }

    /** fib(n) in a loop, for checking. */
    static long value(int n) {
        long a = 0, b = 1;
        for (int i = 0; i < n; i++) {
            long next = a + b;
            a = b;
            b = next;
        }
        return a;
    }

    /** Forks fib(n - 2) and computes fib(n - 1) itself: the shape of Spindle.join (b stealable, a inline). */
    @SuppressWarnings("serial")
    static final class Task extends RecursiveTask<Long> {
        private final int n;

        Task(int n) {
            this.n = n;
        }

        @Override
        protected Long compute() {
            if (n < 2) return (long) n;
            Task second = new Task(n - 2);
            second.fork();
            long first = new Task(n - 1).compute();
            return first + second.join();
        }
    }
}
