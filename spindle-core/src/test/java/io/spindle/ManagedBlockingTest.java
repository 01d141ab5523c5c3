package io.spindle;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SPEC §8, issue 33's acceptance: while workers block inside {@link Spindle#blocking} or {@link Spindle#managedBlock},
 * queued work keeps running, and the threads that stood in go away after the keep-alive. Each strategy, both join
 * strategies.
 */
class ManagedBlockingTest {
    private static final long HANG_MS = 60_000; // turns a hang into a failure; never a timing assertion

    enum Blocking { BLOCKING, MANAGED_BLOCK }

    static List<Object[]> cases() {
        List<Object[]> out = new ArrayList<>();
        for (SleepStrategy s : TestPools.IMPLEMENTED) {
            for (JoinStrategy j : JoinStrategy.values()) {
                for (Blocking b : Blocking.values()) {
                    out.add(new Object[] {s, j, b});
                }
            }
        }
        return out;
    }

    /** ForkJoinPool's own example of a ManagedBlocker, as a user would have written it for ForkJoinPool. */
    static final class LatchBlocker implements ForkJoinPool.ManagedBlocker {
        private final CountDownLatch latch;

        LatchBlocker(CountDownLatch latch) {
            this.latch = latch;
        }

        @Override
        public boolean block() throws InterruptedException {
            latch.await();
            return true;
        }

        @Override
        public boolean isReleasable() {
            return latch.getCount() == 0;
        }
    }

    static void blockOn(CountDownLatch latch, Blocking how) {
        try {
            if (how == Blocking.BLOCKING) {
                Spindle.blocking(() -> {
                    try {
                        latch.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    return null;
                });
            } else {
                Spindle.managedBlock(new LatchBlocker(latch));
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.MethodSource("cases")
    void queuedWorkRunsWhileEveryWorkerBlocksAndThePoolShrinksBackAfterTheKeepAlive(SleepStrategy s, JoinStrategy j,
            Blocking how) throws Exception {
        ThreadPool pool = ThreadPool.builder().threads(2).sleepStrategy(s).joinStrategy(j)
                .blockingKeepAlive(Duration.ofMillis(200)).build();
        CountDownLatch release = new CountDownLatch(1);
        try {
            CountDownLatch blocked = new CountDownLatch(2);
            List<Future<?>> blockers = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                blockers.add(pool.submit(() -> {
                    blocked.countDown();
                    blockOn(release, how);
                    return null;
                }));
            }
            assertTrue(blocked.await(HANG_MS, TimeUnit.MILLISECONDS), "both blocking tasks started");
            CountDownLatch computed = new CountDownLatch(100);
            AtomicInteger sum = new AtomicInteger();
            for (int i = 0; i < 100; i++) {
                int k = i;
                pool.execute(() -> {
                    sum.addAndGet(fib(15 + k % 5) > 0 ? 1 : 0);
                    computed.countDown();
                });
            }
            assertTrue(computed.await(HANG_MS, TimeUnit.MILLISECONDS),
                    "all 100 compute tasks finished while both workers blocked: " + computed.getCount() + " left");
            assertEquals(100, sum.get());
            assertEquals(1, release.getCount(), "the blocked tasks are still blocked");
            // a blocking task counts down before it calls in: it may hand off only now (the compute tasks ran anyway)
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(HANG_MS);
            while (pool.stats().blockedWorkers() < 2 && System.nanoTime() < until) {
                Thread.sleep(5);
            }
            PoolStats during = pool.stats();
            assertEquals(2, during.blockedWorkers(), "both blocked workers handed off: " + during);
            assertEquals(2, during.standInThreads(), during.toString());
            release.countDown();
            for (Future<?> f : blockers) {
                f.get(HANG_MS, TimeUnit.MILLISECONDS);
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(HANG_MS);
            while (pool.stats().standInThreads() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            PoolStats after = pool.stats();
            assertEquals(0, after.standInThreads(), "back to the workers alone after the keep-alive: " + after);
            assertEquals(0, after.blockedWorkers());
            assertEquals(2, poolThreadsAlive(pool), "threads of the pool alive");
            // and the pool still works
            assertEquals(fib(20), (long) pool.install(() -> fibJoin(20)));
        } finally {
            release.countDown(); // a failed assertion must not leave the blocked tasks blocked for ever
            pool.shutdown();
            assertTrue(pool.awaitTermination(HANG_MS, TimeUnit.MILLISECONDS), () -> "not terminated: " + pool.stats()
                    + "\n" + threadDump());
        }
    }

    static String threadDump() {
        StringBuilder b = new StringBuilder();
        Thread.getAllStackTraces().forEach((t, st) -> {
            if (t.getName().startsWith("spindle")) {
                b.append(t.getName()).append(' ').append(t.getState()).append('\n');
                for (StackTraceElement e : st) {
                    b.append("    ").append(e).append('\n');
                }
            }
        });
        return b.toString();
    }

    /** Threads named as this pool's workers are (the default names: "spindle-N-worker-i"). */
    static long poolThreadsAlive(ThreadPool pool) {
        String prefix = pool.toString().replaceAll(".*name=(spindle-\\d+).*", "$1") + "-worker-";
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith(prefix) && t.isAlive()).count();
    }

    static long fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    static long fibJoin(int n) {
        if (n < 12) {
            return fib(n);
        }
        return Spindle.join(() -> fibJoin(n - 1), () -> fibJoin(n - 2), Long::sum);
    }

    @ParameterizedTest
    @EnumSource(JoinStrategy.class)
    void theOtherHalfOfAJoinRunsWhileTheFirstBlocks(JoinStrategy j) throws Exception {
        ThreadPool pool = ThreadPool.builder().threads(1).joinStrategy(j).build();
        try {
            CountDownLatch bRan = new CountDownLatch(1);
            long r = pool.install(() -> Spindle.join(
                    () -> Spindle.blocking(() -> {
                        try {
                            // b must run elsewhere while a blocks: the only worker handed its index to a stand-in
                            return bRan.await(HANG_MS, TimeUnit.MILLISECONDS) ? 1L : -1L;
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    }),
                    () -> {
                        bRan.countDown();
                        return 2L;
                    },
                    Long::sum));
            assertEquals(3L, r);
        } finally {
            pool.shutdown();
            assertTrue(pool.awaitTermination(HANG_MS, TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void aLockTakenInManagedBlockIsHeldByTheCaller() throws Exception {
        // ForkJoinPool's ManagedLocker example: block() acquires the lock for the calling thread
        ThreadPool pool = ThreadPool.builder().threads(2).build();
        try {
            ReentrantLock lock = new ReentrantLock();
            boolean held = pool.install(() -> {
                try {
                    Spindle.managedBlock(new ForkJoinPool.ManagedBlocker() {
                        boolean hasLock;

                        @Override
                        public boolean block() {
                            if (!hasLock) {
                                lock.lock();
                                hasLock = true;
                            }
                            return true;
                        }

                        @Override
                        public boolean isReleasable() {
                            return hasLock || (hasLock = lock.tryLock());
                        }
                    });
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                try {
                    return lock.isHeldByCurrentThread();
                } finally {
                    lock.unlock();
                }
            });
            assertTrue(held);
        } finally {
            pool.shutdown();
            assertTrue(pool.awaitTermination(HANG_MS, TimeUnit.MILLISECONDS));
        }
    }
}
