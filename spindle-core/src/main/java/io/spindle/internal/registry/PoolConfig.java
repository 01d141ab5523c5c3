package io.spindle.internal.registry;

import io.spindle.JoinStrategy;
import io.spindle.SleepStrategy;
import io.spindle.ThreadPool;

import java.util.function.IntConsumer;
import java.util.function.IntFunction;

/**
 * A pool's checked configuration, as the public builder assembled it.
 *
 * @param joinStrategy  when a join's second half becomes stealable (docs/DESIGN.md §7)
 * @param heartbeatNanos the lazy joins' promotion interval; 0 promotes at every join while a worker is idle
 * @param threadName    null: {@code "<the pool's name>-worker-<index>"} (Registry numbers the pools)
 * @param handler       null: the worker thread's own uncaught-exception handler
 * @param onThreadStart null: none
 * @param onThreadExit  null: none
 * @param maxBlockingThreads threads that may stand in for workers blocked in {@code Spindle.blocking} or
 *                      {@code Spindle.managedBlock} (0: none; such a call then blocks its worker)
 * @param blockingKeepAliveNanos how long a thread that stood in, or came back from a blocking call, waits idle to
 *                      stand in again before it ends
 */
public record PoolConfig(int threads, IntFunction<String> threadName, boolean daemon, long stackSize,
                         SleepStrategy sleepStrategy, JoinStrategy joinStrategy, long heartbeatNanos,
                         Thread.UncaughtExceptionHandler handler,
                         IntConsumer onThreadStart, IntConsumer onThreadExit,
                         int maxBlockingThreads, long blockingKeepAliveNanos) {

    /** As the common {@code ForkJoinPool}'s limit on spare threads. */
    public static final int DEFAULT_MAX_BLOCKING_THREADS = 256;

    /**
     * Short next to ForkJoinPool's 60 s: a stand-in costs a thread's memory while it waits, and starting one again
     * costs about 0.1 ms, small beside the blocking calls that need it (BENCHMARKS.md, "Blocking calls").
     */
    public static final long DEFAULT_BLOCKING_KEEP_ALIVE_NANOS = 5_000_000_000L;

    /**
     * The global pool's size: system property {@code spindle.threads}, else environment variable
     * {@code SPINDLE_THREADS}, else {@code availableProcessors()}.
     *
     * @throws IllegalArgumentException naming the setting and its value if it is not in {@code 1..MAX_THREADS}
     */
    public static int globalThreadCount() {
        String property = System.getProperty("spindle.threads");
        if (property != null) {
            return parseThreads("system property spindle.threads", property);
        }
        String env = System.getenv("SPINDLE_THREADS");
        if (env != null) {
            return parseThreads("environment variable SPINDLE_THREADS", env);
        }
        return Runtime.getRuntime().availableProcessors();
    }

    /** The heartbeat interval when neither the builder nor {@code spindle.heartbeatMicros} sets one: Spice's and Chili's. */
    public static final long DEFAULT_HEARTBEAT_NANOS = 100_000L;

    /**
     * A builder's join strategy unless it sets one: system property {@code spindle.joinStrategy} ({@code lazy} or
     * {@code eager}, any case), else {@link JoinStrategy#LAZY}.
     *
     * @throws IllegalArgumentException naming the property and its value if it is neither
     */
    public static JoinStrategy defaultJoinStrategy() {
        String property = System.getProperty("spindle.joinStrategy");
        if (property == null) {
            return JoinStrategy.LAZY;
        }
        switch (property.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "lazy":
                return JoinStrategy.LAZY;
            case "eager":
                return JoinStrategy.EAGER;
            default:
                throw new IllegalArgumentException(
                        "system property spindle.joinStrategy must be lazy or eager, got \"" + property + "\"");
        }
    }

    /**
     * A builder's heartbeat interval unless it sets one: system property {@code spindle.heartbeatMicros} (an integer
     * number of microseconds, {@code 0..1000000}), else {@link #DEFAULT_HEARTBEAT_NANOS}.
     *
     * @throws IllegalArgumentException naming the property and its value if it is not such a number
     */
    public static long defaultHeartbeatNanos() {
        String property = System.getProperty("spindle.heartbeatMicros");
        if (property == null) {
            return DEFAULT_HEARTBEAT_NANOS;
        }
        long micros;
        try {
            micros = Long.parseLong(property.trim());
        } catch (NumberFormatException e) {
            micros = -1;
        }
        if (micros < 0 || micros > 1_000_000L) {
            throw new IllegalArgumentException("system property spindle.heartbeatMicros must be an integer in "
                    + "0..1000000, got \"" + property + "\"");
        }
        return micros * 1_000L;
    }

    static int parseThreads(String source, String value) {
        int n;
        try {
            n = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 1 || n > ThreadPool.MAX_THREADS) {
            throw new IllegalArgumentException(source + " must be an integer in 1.." + ThreadPool.MAX_THREADS
                    + " (ThreadPool.MAX_THREADS), got \"" + value + "\"");
        }
        return n;
    }
}
