package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ThreadPool#global()} (docs/DESIGN.md §1.11): one lazy instance with the builder's defaults, that never
 * terminates.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GlobalPoolTest {

    private static int expectedGlobalSize() {
        String prop = System.getProperty("spindle.threads");
        if (prop != null) {
            return Integer.parseInt(prop.trim());
        }
        String env = System.getenv("SPINDLE_THREADS");
        if (env != null) {
            return Integer.parseInt(env.trim());
        }
        return Runtime.getRuntime().availableProcessors();
    }

    @Test
    void globalAlwaysReturnsTheSameInstance() throws Exception {
        ThreadPool g = ThreadPool.global();
        assertSame(g, ThreadPool.global());
        int n = 8;
        AtomicReferenceArray<ThreadPool> seen = new AtomicReferenceArray<>(n);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            Thread t = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                seen.set(k, ThreadPool.global());
            });
            threads.add(t);
            t.start();
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < n; i++) {
            assertSame(g, seen.get(i));
        }
        assertSame(g, g.install(ThreadPool::global), "global() differs on a global worker");
    }

    @Test
    void globalSizeFollowsPropertyThenEnvironmentThenProcessors() {
        assertEquals(expectedGlobalSize(), ThreadPool.global().threadCount());
        assertEquals(expectedGlobalSize(), ThreadPool.global().broadcast(ctx -> ctx.threadCount()).size());
    }

    @Test
    void globalUsesTheBuilderDefaults() {
        ThreadPool g = ThreadPool.global();
        assertEquals(SleepStrategy.JOBS_EVENT_COUNTER, g.sleepStrategy());
        assertFalse(g.broadcast(ctx -> Thread.currentThread().isDaemon()).contains(false),
                "global workers must be daemon threads");
    }

    @Test
    void closeAndShutdownOnGlobalDoNothing() throws Exception {
        ThreadPool g = ThreadPool.global();
        g.close();
        g.shutdown();
        assertFalse(g.isShutdown());
        assertFalse(g.isTerminated());
        assertTrue(g.shutdownNow().isEmpty());
        assertFalse(g.isShutdown());
        assertFalse(g.awaitTermination(10, TimeUnit.MILLISECONDS), "the global pool terminated");
        assertEquals(3, g.install(() -> 3));
        assertEquals(4, g.submit(() -> 4).get(30, TimeUnit.SECONDS));
        CountDownLatch spawned = new CountDownLatch(1);
        g.spawn(spawned::countDown);
        assertTrue(spawned.await(30, TimeUnit.SECONDS));
    }

    @Test
    void closeOnGlobalFromTryWithResourcesLeavesItUsable() {
        try (ThreadPool g = ThreadPool.global()) {
            assertEquals(1, g.install(() -> 1));
        }
        assertFalse(ThreadPool.global().isShutdown());
        assertEquals(new Pair<>(1, 2), ThreadPool.global().join(() -> 1, () -> 2));
    }

    @Test
    void closeOnGlobalFromItsOwnWorkerDoesNothing() {
        ThreadPool g = ThreadPool.global();
        g.install(() -> {
            g.close();
            g.shutdown();
            return null;
        });
        assertFalse(g.isShutdown());
        assertEquals(2, g.install(() -> 2));
    }
}
