package io.spindle.bench.workload;

/**
 * A fixed amount of CPU work, calibrated once to take about a given time. Unlike spinning until a deadline, it takes
 * longer when its thread must share a core, which is the point where a pool's idle workers compete with the program.
 */
final class Burn {
    /** The generator's state before the first step. */
    static final long SEED = 0x9E3779B97F4A7C15L;

    private static volatile long sink; // keeps the JIT from dropping the loop

    private Burn() {}

    /** Runs {@code iterations} steps of a xorshift generator. */
    static void run(long iterations) {
        sink = steps(iterations);
    }

    /**
     * @return the state after {@code iterations} steps of a xorshift generator from a fixed seed: the same work as
     *         {@link #run}, with a result to check (each step depends on the last, so the JIT can shorten nothing)
     */
    static long steps(long iterations) {
        return stepsFrom(SEED, iterations);
    }

    /**
     * @return the state after {@code iterations} more steps from state {@code x}: {@code stepsFrom(stepsFrom(SEED, m),
     *         n) == steps(m + n)}, so the work can be cut into pieces with something between them
     */
    static long stepsFrom(long x, long iterations) {
        for (long i = 0; i < iterations; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    /** @return iterations of {@link #run} that take about {@code nanos} on this thread (best of several tries) */
    static long calibrate(long nanos) {
        long probe = 100_000;
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 50; i++) { // the first tries also get the loop compiled
            long start = System.nanoTime();
            run(probe);
            best = Math.min(best, System.nanoTime() - start);
        }
        return Math.max(1, probe * nanos / Math.max(1, best));
    }
}
