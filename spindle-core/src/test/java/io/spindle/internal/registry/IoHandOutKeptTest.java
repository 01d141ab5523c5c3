package io.spindle.internal.registry;

import io.spindle.PoolIO;
import io.spindle.SleepStrategy;
import io.spindle.ThreadPool;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.Pipe;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * IO6 when the sleep protocol's notification of a finished operation's job throws ({@link FailingInjections}, a
 * proxy around the real protocol): the job stays queued and runs once, its future completes, the notification is
 * owed, and the pool terminates. Before, the injection took the job back as E1 does for a spawn (its poster, a closer
 * or the watchdog, got the throwable instead), and the job stayed marked as claimed, so it never ran: the read's future
 * never completed, and a watchdog's poll that finished two reads handed out neither (the second was never queued).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class IoHandOutKeptTest {
    private static final long WAIT_SECONDS = 30;

    @ParameterizedTest
    @EnumSource(SleepStrategy.class)
    void aCloseFromOutsideWhoseNotificationThrowsStillCompletesTheRead(SleepStrategy strategy) throws Exception {
        ThreadPool pool = ThreadPool.builder().sleepStrategy(strategy).threads(2).build();
        FailingInjections seam = FailingInjections.install(pool);
        Pipe pipe = Pipe.open();
        try {
            pipe.source().configureBlocking(false);
            PoolIO io = pool.io();
            CompletableFuture<Integer> read = io.read(pipe.source(), ByteBuffer.allocate(16));
            waitUntilIdle(seam.registry);
            seam.failNotification(Thread.currentThread(), new CountDownLatch(0));
            io.close(pipe.source()); // fails the read; its job's notification throws here
            assertEquals(0, seam.reached.getCount(), "the close's injection was never notified: the seam missed");
            ExecutionException failed = awaitFailure(read, "the read of a channel closed from outside");
            assertInstanceOf(AsynchronousCloseException.class, failed.getCause());
        } finally {
            pipe.sink().close();
            pipe.source().close();
            shutDownAndAwait(pool);
        }
    }

    /**
     * The injector's {@code add} throws, before or after it linked the node (no memory for a node; a stack overflow
     * inside the queue's offer): the job is owed itself and injected again by the delivery, so the read completes
     * once. Before, the close threw with the read already detached from its channel, and nothing ever completed it
     * (what {@code PoolIoErrorSafetyTest}'s close at every depth of a stack's edge met).
     */
    @ParameterizedTest
    @EnumSource(SleepStrategy.class)
    void aCloseFromOutsideWhoseInjectionCannotQueueStillCompletesTheRead(SleepStrategy strategy) throws Exception {
        for (boolean afterLink : new boolean[] {false, true}) {
            ThreadPool pool = ThreadPool.builder().sleepStrategy(strategy).threads(2).build();
            FailingInjections seam = FailingInjections.install(pool);
            Pipe pipe = Pipe.open();
            AtomicInteger completions = new AtomicInteger();
            try {
                pipe.source().configureBlocking(false);
                PoolIO io = pool.io();
                CompletableFuture<Integer> read = io.read(pipe.source(), ByteBuffer.allocate(16));
                read.whenComplete((n, e) -> completions.incrementAndGet());
                waitUntilIdle(seam.registry);
                if (afterLink) {
                    seam.failAddAfterLink(Thread.currentThread(), new CountDownLatch(0));
                } else {
                    seam.failAdd(Thread.currentThread(), new CountDownLatch(0));
                }
                io.close(pipe.source()); // fails the read; its job's injection cannot queue it here
                assertEquals(0, seam.reached.getCount(), "the close's injection never reached the injector");
                ExecutionException failed = awaitFailure(read, "the read of a channel closed from outside");
                assertInstanceOf(AsynchronousCloseException.class, failed.getCause());
            } finally {
                pipe.sink().close();
                pipe.source().close();
                shutDownAndAwait(pool);
            }
            assertEquals(1, completions.get(), "the read completes once (after link: " + afterLink + ")");
        }
    }

    @ParameterizedTest
    @EnumSource(SleepStrategy.class)
    void aWatchdogPollWhoseNotificationThrowsHandsOutEveryRead(SleepStrategy strategy) throws Exception {
        watchdogPollWhoseNotificationThrows(strategy, 2);
    }

    /**
     * As above with one read, so that no later notification can stand in for the owed one: only the owe, delivered by
     * the watchdog's next step, wakes the idle worker (with the owe's store removed, the read never completes).
     */
    @ParameterizedTest
    @EnumSource(SleepStrategy.class)
    void aWatchdogPollWhoseOnlyNotificationThrowsStillHandsOutItsRead(SleepStrategy strategy) throws Exception {
        watchdogPollWhoseNotificationThrows(strategy, 1);
    }

    private static void watchdogPollWhoseNotificationThrows(SleepStrategy strategy, int readCount) throws Exception {
        ThreadPool pool = ThreadPool.builder().sleepStrategy(strategy).threads(2).build();
        FailingInjections seam = FailingInjections.install(pool);
        Pipe[] pipes = new Pipe[readCount];
        AtomicInteger completions = new AtomicInteger();
        try {
            for (int i = 0; i < readCount; i++) {
                pipes[i] = Pipe.open();
                pipes[i].source().configureBlocking(false);
            }
            PoolIO io = pool.io();
            CountDownLatch placed = new CountDownLatch(1);
            CompletableFuture<?>[] reads = new CompletableFuture<?>[readCount];
            AtomicBoolean release = new AtomicBoolean();
            // One job places the reads (so the channels are homed at its worker) and then stays busy until the test
            // releases it, so that the watchdog polls for it: the reads finish in the watchdog's poll and are injected
            // from there, and only another worker can run their completions meanwhile.
            CompletableFuture<Void> busy = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < readCount; i++) {
                    reads[i] = io.read(pipes[i].source(), ByteBuffer.allocate(16))
                            .whenComplete((n, e) -> completions.incrementAndGet());
                }
                placed.countDown();
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3 * WAIT_SECONDS);
                while (!release.get() && System.nanoTime() - end < 0) {
                    Thread.onSpinWait();
                }
            }, pool);
            try {
                assertTrue(placed.await(WAIT_SECONDS, TimeUnit.SECONDS), "the busy job never placed its reads");
                // The other worker must be asleep, or its search would find the queued completion without any
                // notice, owed or not, and the one-read case could not fail: wait for a sleep after the placement.
                long sleepsAtPlacement = pool.stats().sleeps();
                long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
                while (pool.stats().sleeps() == sleepsAtPlacement && System.nanoTime() - settle < 0) {
                    Thread.sleep(1);
                }
                Thread watchdog = watchdogOf(seam.registry);
                seam.failNotification(watchdog, new CountDownLatch(0));
                for (int i = 0; i < readCount; i++) {
                    pipes[i].sink().write(ByteBuffer.wrap(new byte[] {(byte) i}));
                }
                for (CompletableFuture<?> r : reads) {
                    awaitValue(r, "a read finished by the watchdog's poll, while its home worker is busy");
                }
                assertEquals(0, seam.reached.getCount(), "the watchdog's injection was never notified: the seam missed");
                assertEquals(readCount, completions.get(), "each read completes once");
            } finally {
                release.set(true);
                busy.get(WAIT_SECONDS + 10, TimeUnit.SECONDS);
            }
        } finally {
            for (Pipe p : pipes) {
                if (p != null) {
                    p.sink().close();
                    p.source().close();
                }
            }
            shutDownAndAwait(pool);
        }
        assertEquals(readCount, completions.get(), "each read completes once, and no job of theirs ran twice");
    }

    private static void waitUntilIdle(Registry registry) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!registry.isSleepAtRest()) {
            assertTrue(System.nanoTime() - end < 0, "the pool never came to rest");
            Thread.sleep(1);
        }
    }

    private static Thread watchdogOf(Registry registry) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (true) {
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().equals(registry.name() + "-io-watchdog")) {
                    return t;
                }
            }
            assertTrue(System.nanoTime() - end < 0, "the pool never started its IO watchdog");
            Thread.sleep(1);
        }
    }

    private static ExecutionException awaitFailure(CompletableFuture<?> f, String what) throws Exception {
        try {
            f.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException expected) {
            return expected;
        } catch (TimeoutException stranded) {
            fail(what + " never completed: its job was dropped");
        }
        return fail(what + " completed normally");
    }

    private static void awaitValue(CompletableFuture<?> f, String what) throws Exception {
        assertNotNull(f);
        try {
            f.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException stranded) {
            fail(what + " never completed: its job was dropped, or never handed out");
        }
    }

    private static void shutDownAndAwait(ThreadPool pool) throws InterruptedException {
        pool.shutdown();
        assertTrue(pool.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS),
                "the pool never terminated (a completion's count was never given back): " + pool.stats());
    }
}
