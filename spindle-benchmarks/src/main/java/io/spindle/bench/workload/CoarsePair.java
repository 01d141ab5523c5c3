package io.spindle.bench.workload;

import io.spindle.Pair;
import io.spindle.Spindle;
import io.spindle.ThreadPool;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.TimeUnit;

/**
 * coarse-pair: one join of two sequential halves of about 20 ms of CPU each, with no joins inside. A lazy
 * join must still run them in parallel on an idle pool (its root join promotes at once): at 2 workers it should take
 * about 20 ms, as FJP does, and never 40. The halves are a fixed number of {@link Burn#steps} calibrated once to 20 ms
 * (not a sleep or a spin on the clock: work that takes longer when its thread has to share a core), and return their
 * state, which each run checks. The sequential version runs both halves, about 40 ms.
 *
 * <p>coarse-nested and coarse-nested-silent put that pair one join deeper, as the first half of a root join whose
 * second half is trivial: the root join shares the trivial half at once, and the worker that runs it is idle from
 * then on, while the pair's own join, checked right after the root's beat, stays latent. The pair's halves are the
 * same loop cut into pieces of {@link #PIECE_STEPS} steps; coarse-nested calls {@code Spindle.heartbeat()} between
 * pieces, so the latent half is promoted within about an interval (lazy joins' LZ10), and coarse-nested-silent does
 * not, so it stays on its worker for the whole first half (about 40 ms at 2 workers). FJP's tasks fork every half at
 * once; the FJP and sequential versions of the two nested rows are the same code.
 */
final class CoarsePair extends ComputeWorkload {
    /** The intended length of one half. */
    static final long HALF_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    /** A piece of a nested half between two heartbeat calls: a few µs of work. */
    static final long PIECE_STEPS = 4_096;
    /** What the nested rows' trivial half returns (a value the check can tell apart from a lost half). */
    private static final long TRIVIAL = 1L;

    /** The three rows: which shape of join, and whether the halves beat. */
    enum Shape {
        PAIR("coarse-pair"),
        NESTED("coarse-nested"),
        NESTED_SILENT("coarse-nested-silent");

        final String workload;

        Shape(String workload) {
            this.workload = workload;
        }
    }

    private final Shape shape;
    private final boolean given;
    private long steps;
    private long half; // Burn.steps(steps): what each half returns

    /**
     * @param steps the work per half in {@link Burn#steps} iterations, or 0 to calibrate 20 ms in {@link #setUp}
     *              (the runner calibrates once with {@link #calibrate} and hands the count to the JVMs it starts, so
     *              that every pool does the same work)
     */
    CoarsePair(long steps) {
        this(Shape.PAIR, steps);
    }

    CoarsePair(Shape shape, long steps) {
        super(shape.workload);
        if (steps < 0) throw new IllegalArgumentException("steps must be >= 0, got " + steps);
        this.shape = shape;
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
        switch (shape) {
            case PAIR:
                return "one join of two sequential halves (" + work + "), no joins inside; time_ms is per join, the "
                        + "sequential version runs both halves";
            case NESTED:
                return "coarse-pair's join as the first half of a root join with a trivial second half; the pair's "
                        + "halves (" + work + ") call Spindle.heartbeat() every " + PIECE_STEPS + " steps";
            default:
                return "coarse-nested without the heartbeat calls: the pair's second half is shared only if a join "
                        + "does it";
        }
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
        if (shape == Shape.PAIR) {
            return pool.install(() -> {
                Pair<Long, Long> r = Spindle.join(() -> Burn.steps(n), () -> Burn.steps(n));
                return r.first() + r.second();
            });
        }
        boolean beats = shape == Shape.NESTED;
        return pool.install(() -> Spindle.join(
                () -> Spindle.join(() -> halfInPieces(n, beats), () -> halfInPieces(n, beats), Long::sum),
                () -> TRIVIAL, Long::sum));
    }

    /**
     * {@code Burn.steps(n)} in pieces of {@link #PIECE_STEPS}, with a heartbeat check between them (LZ10) if
     * {@code beats}: coarse-nested's halves, and coarse-nested-silent's without the checks.
     */
    static long halfInPieces(long n, boolean beats) {
        long x = Burn.SEED;
        for (long done = 0; done < n; done += PIECE_STEPS) {
            x = Burn.stepsFrom(x, Math.min(PIECE_STEPS, n - done));
            if (beats) {
                Spindle.heartbeat();
            }
        }
        return x;
    }

    @Override
    long onFjp(ForkJoinPool pool) {
        return shape == Shape.PAIR ? pool.invoke(new Both(steps)) : pool.invoke(new Nested(steps));
    }

    @Override
    long onSequential() {
        long pair = Burn.steps(steps) + Burn.steps(steps);
        return shape == Shape.PAIR ? pair : pair + TRIVIAL;
    }

    @Override
    void verify(long result) {
        if (shape == Shape.PAIR) {
            expect("two halves of " + steps + " steps", result, half + half);
        } else {
            expect("two halves of " + steps + " steps and the trivial half", result, half + half + TRIVIAL);
        }
    }

    /** The nested shape on FJP: forks the trivial half, then runs coarse-pair's join itself. */
    @SuppressWarnings("serial")
    static final class Nested extends RecursiveTask<Long> {
        private final long n;

        Nested(long n) {
            this.n = n;
        }

        @Override
        protected Long compute() {
            Trivial second = new Trivial();
            second.fork();
            long first = new Both(n).compute();
            return first + second.join();
        }
    }

    @SuppressWarnings("serial")
    static final class Trivial extends RecursiveTask<Long> {
        @Override
        protected Long compute() {
            return TRIVIAL;
        }
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
