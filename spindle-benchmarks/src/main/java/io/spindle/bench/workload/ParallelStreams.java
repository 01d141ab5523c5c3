package io.spindle.bench.workload;

import java.util.Optional;
import java.util.concurrent.ForkJoinPool;

/**
 * What the par-* workloads' ForkJoinPool side is, and the one JVM setting it needs.
 *
 * <p>Their fjp version runs the JDK's own data-parallel code ({@code IntStream.parallel()},
 * {@code Arrays.parallelSort}) inside {@code fjp.submit(...)}. Its tasks then run on that pool's workers, not on the
 * common pool: {@code ForkJoinTask.fork()} called on a ForkJoinPool worker pushes onto that worker's own queue (checked
 * on JDK 17 and 25: the common pool never starts a thread). But how finely the JDK splits is sized by
 * {@link ForkJoinPool#getCommonPoolParallelism()} whichever pool runs the tasks: streams aim at 4 leaves per unit of
 * it (read once, when the stream classes load), and {@code Arrays.parallelSort} sorts sequentially when it is 1, which
 * it is by default on 2 cores (processors - 1). So the runner sets the common pool's parallelism to {@code --threads}
 * before anything loads ForkJoinPool ({@link #matchCommonPool}); the fjp column is then the JDK code as it behaves on a
 * machine whose common pool has that many workers, running on a ForkJoinPool of that many workers.
 */
public final class ParallelStreams {
    /** The JDK's system property for the common pool's parallelism. */
    public static final String COMMON_PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

    private ParallelStreams() {}

    /**
     * Sets the common pool's parallelism to {@code threads}, unless the command line set it, and checks that it took.
     * Call it first thing in main: the common pool reads the property once, when ForkJoinPool is initialised.
     *
     * @return a warning if the common pool's parallelism is not {@code threads} (set otherwise on the command line, or
     *         ForkJoinPool was initialised earlier); the par-* descriptions then state the value they ran with
     */
    public static Optional<String> matchCommonPool(int threads) {
        if (System.getProperty(COMMON_PARALLELISM) == null) {
            System.setProperty(COMMON_PARALLELISM, Integer.toString(threads));
        }
        int actual = ForkJoinPool.getCommonPoolParallelism();
        if (actual == threads) return Optional.empty();
        return Optional.of("the common pool's parallelism is " + actual + ", not --threads " + threads + " (-D"
                + COMMON_PARALLELISM + "=" + System.getProperty(COMMON_PARALLELISM) + "): the par-* workloads' fjp "
                + "rows split for " + actual + " workers");
    }

    /** @return the parenthesis for a par-* description: where the fjp tasks run and what sizes their splitting */
    static String fjpNote() {
        return "its tasks run on the fjp's workers, split for common-pool parallelism "
                + ForkJoinPool.getCommonPoolParallelism();
    }

    /**
     * Fails before the workload starts, with the fix in the message, rather than with an OutOfMemoryError halfway
     * through the run.
     *
     * @param bytes what the workload keeps live at once, roughly
     */
    static void requireHeap(String workload, long bytes) {
        long max = Runtime.getRuntime().maxMemory();
        long wanted = bytes + bytes / 2 + (64L << 20); // headroom for the runner and for garbage between collections
        if (max < wanted) {
            throw new IllegalStateException(String.format("%s needs about %,d MB of heap but the JVM may use only "
                    + "%,d MB: run with SPINDLE_BENCH_JAVA_OPTS=-Xmx%dm (or use --quick)", workload, wanted >> 20,
                    max >> 20, ((wanted >> 20) + 1023) / 1024 * 1024));
        }
    }
}
