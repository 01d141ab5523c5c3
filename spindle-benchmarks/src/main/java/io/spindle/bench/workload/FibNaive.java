package io.spindle.bench.workload;

import io.spindle.Pair;
import io.spindle.Spindle;
import io.spindle.ThreadPool;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

/** fib-naive: fib(n) with a join at every level: fib(30) makes 1,346,268 joins. */
final class FibNaive extends ComputeWorkload {
    private final int n;
    private final boolean viaFunction;

    /**
     * @param viaFunction Spindle joins with {@code join(FibNaive::spindleFunction, n - 1, n - 2, Long::sum)} (no
     *                    closure, no Pair; the Integer arguments come from the JDK's cache) instead of
     *                    {@code join(Supplier, Supplier)}; FJP's and the sequential code are the same
     */
    FibNaive(String name, int n, boolean viaFunction) {
        super(name);
        this.n = n;
        this.viaFunction = viaFunction;
    }

    @Override
    public String description() {
        return String.format("fib(%d) with a join at every level, %,d joins", n, joins())
                + (viaFunction ? " (Spindle: join(FibNaive::fib, n - 1, n - 2, Long::sum), no closure, no Pair)" : "");
    }

    @Override
    long joins() {
        return value(n + 1) - 1; // one per call with n >= 2
    }

    @Override
    boolean reportsBytesPerJoin() {
        return true; // the closures and the Pair of each join: what a lazy join still allocates
    }

    /** fib(12) to fib(20): 232 to 10,945 joins each. */
    @Override
    List<ComputeWorkload> smallInstances() {
        List<ComputeWorkload> small = new ArrayList<>();
        for (int m = Math.min(12, n); m <= Math.min(20, n); m++) {
            small.add(new FibNaive(name() + "-" + m, m, viaFunction));
        }
        return small;
    }

    @Override
    long onSpindle(ThreadPool pool) {
        int m = n;
        return viaFunction ? pool.install(() -> spindleFunction(m)) : pool.install(() -> spindle(m));
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

    static long spindleFunction(int n) {
        if (n < 2) return n;
        return Spindle.join(FibNaive::spindleFunction, n - 1, n - 2, Long::sum);
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
