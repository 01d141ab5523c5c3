package io.spindle;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/** Pools and deadlines shared by the tests of {@link Parallel} and its fluent types. */
final class ParallelFixtures {
    /** A parallel operation of these tests takes milliseconds; one that runs for this long has hung. */
    static final Duration DEADLINE = Duration.ofSeconds(45);

    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    private ParallelFixtures() {}

    /** The body of a test, given a fresh pool and the prefix of its workers' thread names. */
    @FunctionalInterface
    interface PoolBody {
        void run(ThreadPool pool, String workerPrefix) throws Throwable;
    }

    /**
     * Runs {@code body} with a fresh pool of configuration {@code c} whose workers' names start with a prefix unique
     * to it. A hang of the body or of the pool's close fails the test with a thread dump instead of hanging the build.
     */
    static void withPool(TestPools.Config c, String test, PoolBody body) {
        String prefix = "par-" + POOL_IDS.incrementAndGet() + "-";
        ThreadPool built = c.builder().threadName(i -> prefix + i).build();
        Supplier<String> ctx = () -> test + " on " + c + ", pool " + built;
        try (Watchdog.Guard g = Watchdog.guard(built, ctx)) {
            Watchdog.run(DEADLINE, ctx, () -> body.run(g.pool(), prefix));
        }
    }

    /** @return whether the calling thread is a worker whose name starts with {@code prefix} */
    static boolean onWorkerOf(String prefix) {
        return Thread.currentThread().getName().startsWith(prefix) && Spindle.currentThreadIndex().isPresent();
    }
}
