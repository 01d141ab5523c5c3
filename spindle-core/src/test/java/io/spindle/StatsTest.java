package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link ThreadPool#stats()} (SPEC §1 {@link PoolStats}). No timing assertions: counters are polled. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StatsTest {

    /** Polls the pool's stats until {@code condition} holds; fails after 30 s with the last snapshot. */
    private static PoolStats pollUntil(ThreadPool pool, Predicate<PoolStats> condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        PoolStats s = pool.stats();
        while (!condition.test(s)) {
            if (System.nanoTime() > deadline) {
                fail("stats never showed " + what + "; last: " + s);
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            s = pool.stats();
        }
        return s;
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS), "timed out waiting for a latch");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void freshPoolHasExecutedInjectedAndStolenNothing(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            PoolStats s = pool.stats();
            assertEquals(0, s.jobsExecuted(), String.valueOf(s));
            assertEquals(0, s.injected(), String.valueOf(s));
            assertEquals(0, s.steals(), String.valueOf(s));
            assertTrue(s.sleeps() >= 0 && s.wakeups() >= 0, String.valueOf(s));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void externalSpawnsCountAsInjectedAndExecutedJobs(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            int n = 50;
            CountDownLatch done = new CountDownLatch(n);
            for (int i = 0; i < n; i++) {
                pool.spawn(done::countDown);
            }
            await(done);
            PoolStats s = pollUntil(pool, x -> x.jobsExecuted() >= n && x.injected() >= n, "50 jobs run");
            assertEquals(n, s.injected(), "every external spawn is one injected job: " + s);
            assertEquals(n, s.jobsExecuted(), "every external spawn is one executed job: " + s);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void jobsExecutedAndInjectedGrowWithWork(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            PoolStats before = pool.stats();
            pool.install(() -> JoinTest.fib(12));
            pool.submit(() -> 1).get();
            pool.broadcast(ctx -> null);
            PoolStats after = pollUntil(pool,
                    x -> x.jobsExecuted() >= before.jobsExecuted() + 2 + c.threads()
                            && x.injected() >= before.injected() + 2,
                    "install, submit and broadcast counted");
            assertTrue(after.jobsExecuted() > before.jobsExecuted());
            assertTrue(after.injected() > before.injected());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void internalSpawnsAreNotCountedAsInjected(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            PoolStats before = pool.stats();
            pool.install(() -> {
                pool.scope((Scope s) -> {
                    for (int i = 0; i < 100; i++) {
                        s.spawn(() -> { });
                    }
                });
                return null;
            });
            PoolStats after = pollUntil(pool, x -> x.jobsExecuted() >= before.jobsExecuted() + 100,
                    "the 100 scope tasks run");
            long injected = after.injected() - before.injected();
            assertTrue(injected >= 1 && injected < 100,
                    "only the external install is injected, not the tasks spawned on a worker: " + injected);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void idleWorkersSleepAndAreCountedAsSleeping(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            pool.install(() -> 1);
            pollUntil(pool, s -> s.sleeps() > 0, "a sleep after idling");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void postingWorkWakesASleepingWorker(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (pool.stats().wakeups() == 0) {
                if (System.nanoTime() > deadline) {
                    fail("work posted to sleeping workers never counted a wake-up: " + pool.stats());
                }
                // wait until someone sleeps, then post work from outside
                long sleeps = pool.stats().sleeps();
                pollUntil(pool, s -> s.sleeps() > sleeps, "another sleep");
                pool.install(() -> 1);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void singleWorkerNeverSteals(TestPools.Config c) {
        try (ThreadPool pool = c.builder().threads(1).build()) {
            assertEquals(6765L, pool.install(() -> JoinTest.fib(20)));
            pool.scope((Scope s) -> {
                for (int i = 0; i < 50; i++) {
                    s.spawn(() -> JoinTest.fib(5));
                }
            });
            assertEquals(0, pool.stats().steals(), "a lone worker has nobody to steal from");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void countersNeverDecrease(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            Thread load = new Thread(() -> {
                for (int i = 0; i < 20; i++) {
                    pool.install(() -> JoinTest.fib(14));
                }
            });
            load.start();
            PoolStats prev = pool.stats();
            while (load.isAlive()) {
                PoolStats s = pool.stats();
                assertTrue(s.jobsExecuted() >= prev.jobsExecuted(), prev + " -> " + s);
                assertTrue(s.steals() >= prev.steals(), prev + " -> " + s);
                assertTrue(s.injected() >= prev.injected(), prev + " -> " + s);
                assertTrue(s.sleeps() >= prev.sleeps(), prev + " -> " + s);
                assertTrue(s.wakeups() >= prev.wakeups(), prev + " -> " + s);
                prev = s;
                Thread.yield();
            }
            try {
                load.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }
}
