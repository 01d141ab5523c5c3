package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Interrupts never break a worker or the pool (docs/DESIGN.md §1.11). */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InterruptTest {

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS), "timed out waiting for a latch");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** Asserts that every worker is alive, takes work, and starts it with a clear interrupt status. */
    private static void assertAllWorkersHealthy(ThreadPool pool) {
        assertAllWorkersHealthy(pool, false);
    }

    /**
     * As {@link #assertAllWorkersHealthy(ThreadPool)}; after interrupts from outside (which may land while a worker is
     * idle, between tasks), every worker first runs one task, after which its status must be clear.
     */
    private static void assertAllWorkersHealthy(ThreadPool pool, boolean interruptedFromOutside) {
        if (interruptedFromOutside) {
            assertEquals(pool.threadCount(), pool.broadcast(ctx -> null).size());
        }
        List<Boolean> flags = pool.broadcast(ctx -> Thread.currentThread().isInterrupted());
        assertEquals(pool.threadCount(), flags.size());
        assertFalse(flags.contains(true), "a task started with the interrupt status of an earlier one: " + flags);
        assertEquals(new Pair<>(1, 2), pool.join(() -> 1, () -> 2));
        assertEquals(7, pool.install(() -> 7));
        AtomicInteger n = new AtomicInteger();
        pool.scope((Scope s) -> {
            for (int i = 0; i < 10; i++) {
                s.spawn(n::incrementAndGet);
            }
        });
        assertEquals(10, n.get());
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void tasksLeavingTheInterruptFlagSetDoNotBreakWorkers(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            for (int round = 0; round < 5; round++) {
                // every worker runs a task that leaves its interrupt status set
                pool.broadcast(ctx -> {
                    Thread.currentThread().interrupt();
                    return null;
                });
                assertAllWorkersHealthy(pool);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void laterTasksSeeAClearInterruptFlag(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.builder().threads(1).build()) {
            for (int i = 0; i < 20; i++) {
                pool.execute(() -> Thread.currentThread().interrupt());
                Future<Boolean> f = pool.submit(() -> Thread.currentThread().isInterrupted());
                assertFalse(f.get(30, TimeUnit.SECONDS), "a task saw the interrupt left by the previous one");
                CountDownLatch done = new CountDownLatch(1);
                pool.spawn(() -> Thread.currentThread().interrupt());
                pool.spawn(done::countDown);
                await(done);
                assertFalse(pool.install(() -> Thread.currentThread().isInterrupted()));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void interruptsLeftBeforeIdlingDoNotBreakSleepingWorkers(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            for (int round = 0; round < 5; round++) {
                pool.broadcast(ctx -> {
                    Thread.currentThread().interrupt();
                    return null;
                });
                sleep(30); // let the workers go idle and fall asleep
                assertAllWorkersHealthy(pool);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void interruptingIdleWorkersFromOutsideDoesNotBreakThem(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            List<Thread> workers = pool.broadcast(ctx -> Thread.currentThread());
            for (int round = 0; round < 10; round++) {
                sleep(round % 2 == 0 ? 30 : 1); // asleep, or on the way to sleep
                for (Thread w : workers) {
                    w.interrupt();
                }
                List<Integer> idx = pool.broadcast(BroadcastContext::index);
                assertEquals(c.threads(), idx.size());
                CountDownLatch done = new CountDownLatch(20);
                for (int i = 0; i < 20; i++) {
                    pool.spawn(done::countDown);
                }
                await(done);
            }
            for (Thread w : workers) {
                assertTrue(w.isAlive(), w.getName() + " died after an interrupt");
            }
            sleep(30);
            assertAllWorkersHealthy(pool, true);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void interruptingWorkersWhileTheyJoinDoesNotBreakTheJoin(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            List<Thread> workers = pool.broadcast(ctx -> Thread.currentThread());
            AtomicInteger stop = new AtomicInteger();
            Thread interrupter = new Thread(() -> {
                while (stop.get() == 0) {
                    for (Thread w : workers) {
                        w.interrupt();
                    }
                    Thread.onSpinWait();
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            interrupter.start();
            try {
                for (int i = 0; i < 20; i++) {
                    assertEquals(610L, pool.install(() -> JoinTest.fib(15)));
                }
            } finally {
                stop.set(1);
                try {
                    interrupter.join();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
            sleep(30);
            assertAllWorkersHealthy(pool, true);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void joinAndScopeCompleteInsideATaskWhoseInterruptFlagIsSet(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            long fib = pool.install(() -> {
                Thread.currentThread().interrupt();
                return JoinTest.fib(15);
            });
            assertEquals(610L, fib);
            int n = pool.install(() -> {
                Thread.currentThread().interrupt();
                AtomicInteger k = new AtomicInteger();
                pool.scope((Scope s) -> {
                    for (int i = 0; i < 20; i++) {
                        s.spawn(() -> {
                            sleepQuietly(1);
                            k.incrementAndGet();
                        });
                    }
                });
                return k.get();
            });
            assertEquals(20, n);
            assertAllWorkersHealthy(pool);
        }
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void cancelWithInterruptThenPoolCarriesOn(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            for (int round = 0; round < 3; round++) {
                CountDownLatch started = new CountDownLatch(1);
                Future<?> f = pool.submit(() -> {
                    started.countDown();
                    // ignore the interrupt: leave the flag set and return
                    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (!Thread.currentThread().isInterrupted() && System.nanoTime() < end) {
                        Thread.onSpinWait();
                    }
                });
                await(started);
                assertTrue(f.cancel(true));
                assertTrue(f.isCancelled());
                sleep(30);
                assertAllWorkersHealthy(pool);
            }
        }
    }
}
