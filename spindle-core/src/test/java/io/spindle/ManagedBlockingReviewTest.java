package io.spindle;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the outside review of managed blocking found (issue 33), kept as regression tests: each failed on the first
 * version. Timeouts only turn a hang into a failure.
 */
class ManagedBlockingReviewTest {
    private static final long HANG_MS = 30_000;

    static boolean awaitIn(CountDownLatch l) {
        try {
            return l.await(HANG_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    static void waitFor(BooleanSupplier condition) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(HANG_MS);
        while (!condition.getAsBoolean() && System.nanoTime() < until) {
            Thread.sleep(5);
        }
    }

    /** {@code depth} joins whose b does nothing, around a join whose a blocks until its own b ran. */
    static boolean nest(int depth, CountDownLatch l) {
        if (depth == 0) {
            boolean[] released = new boolean[1];
            Spindle.join(() -> released[0] = Spindle.blocking(() -> awaitIn(l)), l::countDown);
            return released[0];
        }
        boolean[] r = new boolean[1];
        Spindle.join(() -> r[0] = nest(depth - 1, l), () -> { });
        return r[0];
    }

    /**
     * B2: every latent frame becomes stealable before the call blocks, not only as many as the four promotion slots
     * hold: the newest frame, beyond them, is the one the blocked code waits for. (Only 4 were, and depth 8 hung.)
     */
    @ParameterizedTest
    @EnumSource(JoinStrategy.class)
    void aSiblingUnderMoreLatentFramesThanSlotsRunsWhileTheCallBlocks(JoinStrategy j) {
        try (ThreadPool pool = ThreadPool.builder().threads(2).joinStrategy(j).build()) {
            for (int depth : new int[] {0, 3, 8, 20}) {
                CountDownLatch l = new CountDownLatch(1);
                assertTrue(pool.install(() -> nest(depth, l)), j + " at depth " + depth + ": the sibling never ran");
            }
        }
    }

    /**
     * B3: a detached thread's pushes and promotions are told to the protocol, so a second blocking call in a task
     * (which blocks where it is) still has its sibling run by a woken worker. (They were not, and the call hung.)
     */
    @ParameterizedTest
    @EnumSource(JoinStrategy.class)
    void aSecondBlockingCallInATaskHasItsSiblingRun(JoinStrategy j) throws Exception {
        try (ThreadPool pool = ThreadPool.builder().threads(2).joinStrategy(j).build()) {
            Future<Boolean> f = pool.submit(() -> {
                Spindle.blocking(() -> null); // the first call: this thread is detached from here
                Thread.sleep(50);             // the other workers fall asleep meanwhile
                CountDownLatch l = new CountDownLatch(1);
                boolean[] released = new boolean[1];
                Spindle.join(() -> released[0] = Spindle.blocking(() -> awaitIn(l)), l::countDown);
                return released[0];
            });
            assertTrue(f.get(2 * HANG_MS, TimeUnit.MILLISECONDS), j + ": the second call's sibling never ran");
        }
    }

    /**
     * B3: after a blocking call the task's joins still spread: a half waited for in a plain loop (with the
     * heartbeat a leaf loop calls) runs on another thread. (It could not: nothing of a detached thread was shared.)
     */
    @ParameterizedTest
    @EnumSource(JoinStrategy.class)
    void joinsAfterABlockingCallStillSpread(JoinStrategy j) throws Exception {
        try (ThreadPool pool = ThreadPool.builder().threads(2).joinStrategy(j).build()) {
            Future<Boolean> f = pool.submit(() -> {
                Spindle.blocking(() -> null);
                Thread.sleep(50);
                CountDownLatch l = new CountDownLatch(1);
                boolean[] ranElsewhere = new boolean[1];
                Thread me = Thread.currentThread();
                Spindle.join(() -> {
                    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(HANG_MS);
                    while (l.getCount() > 0 && System.nanoTime() < until) {
                        Spindle.heartbeat(); // a leaf loop's beat: latent halves below it may be promoted
                        Thread.onSpinWait();
                    }
                }, () -> {
                    ranElsewhere[0] = Thread.currentThread() != me;
                    l.countDown();
                });
                return ranElsewhere[0];
            });
            assertTrue(f.get(2 * HANG_MS, TimeUnit.MILLISECONDS), j + ": b ran only after a, on the same thread");
        }
    }

    /**
     * Statistics: a hand-off that replaces an index's holder between the reads of the holder and of the others must
     * not drop the holder's figures (the totals fell by half, tens of thousands of times in 4 s).
     */
    @Test
    void statsTotalsNeverDecreaseAcrossHandOffs() throws Exception {
        List<String> drops = new ArrayList<>();
        try (ThreadPool pool = ThreadPool.builder().threads(1).blockingKeepAlive(Duration.ofSeconds(30)).build()) {
            for (int r = 0; r < 4; r++) { // two threads of index 0 with a history each
                pool.install(() -> {
                    for (int k = 0; k < 2_000; k++) {
                        pool.install(() -> { });
                        Spindle.join(() -> { }, () -> { });
                    }
                    return Spindle.blocking(() -> null);
                });
            }
            CountDownLatch done = new CountDownLatch(1);
            Thread reader = new Thread(() -> {
                long last = 0;
                while (done.getCount() > 0) {
                    long now = pool.stats().jobsExecuted();
                    if (now < last) {
                        synchronized (drops) {
                            drops.add(last + " -> " + now);
                        }
                    }
                    last = Math.max(last, now);
                }
            });
            reader.start();
            for (int k = 0; k < 3_000; k++) {
                pool.install(() -> Spindle.blocking(() -> null)); // index 0 goes back and forth between two threads
            }
            done.countDown();
            reader.join();
        }
        assertTrue(drops.isEmpty(), drops.size() + " drops, e.g. " + drops.subList(0, Math.min(5, drops.size())));
    }

    /**
     * A stand-in is given what the workers inherited at the build, not what the blocking task's thread had set: a
     * request's context class loader must not stay on the index for good.
     */
    @Test
    void aStandInDoesNotInheritTheBlockingTasksContextClassLoader() throws Exception {
        ClassLoader plugin = new URLClassLoader(new URL[0], null);
        try (ThreadPool pool = ThreadPool.builder().threads(1).build()) {
            pool.submit(() -> {
                Thread t = Thread.currentThread();
                ClassLoader saved = t.getContextClassLoader();
                t.setContextClassLoader(plugin);
                try {
                    return Spindle.blocking(() -> null);
                } finally {
                    t.setContextClassLoader(saved);
                }
            }).get(HANG_MS, TimeUnit.MILLISECONDS);
            ClassLoader later = pool.submit(() -> Thread.currentThread().getContextClassLoader())
                    .get(HANG_MS, TimeUnit.MILLISECONDS);
            assertNotSame(plugin, later);
        }
    }

    /**
     * B4: at the cap, an idle spare of another index makes room (a thread serves one index): index 1's blocking call
     * is not refused because index 0 keeps a spare.
     */
    @Test
    void atTheCapAnIdleSpareOfAnotherIndexMakesRoom() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (ThreadPool pool = ThreadPool.builder().threads(2).maxBlockingThreads(1)
                .blockingKeepAlive(Duration.ofSeconds(30)).build()) {
            pool.broadcast(ctx -> ctx.index() == 0 ? Spindle.blocking(() -> "a spare of index 0 stays") : null);
            waitFor(() -> pool.stats().standInThreads() == 1 && pool.stats().blockedWorkers() == 0);
            assertEquals(1, pool.stats().standInThreads());
            Thread t = new Thread(() -> pool.broadcast(ctx -> ctx.index() == 1
                    ? Spindle.blocking(() -> awaitIn(release)) : null));
            t.start();
            waitFor(() -> pool.stats().blockedWorkers() == 1);
            PoolStats s = pool.stats();
            release.countDown();
            t.join();
            assertEquals(1, s.blockedWorkers(), "index 1 handed off: " + s);
        } finally {
            release.countDown();
        }
    }

    /**
     * B3: a task spawned from the exit hook of a spare that retires mid-life (its keep-alive passed) runs: the spare's
     * deque is one nobody scans, so such spawns go through the injector (pushed there, the task was lost and the pool
     * never terminated).
     */
    @Test
    void aSpawnFromARetiringSparesExitHookRuns() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        ThreadPool[] self = new ThreadPool[1];
        ThreadPool pool = ThreadPool.builder().threads(2).blockingKeepAlive(Duration.ofMillis(50))
                .onThreadExit(i -> {
                    if (!self[0].isShutdown()) {
                        Spindle.spawn(ran::countDown); // a spare ending while the pool runs
                    }
                }).build();
        self[0] = pool;
        try {
            pool.install(() -> Spindle.blocking(() -> null)); // leaves a spare, which retires after 50 ms
            assertTrue(ran.await(HANG_MS, TimeUnit.MILLISECONDS), "the exit hook's spawn never ran");
        } finally {
            pool.shutdown(); // not close(): a lost task keeps the pool from terminating, and this must not hang
            assertTrue(pool.awaitTermination(HANG_MS, TimeUnit.MILLISECONDS), "the pool never terminated");
        }
    }

    /** Stand-ins are told apart from their index's worker by name, with no user code called after the build. */
    @Test
    void aStandInIsNamedAfterItsIndexsWorker() throws Exception {
        try (ThreadPool pool = ThreadPool.builder().threads(1).threadName(i -> "app-" + i).build()) {
            String first = pool.install(() -> Thread.currentThread().getName());
            pool.install(() -> Spindle.blocking(() -> null));
            String holder = pool.install(() -> Thread.currentThread().getName());
            assertEquals("app-0", first);
            assertNotEquals(first, holder);
            assertTrue(holder.startsWith("app-0-standin-"), holder);
        }
    }
}
