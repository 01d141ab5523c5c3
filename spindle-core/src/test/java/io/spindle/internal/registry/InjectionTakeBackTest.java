package io.spindle.internal.registry;

import io.spindle.PoolStats;
import io.spindle.ThreadPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.ref.WeakReference;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * E1's take-back, deterministically: the sleep protocol's notification of an outside spawn throws (a proxy around the
 * real protocol), so the poster claims its job back and throws. The task never runs, the statistics do not count it,
 * an idle pool's snapshot shows nothing queued (the job's node is dropped by {@code stats()}, not kept with the failed
 * task alive), and the pool still works and terminates; a pool shut down meanwhile, and a scope, still end. The
 * proxy is {@link FailingInjections}; LazyEdgeWaitScan drives the same path at a real stack edge.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InjectionTakeBackTest {
    @Test
    void aSpawnWhoseNotificationThrowsIsTakenBackAndNeverRuns() throws Exception {
        ThreadPool pool = ThreadPool.builder().threads(1).build();
        FailingInjections seam = FailingInjections.install(pool);
        Registry registry = seam.registry;
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch open = new CountDownLatch(0);
        // The worker may be searching when the job becomes visible and claim it first: then the spawn stands and its
        // task runs, correctly. Repeat until a spawn is taken back (its worker asleep, the usual case).
        WeakReference<Runnable> failedTask = null;
        int accepted = 0;
        for (int attempt = 0; failedTask == null; attempt++) {
            assertTrue(attempt < 1000, "no spawn was ever taken back");
            pool.install(() -> null);
            while (!registry.isSleepAtRest()) {
                Thread.sleep(1);
            }
            seam.failNotification(Thread.currentThread(), open);
            failedTask = spawnThatFails(pool, runs);
            if (failedTask == null) {
                accepted++;
            }
        }
        assertEquals(1, registry.withdrawnInjections());
        long executedBefore = pool.stats().jobsExecuted();

        PoolStats idle = pool.stats();
        assertEquals(idle.jobsExecuted(), idle.injected(), "a job taken back is not counted as injected: " + idle);
        assertEquals(0, idle.injectorQueued(), "the taken-back job's node is dropped: " + idle);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (failedTask.get() != null) { // the pool must not keep the failed task alive
            assertTrue(System.nanoTime() - deadline < 0, "the task whose spawn threw is still reachable");
            System.gc();
            Thread.sleep(10);
        }
        pool.install(() -> null); // a later job runs; the taken-back one does not
        assertEquals(executedBefore + 1, pool.stats().jobsExecuted());
        pool.close(); // terminates: the failed spawn's count came back
        assertTrue(pool.isTerminated());
        assertEquals(accepted, runs.get(), "only the spawns that stood ran");
    }

    /**
     * A spawn in flight when the pool is shut down, whose injection then fails: the pool must terminate on its own,
     * though nobody waits for it or asks (a reviewer's case: the owed count was settled only by a wait, and the
     * workers of a pool shut down without one stayed alive for ever).
     */
    @Test
    void aPoolShutDownWithoutAWaitTerminatesAfterAnInFlightSpawnFails() throws Exception {
        ThreadPool pool = ThreadPool.builder().threads(2).build();
        FailingInjections seam = FailingInjections.install(pool);
        CountDownLatch gate = new CountDownLatch(1);
        Throwable[] thrown = new Throwable[1];
        Thread poster = recordingThrows(() -> pool.spawn(() -> { }), thrown);
        seam.failAdd(poster, gate);
        poster.start();
        assertTrue(seam.reached.await(60, TimeUnit.SECONDS), "the spawn never reached the injector");
        pool.shutdown(); // settles nothing: the spawn still holds its count
        gate.countDown(); // now its injection fails, after the shutdown
        poster.join(60_000);
        assertSame(FailingInjections.FAILURE, thrown[0]);
        for (WorkerThread w : seam.registry.workers()) { // no isTerminated, no wait: either would settle the count
            w.join(60_000);
            assertTrue(!w.isAlive(), "a worker of the shut-down pool is still alive: " + w.getName());
        }
    }

    /**
     * A thread that holds none of a scope's counts spawns into it, and its injection fails after the body ended: the
     * scope must still end (a reviewer's case: the owed decrement waited for a decrement that never came).
     */
    @Test
    void aFailedScopeSpawnFromAThreadHoldingNoCountStillLetsTheScopeEnd() throws Exception {
        ThreadPool pool = ThreadPool.builder().threads(2).build();
        FailingInjections seam = FailingInjections.install(pool);
        CountDownLatch gate = new CountDownLatch(1);
        Throwable[] thrown = new Throwable[1];
        Thread[] stranger = new Thread[1];
        Thread opener = new Thread(() -> {
            try {
                seam.reached.await();
                Thread.sleep(200); // lets the body return first: the order that needs the settle (either order passes)
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            gate.countDown();
        });
        opener.start();
        pool.scope(s -> {
            stranger[0] = recordingThrows(() -> s.spawn(() -> { }), thrown);
            seam.failAdd(stranger[0], gate);
            stranger[0].start();
            try {
                assertTrue(seam.reached.await(60, TimeUnit.SECONDS), "the spawn never reached the injector");
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }); // returns only once the stranger's count came back
        stranger[0].join(60_000);
        assertSame(FailingInjections.FAILURE, thrown[0]);
        pool.close();
    }

    /**
     * An injector {@code add} that throws after it linked the job's node (a stack overflow in the queue's tail update):
     * the job is visible, so the spawn must either stand (a worker claimed the job first: the spawn returns and the
     * task runs) or be taken back (the spawn throws and the task never runs), never both. Before, the spawn threw and
     * gave its count back while a worker ran the task: a spawn the caller was told had failed ran, and the pool's
     * count was given back twice.
     */
    @Test
    void anAddThatThrowsAfterLinkingEitherStandsOrIsTakenBack() throws Exception {
        ThreadPool pool = ThreadPool.builder().threads(2).build();
        FailingInjections seam = FailingInjections.install(pool);
        int thrownCount = 0;
        int stood = 0;
        AtomicInteger runs = new AtomicInteger();
        for (int round = 0; round < 200; round++) {
            AtomicInteger ranThisRound = new AtomicInteger();
            CountDownLatch open = new CountDownLatch(round % 2 == 0 ? 0 : 1);
            Throwable[] thrown = new Throwable[1];
            Thread poster = recordingThrows(() -> pool.spawn(() -> {
                ranThisRound.incrementAndGet();
                runs.incrementAndGet();
            }), thrown);
            seam.reached = new CountDownLatch(1);
            seam.failAddAfterLink(poster, open);
            poster.start();
            if (open.getCount() > 0) { // odd rounds: a worker claims the visible job before the add throws
                assertTrue(seam.reached.await(60, TimeUnit.SECONDS), "the spawn never reached the injector");
                // an install wakes a worker, which polls the injector in order: the spawn's node first, then this
                pool.install(() -> null);
                open.countDown();
            }
            poster.join(60_000);
            pool.install(() -> null); // a barrier: the pool ran what it had (injector order: FIFO)
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (thrown[0] == null && ranThisRound.get() == 0 && System.nanoTime() - end < 0) {
                Thread.sleep(1); // a spawn that stood runs its task: wait for it
            }
            if (thrown[0] != null) {
                assertSame(FailingInjections.FAILURE, thrown[0]);
                thrownCount++;
                Thread.sleep(2);
                assertEquals(0, ranThisRound.get(), "round " + round + ": the spawn threw, and its task ran anyway");
            } else {
                stood++;
                assertEquals(1, ranThisRound.get(), "round " + round + ": the spawn stood, and its task did not run");
            }
        }
        assertTrue(thrownCount > 0, "no spawn was ever taken back (stood " + stood + ")");
        assertTrue(stood > 0, "no spawn ever stood (taken back " + thrownCount + ")");
        PoolStats stats = pool.stats();
        assertEquals(stood, runs.get());
        pool.shutdown();
        assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS), "the pool never terminated: " + pool.stats());
        assertEquals(stats.injected() - stood, stats.jobsExecuted() - runs.get(),
                "the barriers' injections ran, and only they besides the spawns that stood: " + stats);
    }

    /** A thread (not started) that runs {@code action} and keeps what it threw in {@code thrown[0]}. */
    private static Thread recordingThrows(Runnable action, Throwable[] thrown) {
        return new Thread(() -> {
            try {
                action.run();
            } catch (Throwable t) {
                thrown[0] = t;
            }
        });
    }

    /**
     * Spawns a task whose notification fails: a weak reference to it if the spawn threw the notification's failure
     * (no strong one is left here), null if a worker claimed the job first and the spawn stood.
     */
    private static WeakReference<Runnable> spawnThatFails(ThreadPool pool, AtomicInteger runs) {
        Runnable task = runs::incrementAndGet;
        try {
            pool.spawn(task);
            return null;
        } catch (OutOfMemoryError thrown) {
            assertSame(FailingInjections.FAILURE, thrown, "the notification's own failure, as it was");
            return new WeakReference<>(task);
        }
    }
}
