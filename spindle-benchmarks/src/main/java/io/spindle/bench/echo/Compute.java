package io.spindle.bench.echo;

import io.spindle.Spindle;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

/**
 * echo-compute's request handler work: a recursive, forked sum of a mixing function over {@code [0, length)}, split
 * in halves down to {@link #LEAF} elements, about 100 µs of CPU in all ({@link #calibrate}). On Spindle the halves are
 * {@code Spindle.join}s made right where the IO completion stage runs (a worker of the pool); on the baselines they are
 * a {@link RecursiveTask} invoked on their ForkJoinPool, the idiomatic way to fork from a server thread.
 *
 * @param length   elements summed per request
 * @param expected the sum, computed once sequentially: every server checks its result against it
 */
public record Compute(int length, long expected) {
    /** Leaves of a few µs: about twenty per request, enough for the second worker to steal some. */
    public static final int LEAF = 4_096;

    private static final long TARGET_NANOS = 100_000;

    /** @return a computation of {@code length} elements, its expected sum computed here */
    public static Compute ofLength(int length) {
        return new Compute(length, sequential(0, length));
    }

    /**
     * @return a computation of about 100 µs on this machine, measured sequentially (after a warm-up, so the JIT has
     *         compiled the leaf loop); the size is then the same for every server in the run
     */
    public static Compute calibrate() {
        int length = 64 * LEAF;
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 200; i++) {
            long t0 = System.nanoTime();
            sequential(0, length);
            best = Math.min(best, System.nanoTime() - t0);
        }
        long scaled = Math.max(LEAF, length * TARGET_NANOS / Math.max(1, best));
        return ofLength((int) Math.min(scaled, 1 << 26));
    }

    /** The Spindle version: runs on the calling worker, joins below it. */
    public long onSpindle() {
        return spindle(0, length);
    }

    /** The ForkJoinPool version, invoked on {@code pool} from a server thread. */
    public long onFjp(ForkJoinPool pool) {
        return pool.invoke(new Task(0, length));
    }

    /** @throws IllegalStateException if {@code result} is not the sum */
    public void check(long result) {
        if (result != expected) {
            throw new IllegalStateException("echo-compute: wrong sum " + result + ", expected " + expected);
        }
    }

    private static long spindle(int lo, int hi) {
        if (hi - lo <= LEAF) return sequential(lo, hi);
        int mid = (lo + hi) >>> 1;
        return Spindle.join(() -> spindle(lo, mid), () -> spindle(mid, hi), Long::sum);
    }

    static long sequential(int lo, int hi) {
        long sum = 0;
        for (int i = lo; i < hi; i++) {
            long z = i * 0x9E3779B97F4A7C15L; // a splitmix64 finaliser: work the JIT cannot fold away
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            sum += z ^ (z >>> 31);
        }
        return sum;
    }

    private static final class Task extends RecursiveTask<Long> {
        private static final long serialVersionUID = 1L;
        private final int lo;
        private final int hi;

        Task(int lo, int hi) {
            this.lo = lo;
            this.hi = hi;
        }

        @Override
        protected Long compute() {
            if (hi - lo <= LEAF) return sequential(lo, hi);
            int mid = (lo + hi) >>> 1;
            Task right = new Task(mid, hi);
            right.fork();
            long left = new Task(lo, mid).compute();
            return left + right.join();
        }
    }
}
