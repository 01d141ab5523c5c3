package io.spindle.internal.io;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindle.ThreadPool;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * IO13 under E1/E4: hand-backs at every depth of a stack's edge, and a wait that no select can complete.
 *
 * <p>The first version set {@code queued = true} (the terminate count is the hand-back's job's from then on) before it
 * allocated and queued its waits: an overflow between the two left a count nobody gives back, and the pool never
 * terminated (a review saw it in every one of 6 rounds). It also took the poll lock one frame away from the
 * {@code try} that releases it, and its release loop ({@code while (!deregistrations.isEmpty())}) had no progress
 * condition: a wait that a select cannot complete kept the releaser selecting for ever, about one CPU.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DeregisterAtStackEdgeTest {
    /**
     * A wait whose key no select deregisters (here a valid key: a pending read's) is stepped once per drain and
     * left queued; the drain returns (it loops only while waits came that no pass covered), and a hand-back queued
     * after it, on the same home, still completes.
     */
    @Test
    void aWaitThatNoSelectCompletesDoesNotKeepItsDrainerSelecting() throws Exception {
        try (ThreadPool p = ThreadPool.builder().threads(1).build()) {
            PoolIoImpl io = (PoolIoImpl) p.io();
            IoPoller poller = io.pollers()[0];
            Pipe stuck = Pipe.open();
            stuck.source().configureBlocking(false);
            CompletableFuture<Integer> pending = p.io().read(stuck.source(), ByteBuffer.allocate(1));
            SelectionKey key = awaitKey(poller, stuck);
            Deregistration never = new Deregistration(io, p, 1); // no count taken: it must never run
            Deregistration.Wait w = new Deregistration.Wait(never, key);
            poller.queueHandBack(w);
            Thread drainer = new Thread(() -> poller.drainHandBacks(null), "drainer");
            drainer.start();
            drainer.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(drainer.isAlive(), "the drain never returned: it kept selecting for a wait no select completes");
            Thread poller2 = new Thread(() -> poller.pollNow(null), "poll");
            poller2.start();
            poller2.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(poller2.isAlive(), "a release never returned");
            assertTrue(queue(poller).contains(w), "the wait was completed though its key is registered");
            assertFalse(never.future.isDone());

            Pipe other = Pipe.open();
            other.source().configureBlocking(false);
            CompletableFuture<Integer> r = p.io().read(other.source(), ByteBuffer.allocate(1));
            awaitKey(poller, other);
            assertTrue(r.cancel(true));
            p.io().deregister(other.source()).get(30, TimeUnit.SECONDS); // not stranded behind the stuck wait
            other.source().configureBlocking(true);

            queue(poller).remove(w);
            assertTrue(pending.cancel(true));
            for (Pipe pipe : new Pipe[] {stuck, other}) {
                pipe.source().close();
                pipe.sink().close();
            }
        }
    }

    private static SelectionKey awaitKey(IoPoller poller, Pipe pipe) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        SelectionKey k;
        while ((k = poller.keyFor(pipe.source())) == null || !k.isValid()) {
            assertTrue(System.nanoTime() < deadline, "the home never registered the channel");
            Thread.sleep(1);
        }
        return k;
    }

    private static ReentrantLock pollLock(IoPoller poller) throws ReflectiveOperationException {
        Field f = IoPoller.class.getDeclaredField("pollLock");
        f.setAccessible(true);
        return (ReentrantLock) f.get(poller);
    }

    private static Queue<?> queue(IoPoller poller) throws ReflectiveOperationException {
        Field f = IoPoller.class.getDeclaredField("deregistrations");
        f.setAccessible(true);
        return (Queue<?>) f.get(poller);
    }
}
