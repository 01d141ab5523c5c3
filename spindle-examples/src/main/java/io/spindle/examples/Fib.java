package io.spindle.examples;

import io.spindle.Pair;
import io.spindle.Spindle;

import java.util.concurrent.RecursiveTask;

/** Naive Fibonacci with a fork/join at every level: fib(n) makes fib(n + 1) - 1 joins. */
final class Fib {
    private Fib() {}

    /** Spindle: {@code Spindle.join} uses the pool we run on, so call this inside {@code pool.install}. */
    static long spindle(int n) {
        if (n < 2) return n;
        Pair<Long, Long> r = Spindle.join(() -> spindle(n - 1), () -> spindle(n - 2));
        return r.first() + r.second();
    }

    /**
     * ForkJoinPool: fork fib(n - 2), compute fib(n - 1) here, then join; the same shape as {@code Spindle.join},
     * which offers its second closure for stealing and runs its first inline.
     */
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

    /** The expected value, computed in a loop. */
    static long value(int n) {
        long a = 0, b = 1;
        for (int i = 0; i < n; i++) {
            long next = a + b;
            a = b;
            b = next;
        }
        return a;
    }

    /** How many joins the naive recursion makes: one per call with n >= 2. */
    static long joins(int n) {
        return value(n + 1) - 1;
    }
}
