package io.spindle.internal.registry;

import io.spindle.SleepStrategy;
import io.spindle.ThreadPool;

import java.util.function.IntConsumer;
import java.util.function.IntFunction;

/**
 * A pool's checked configuration, as the public builder assembled it.
 *
 * @param handler       null: the worker thread's own uncaught-exception handler
 * @param onThreadStart null: none
 * @param onThreadExit  null: none
 */
public record PoolConfig(int threads, IntFunction<String> threadName, boolean daemon, long stackSize,
                         SleepStrategy sleepStrategy, Thread.UncaughtExceptionHandler handler,
                         IntConsumer onThreadStart, IntConsumer onThreadExit) {

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
