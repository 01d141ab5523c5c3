package io.spindle.internal.registry;

import io.spindle.ThreadPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Field;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * E1's give-back without a call ({@link Termination#owed}): a submission that threw owes its count, and the pool's
 * count is whole again once settled, by the next release, by shutdown, and by a wait for termination that is already
 * waiting when the count becomes owed. LazyEdgeWaitScan drives the same path at a real stack edge.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TerminationOwedTest {

    private static Termination terminationOf(ThreadPool pool) throws ReflectiveOperationException {
        Field f = ThreadPool.class.getDeclaredField("registry");
        f.setAccessible(true);
        Field t = Registry.class.getDeclaredField("termination");
        t.setAccessible(true);
        return (Termination) t.get(f.get(pool));
    }

    private static void owe(Termination t) {
        synchronized (t) { // as Registry's catch blocks do
            t.owed++;
        }
    }

    @Test
    void shutdownSettlesOwedCountsAndTerminatesOnce() {
        AtomicInteger terminated = new AtomicInteger();
        Termination t = new Termination(terminated::incrementAndGet);
        assertTrue(t.tryAcquireExternal());
        assertTrue(t.tryAcquireExternal());
        owe(t);
        owe(t);
        assertEquals(1, t.outstanding(), "the pool's own count only: both submissions owe theirs");
        t.shutdown();
        assertEquals(1, terminated.get());
        assertEquals(0, t.outstanding());
        assertEquals(0, t.owed);
    }

    @Test
    void aReleaseSettlesACountOwedAfterShutdown() {
        AtomicInteger terminated = new AtomicInteger();
        Termination t = new Termination(terminated::incrementAndGet);
        assertTrue(t.tryAcquireExternal()); // a job that will run
        assertTrue(t.tryAcquireExternal()); // a submission in flight, which will fail
        t.shutdown();
        owe(t); // it failed after shutdown's settle
        assertEquals(0, terminated.get());
        t.release(); // the running job ends: its release settles the owed count, and the pool terminates
        assertEquals(1, terminated.get());
        assertEquals(0, t.outstanding());
    }

    @Test
    void noOwedCountsMeansTheOldCounting() {
        AtomicInteger terminated = new AtomicInteger();
        Termination t = new Termination(terminated::incrementAndGet);
        assertTrue(t.tryAcquireExternal());
        t.settleOwed();
        t.shutdown();
        assertEquals(0, terminated.get(), "a job still holds its count");
        t.release();
        assertEquals(1, terminated.get());
        t.settleOwed();
        assertEquals(1, terminated.get(), "termination happens once");
    }

    /** Fails without the sliced wait: nothing else would settle the count, and the wait would time out. */
    @Test
    void aWaitForTerminationSettlesACountOwedWhileItWaits() throws Exception {
        ThreadPool pool = ThreadPool.builder().threads(1).build();
        Termination t = terminationOf(pool);
        assertTrue(t.tryAcquireExternal()); // a submission in flight
        pool.shutdown();
        assertFalse(pool.awaitTermination(100, TimeUnit.MILLISECONDS), "the submission still holds its count");
        Thread failing = new Thread(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            owe(t); // it fails at a stack edge, after the wait below began
        });
        failing.start();
        assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS), "the owed count was never settled");
        assertTrue(pool.isTerminated());
        failing.join();
    }

    /** A reviewer's case: the sliced wait compared wrapped deadlines, and a huge negative timeout waited for ever. */
    @Test
    void aWaitWithAnyNonPositiveTimeoutReturnsAtOnceOnARunningPool() throws Exception {
        try (ThreadPool pool = ThreadPool.builder().threads(1).build()) {
            for (long nanos : new long[] {0, -1, Long.MIN_VALUE + 1, Long.MIN_VALUE}) {
                assertFalse(pool.awaitTermination(nanos, TimeUnit.NANOSECONDS), "timeout " + nanos);
            }
            assertFalse(pool.awaitTermination(Long.MIN_VALUE, TimeUnit.SECONDS));
        }
    }

    @Test
    void isTerminatedSettlesAnOwedCount() throws Exception {
        ThreadPool pool = ThreadPool.builder().threads(1).build();
        Termination t = terminationOf(pool);
        assertTrue(t.tryAcquireExternal());
        pool.shutdown();
        owe(t);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!pool.isTerminated()) { // only isTerminated settles here: fails (times out) without its settle
            assertTrue(System.nanoTime() - deadline < 0, "the owed count was never settled");
            Thread.sleep(10);
        }
    }
}
