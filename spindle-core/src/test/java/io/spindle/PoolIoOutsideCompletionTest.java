package io.spindle;

import static io.spindle.IoFixtures.HANG;
import static io.spindle.IoFixtures.failure;
import static io.spindle.IoFixtures.get;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * IO11: a completion from outside an operation ({@code cancel}, {@code complete}, {@code completeExceptionally},
 * {@code orTimeout}, {@code obtrude*}) withdraws it, and never takes what the channel already gave.
 *
 * <p>The deterministic tests hold the only worker of a one-worker pool in a task, so that an operation that finished at
 * its call (the bytes were there, a connection was waiting) sits finished with its job queued and its future not yet
 * completed: the window an outside conformance test hit by racing cancel against readiness (one round in hundreds).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PoolIoOutsideCompletionTest {

    /** Holds the pool's only worker until {@link #close}: finished operations' jobs wait in the queue meanwhile. */
    private static final class HeldWorker implements AutoCloseable {
        private final CountDownLatch release = new CountDownLatch(1);

        HeldWorker(IoFixtures.IoPool p) throws InterruptedException {
            CountDownLatch running = new CountDownLatch(1);
            p.pool.execute(() -> {
                running.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertTrue(running.await(HANG.toMillis(), TimeUnit.MILLISECONDS), p.ctx());
        }

        @Override
        public void close() {
            release.countDown();
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.IoFixtures#oneWorkerConfigs")
    void aCancelOfAReadThatTookItsBytesIsRefusedAndDeliversTheBytesAtOnce(TestPools.Config config)
            throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            Pipe pipe = p.pipe();
            byte[] sent = IoFixtures.pattern(3, 11);
            pipe.sink().write(ByteBuffer.wrap(sent));
            ByteBuffer dst = ByteBuffer.allocate(16);
            try (HeldWorker held = new HeldWorker(p)) {
                // off the pool, bytes there: finishes at the call, its job queued behind the held worker
                CompletableFuture<Integer> read = p.io.read(pipe.source(), dst);
                assertFalse(read.isDone(), "the premise: the read's job waits behind the held worker");
                assertFalse(read.cancel(true), "cancel of a read that took its bytes must be refused");
                assertTrue(read.isDone(), "Future.cancel: done once cancel returned, whatever it returned");
                assertFalse(read.isCancelled());
                assertEquals(3, read.getNow(-1), "the refused cancel delivered the read's own outcome");
                assertArrayEquals(sent, Arrays.copyOf(dst.array(), 3));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.IoFixtures#oneWorkerConfigs")
    void aTimeoutOfAReadThatTookItsBytesDeliversTheBytesAtOnce(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            Pipe pipe = p.pipe();
            pipe.sink().write(ByteBuffer.wrap(new byte[] {5, 6}));
            try (HeldWorker held = new HeldWorker(p)) {
                CompletableFuture<Integer> read = p.io.read(pipe.source(), ByteBuffer.allocate(16));
                assertFalse(read.isDone(), "the premise: the read's job waits behind the held worker");
                assertFalse(read.completeExceptionally(new TimeoutException()), "a timeout's completion is refused");
                assertFalse(read.complete(-7), "and so is any other outside completion");
                // the timeout still ended the wait while the worker stays held: with the bytes, not with a failure
                assertEquals(2, read.getNow(-1));
                CompletableFuture<Integer> timed = p.io.read(pipe.source(), ByteBuffer.allocate(16))
                        .orTimeout(10, TimeUnit.MILLISECONDS);
                assertInstanceOf(TimeoutException.class, failure(timed, p.ctx()), "no bytes: the timeout's failure");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.IoFixtures#oneWorkerConfigs")
    void aCancelOfAnAcceptThatTookItsConnectionIsRefusedAndTheConnectionIsDelivered(TestPools.Config config)
            throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            ServerSocketChannel server = p.server();
            SocketChannel client = p.closing(SocketChannel.open(server.getLocalAddress())); // waits in the backlog
            CompletableFuture<SocketChannel> accept;
            try (HeldWorker held = new HeldWorker(p)) {
                accept = p.io.accept(server); // finishes at the call, job queued
                assertFalse(accept.isDone(), "the premise: the accept's job waits behind the held worker");
                assertFalse(accept.cancel(false), "cancel of an accept that took its connection must be refused");
                assertTrue(accept.isDone());
            }
            SocketChannel accepted = p.closing(get(accept, p.ctx()));
            assertEquals(client.getLocalAddress(), accepted.getRemoteAddress());
            // the job ran after the refused cancel had delivered the connection: it must not have closed it
            client.write(ByteBuffer.wrap(new byte[] {9}));
            ByteBuffer one = ByteBuffer.allocate(1);
            assertEquals(1, get(p.io.read(accepted, one), p.ctx()));
            assertTrue(accepted.isOpen());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.IoFixtures#oneWorkerConfigs")
    void anAcceptedConnectionThatAnObtrudedValueReplacedIsClosedNotLeaked(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            ServerSocketChannel server = p.server();
            SocketChannel client = p.closing(SocketChannel.open(server.getLocalAddress()));
            CompletableFuture<SocketChannel> accept;
            try (HeldWorker held = new HeldWorker(p)) {
                accept = p.io.accept(server);
                assertFalse(accept.isDone(), "the premise: the accept's job waits behind the held worker");
                accept.obtrudeValue(null); // obtrude always completes: the connection then has nobody to go to
            }
            // the job ran and found its result undelivered: it closes the connection, so the client sees the end
            client.socket().setSoTimeout((int) HANG.toMillis());
            assertEquals(-1, client.socket().getInputStream().read(), "the accepted connection must be closed");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.IoFixtures#configs")
    void aReadThatTimedOutIsWithdrawnAndTheNextReadGetsTheBytes(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            Pipe pipe = p.pipe();
            ByteBuffer first = ByteBuffer.allocate(16);
            CompletableFuture<Integer> timedOut = p.io.read(pipe.source(), first).orTimeout(20, TimeUnit.MILLISECONDS);
            assertInstanceOf(TimeoutException.class, failure(timedOut, p.ctx()));
            ByteBuffer second = ByteBuffer.allocate(16);
            CompletableFuture<Integer> next = p.io.read(pipe.source(), second); // no ReadPendingException
            byte[] sent = IoFixtures.pattern(5, 12);
            pipe.sink().write(ByteBuffer.wrap(sent));
            assertEquals(5, get(next, p.ctx()));
            assertArrayEquals(sent, Arrays.copyOf(second.array(), 5));
            assertEquals(0, first.position(), "the timed-out read took nothing");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.IoFixtures#configs")
    void aPendingReadCompletedFromOutsideIsWithdrawn(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            Pipe pipe = p.pipe();
            CompletableFuture<Integer> read = p.io.read(pipe.source(), ByteBuffer.allocate(16));
            assertTrue(read.complete(42), "a pending read's future takes an outside value");
            assertEquals(42, read.join());
            CompletableFuture<Integer> defaulted = p.io.read(pipe.source(), ByteBuffer.allocate(16))
                    .completeOnTimeout(-5, 20, TimeUnit.MILLISECONDS);
            assertEquals(-5, get(defaulted, p.ctx()));
            CompletableFuture<Integer> supplied = p.io.read(pipe.source(), ByteBuffer.allocate(16));
            assertEquals(-6, get(supplied.completeAsync(() -> -6), p.ctx()));
            CompletableFuture<Integer> failedSupplier = p.io.read(pipe.source(), ByteBuffer.allocate(16))
                    .completeAsync(() -> {
                        throw new IllegalStateException("no value");
                    });
            Throwable wrapped = get(failedSupplier.handle((v, e) -> e), p.ctx()); // as stages see it, unwrapped by none
            // as any CompletableFuture's completeAsync: the supplier's exception wrapped in a CompletionException
            assertInstanceOf(java.util.concurrent.CompletionException.class, wrapped);
            assertInstanceOf(IllegalStateException.class, wrapped.getCause());
            ByteBuffer dst = ByteBuffer.allocate(16);
            CompletableFuture<Integer> next = p.io.read(pipe.source(), dst); // the four earlier reads are withdrawn
            pipe.sink().write(ByteBuffer.wrap(new byte[] {7, 8}));
            assertEquals(2, get(next, p.ctx()));
            assertEquals(7, dst.get(0));
        }
    }
}
