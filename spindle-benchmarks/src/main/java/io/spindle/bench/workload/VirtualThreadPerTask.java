package io.spindle.bench.workload;

import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The JDK's virtual-thread-per-task executor, reached by reflection: the module compiles with {@code --release 17},
 * where {@code Executors.newVirtualThreadPerTaskExecutor()} does not exist. The runner skips the
 * {@code virtual-threads} contender before JDK 21 ({@code PoolKind.unavailableReason}), so only the tests and a
 * misuse reach the exception.
 */
final class VirtualThreadPerTask {
    /** The JDK's own setting for the parallelism of its virtual-thread scheduler (JDK 21 to 25). */
    static final String PARALLELISM_PROPERTY = "jdk.virtualThreadScheduler.parallelism";

    private VirtualThreadPerTask() {}

    /**
     * @return {@code Executors.newVirtualThreadPerTaskExecutor()}
     * @throws UnsupportedOperationException before JDK 21
     */
    static ExecutorService open() {
        try {
            return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        } catch (NoSuchMethodException e) {
            throw new UnsupportedOperationException("virtual threads need JDK 21 or newer", e);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot make a virtual-thread-per-task executor", e);
        }
    }

    /**
     * @return how many carrier threads the JDK's virtual-thread scheduler runs virtual threads on: the property
     *         {@value #PARALLELISM_PROPERTY} if set, else the available processors, as the JDK decides it. The
     *         scheduler is one per JVM and cannot be sized per executor, so this, not {@code --threads}, is the
     *         virtual threads' "workers"
     */
    static int schedulerParallelism() {
        String set = System.getProperty(PARALLELISM_PROPERTY);
        if (set != null) {
            try {
                return Integer.parseInt(set.trim());
            } catch (NumberFormatException e) {
                throw new IllegalStateException("-D" + PARALLELISM_PROPERTY + " is not a number: '" + set + "'", e);
            }
        }
        return Runtime.getRuntime().availableProcessors();
    }
}
