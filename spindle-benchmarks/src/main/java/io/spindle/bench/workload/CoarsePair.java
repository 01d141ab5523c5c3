package io.spindle.bench.workload;

import io.spindle.Pair;
import io.spindle.Spindle;
import io.spindle.ThreadPool;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.TimeUnit;

/**
 * coarse-pair: one join of two sequential halves of about 20 ms of CPU each, with no joins inside (SPEC §4). A lazy
 * join must still run them in parallel on an idle pool (its root join promotes at once): at 2 workers it should take
 * about 20 ms, as FJP does, and never 40. The halves are a fixed number of {@link Burn#steps} calibrated once to 20 ms
 * (not a sleep or a spin on the clock: work that takes longer when its thread has to share a core), and return their
 * state, which each run checks. The sequential version runs both halves, about 40 ms.
 */
final class CoarsePair extends ComputeWorkload {
    /** The intended length of one half. */
    static final long HALF_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final boolean given;
    private long steps;
    private long half; // Burn.steps(steps): what each half returns

    /**
     * @param steps the work per half in {@link Burn#steps} iterations, or 0 to calibrate 20 ms in {@link #setUp}
     *              (the runner calibrates once with {@link #calibrate} and hands the count to the JVMs it starts, so
     *              that every pool does the same work)
     */
    CoarsePair(long steps) {
        super("coarse-pair");
        if (steps < 0) throw new IllegalArgumentException("steps must be >= 0, got " + steps);
        this.given = steps > 0;
        this.steps = steps;
    }

    /** @return steps of {@link Burn#steps} that take about {@link #HALF_NANOS} on this thread, JIT-compiled */
    static long calibrate() {
        return Burn.calibrate(HALF_NANOS);
    }

    @Override
    public String description() {
        String work = given ? String.format("%,d xorshift steps each, about 20 ms on this machine", steps)
                : "a xorshift loop calibrated to about 20 ms each";
        return "one join of two sequential halves (" + work + "), no joins inside; time_ms is per join, the "
                + "sequential version runs both halves";
    }

    @Override
    public void setUp() {
        if (!given) steps = calibrate();
        half = Burn.steps(steps);
    }

    /** @return the work per half, in steps (after {@link #setUp} where it calibrates) */
    long steps() {
        return steps;
    }

    @Override
    long onSpindle(ThreadPool pool) {
        long n = steps;
        return pool.install(() -> {
            Pair<Long, Long> r = Spindle.join(() -> Burn.steps(n), () -> Burn.steps(n));
            return r.first() + r.second();
        });
    }

    @Override
    long onFjp(ForkJoinPool pool) {
        return pool.invoke(new Both(steps));
    }

    @Override
    long onSequential() {
        return Burn.steps(steps) + Burn.steps(steps);
    }

    @Override
    void verify(long result) {
        expect("two halves of " + steps + " steps", result, half + half);
    }

    /** Forks the second half and runs the first itself: the shape of Spindle.join. */
    @SuppressWarnings("serial")
    static final class Both extends RecursiveTask<Long> {
        private final long n;

        Both(long n) {
            this.n = n;
        }

        @Override
        protected Long compute() {
            Half second = new Half(n);
            second.fork();
            long first = Burn.steps(n);
            return first + second.join();
        }
    }

    @SuppressWarnings("serial")
    static final class Half extends RecursiveTask<Long> {
        private final long n;

        Half(long n) {
            this.n = n;
        }

        @Override
        protected Long compute() {
            return Burn.steps(n);
        }
    }
}
