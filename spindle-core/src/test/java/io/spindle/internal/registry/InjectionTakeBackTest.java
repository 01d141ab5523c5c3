package io.spindle.internal.registry;

import io.spindle.PoolStats;
import io.spindle.ThreadPool;
import io.spindle.internal.sleep.SleepProtocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * E1's take-back, deterministically: the sleep protocol's notification of an outside spawn throws (a proxy around the
 * real protocol), so the poster claims its job back and throws. The task never runs, the statistics do not count it,
 * an idle pool's snapshot shows nothing queued (the job's node is dropped by {@code stats()}, not kept with the failed
 * task alive), and the pool still works and terminates. LazyEdgeWaitScan drives the same path at a real stack edge.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class InjectionTakeBackTest {
    private static final OutOfMemoryError NOTIFICATION_FAILURE = new OutOfMemoryError("test: notification failed");

    @Test
    void aSpawnWhoseNotificationThrowsIsTakenBackAndNeverRuns() throws Exception {
        ThreadPool pool = ThreadPool.builder().threads(1).build();
        Registry registry = registryOf(pool);
        Field sleepField = Registry.class.getDeclaredField("sleep");
        sleepField.setAccessible(true);
        SleepProtocol real = (SleepProtocol) sleepField.get(registry);
        boolean[] failNext = {false};
        SleepProtocol failing = (SleepProtocol) Proxy.newProxyInstance(SleepProtocol.class.getClassLoader(),
                new Class<?>[] {SleepProtocol.class}, (proxy, method, args) -> {
                    if (method.getName().equals("newInjectedJobs") && failNext[0]) {
                        failNext[0] = false;
                        throw NOTIFICATION_FAILURE; // as a protocol step that rolled itself back
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        sleepField.set(registry, failing);

        AtomicInteger runs = new AtomicInteger();
        pool.install(() -> null); // the worker has run once, and goes back to sleep
        long executedBefore = pool.stats().jobsExecuted();
        long injectedBefore = pool.stats().injected();
        failNext[0] = true;
        WeakReference<Runnable> failedTask = spawnThatFails(pool, runs);
        assertEquals(1, registry.withdrawnInjections());

        PoolStats idle = pool.stats();
        assertEquals(injectedBefore, idle.injected(), "a job taken back is not counted as injected: " + idle);
        assertEquals(0, idle.injectorQueued(), "the taken-back job's node is dropped: " + idle);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (failedTask.get() != null) { // the pool must not keep the failed task alive
            assertTrue(System.nanoTime() - deadline < 0, "the task whose spawn threw is still reachable");
            System.gc();
            Thread.sleep(10);
        }
        pool.install(() -> null); // a later job runs; the taken-back one does not
        assertEquals(0, runs.get(), "the task whose spawn threw ran");
        assertEquals(executedBefore + 1, pool.stats().jobsExecuted());
        pool.close(); // terminates: the failed spawn's count came back
        assertTrue(pool.isTerminated());
        assertEquals(0, runs.get());
    }

    /** Spawns a task whose notification fails; returns a weak reference to it (no strong one is left here). */
    private static WeakReference<Runnable> spawnThatFails(ThreadPool pool, AtomicInteger runs) {
        Runnable task = runs::incrementAndGet;
        OutOfMemoryError thrown = assertThrows(OutOfMemoryError.class, () -> pool.spawn(task));
        assertSame(NOTIFICATION_FAILURE, thrown, "the notification's own failure, as it was");
        return new WeakReference<>(task);
    }

    private static Registry registryOf(ThreadPool pool) throws ReflectiveOperationException {
        Field f = ThreadPool.class.getDeclaredField("registry");
        f.setAccessible(true);
        return (Registry) f.get(pool);
    }
}
