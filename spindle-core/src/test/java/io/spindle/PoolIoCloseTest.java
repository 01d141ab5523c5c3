package io.spindle;

import static io.spindle.IoFixtures.failure;
import static io.spindle.IoFixtures.get;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Closing and cancelling (docs/DESIGN.md §6, "Failures"): {@link PoolIO#close} fails pending operations at once with
 * {@link AsynchronousCloseException}; a direct {@code close()} fails them within
 * {@link PoolIO#DIRECT_CLOSE_NOTICE_MILLIS} (checked only as a bound with slack, to turn a hang into a failure);
 * {@code cancel} withdraws an operation so that it consumes nothing. None of it reaches the pool's handler (checked by
 * every {@link IoFixtures.IoPool} on close).
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PoolIoCloseTest {
    /** The documented bound plus generous slack for a loaded CI machine: a hang detector, not a timing check. */
    static final Duration DIRECT_CLOSE_BOUND = Duration.ofMillis(PoolIO.DIRECT_CLOSE_NOTICE_MILLIS)
            .plus(Duration.ofSeconds(20));

    private static void assertClosedFailure(Throwable e, boolean throughPoolIo) {
        assertInstanceOf(ClosedChannelException.class, e, "a pending operation on a closed channel");
        if (throughPoolIo) {
            assertInstanceOf(AsynchronousCloseException.class, e, "PoolIO.close documents AsynchronousCloseException");
        }
    }

    /** The peer of a closed channel sees end of stream: the close really released the socket. */
    private static void assertPeerSeesEndOfStream(IoFixtures.IoPool p, SocketChannel peer) {
        Watchdog.run(IoFixtures.HANG, p.ctx(), () -> {
            ByteBuffer b = ByteBuffer.allocate(64 * 1024);
            int r;
            do {
                b.clear();
                r = peer.read(b);
            } while (r > 0);
            assertEquals(-1, r);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void closeThroughPoolIoFailsEveryPendingOperation(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            // a socket with a read, a write and a ready pending
            IoFixtures.Conn c = p.conn();
            CompletableFuture<Integer> read = p.io.read(c.mine(), ByteBuffer.allocate(16));
            IoFixtures.fill(c.mine());
            CompletableFuture<Integer> write = p.io.write(c.mine(),
                    ByteBuffer.allocate(IoFixtures.MORE_THAN_A_SOCKET_HOLDS));
            CompletableFuture<Void> ready = p.io.ready(c.mine(), SelectionKey.OP_READ);
            // a server with an accept pending, started on a worker
            ServerSocketChannel server = p.server();
            CompletableFuture<SocketChannel> accept = p.pool.install(() -> p.io.accept(server));
            // a pipe with a read pending
            Pipe pipe = p.pipe();
            CompletableFuture<Integer> pipeRead = p.io.read(pipe.source(), ByteBuffer.allocate(16));

            p.phase = "close";
            p.io.close(c.mine());
            p.io.close(server);
            p.pool.install(() -> {
                try {
                    p.io.close(pipe.source()); // and from a worker
                } catch (java.io.IOException e) {
                    throw new AssertionError(e);
                }
                return null;
            });
            for (CompletableFuture<?> f : List.of(read, write, ready, accept, pipeRead)) {
                assertClosedFailure(failure(f, p.ctx()), true);
            }
            assertFalse(c.mine().isOpen());
            assertFalse(server.isOpen());
            assertFalse(pipe.source().isOpen());
            p.io.close(c.mine()); // closing a closed channel does nothing
            p.io.close(server);
            assertPeerSeesEndOfStream(p, c.peer());
            // the pool carries on with other channels
            IoFixtures.Conn d = p.conn();
            CompletableFuture<byte[]> r = IoFixtures.readExactly(p.io, d.mine(), 2);
            IoFixtures.writeFully(d.peer(), new byte[] {3, 4});
            assertArrayEquals(new byte[] {3, 4}, get(r, p.ctx()));
        }
    }

    /**
     * PoolIO.close really closes: a pipe's sink that the pool served (its registration still on a poller) and that is
     * closed through PoolIO.close gives the source end of stream, and a socket's peer sees end of stream. (The JDK
     * releases a registered channel's file descriptor only once its key is deregistered by its selector, so a close
     * that leaves the cancelled key in a selector that never selects again leaves the other end waiting forever.)
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void closeThroughPoolIoGivesTheOtherEndEndOfStream(TestPools.Config config) throws Exception {
        checkOtherEndSeesEndOfStream(config, true);
    }

    /**
     * As above with a plain {@code close()} once the pool's operations on the channel all ended (nothing pending, so
     * no sweep is involved): the pool must not keep the channel's file descriptor alive in a selector that sleeps.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void directCloseAfterOperationsEndedGivesTheOtherEndEndOfStream(TestPools.Config config) throws Exception {
        checkOtherEndSeesEndOfStream(config, false);
    }

    /**
     * A read is cancelled while its owner sleeps in its selector (the key stays registered: IO4), then the channel is
     * closed directly with nothing pending anywhere in the pool: the pool must not keep the channel's descriptor open
     * (the JDK closes a registered channel's descriptor only when its selector deregisters the key, and the owner's
     * select has no timeout). Read in /proc/self/fd: the pipe's two descriptors become one. Once from this thread,
     * once from a worker. (A reviewer found the descriptor held for good.)
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void directCloseAfterACancelledReadReleasesTheDescriptor(TestPools.Config config) throws Exception {
        Path fds = Path.of("/proc/self/fd");
        Assumptions.assumeTrue(Files.isDirectory(fds), "needs Linux's /proc/self/fd");
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            for (int round = 0; round < 2; round++) {
                Set<String> before = Set.copyOf(fdTargets(fds).values());
                Pipe pipe = p.pipe();
                // the new pipe's inode (a descriptor number may be reused, an inode not while it is open)
                String pipeTarget = fdTargets(fds).values().stream()
                        .filter(t -> t.startsWith("pipe:") && !before.contains(t)).findFirst().orElseThrow(
                                () -> new AssertionError("no new pipe in /proc/self/fd: " + fdTargets(fds)));
                CompletableFuture<Integer> read = round == 0 ? p.io.read(pipe.source(), ByteBuffer.allocate(8))
                        : p.pool.install(() -> p.io.read(pipe.source(), ByteBuffer.allocate(8)));
                p.awaitAllAsleep();
                assertTrue(read.cancel(false), "the read was pending");
                pipe.source().close();
                p.phase = "the source's descriptor after a cancelled read and a direct close, round " + round;
                // on failure: whether a selector still holds the source's key (the JDK then keeps its descriptor),
                // and every descriptor, in case the pipe found above was not the one the test made
                Watchdog.awaitCondition(() -> fdTargets(fds).values().stream().filter(pipeTarget::equals).count() == 1,
                        IoFixtures.HANG, () -> p.ctx().get() + "\n  the source's key still registered: "
                                + pipe.source().isRegistered() + "; the pipe: " + pipeTarget + "; descriptors: "
                                + new java.util.TreeMap<>(fdTargets(fds)));
            }
        }
    }

    /** This process's open descriptors: number to link target ("pipe:[inode]", "socket:[inode]", ...). */
    private static Map<String, String> fdTargets(Path fds) {
        Map<String, String> targets = new HashMap<>();
        try (DirectoryStream<Path> d = Files.newDirectoryStream(fds)) {
            for (Path fd : d) {
                try {
                    targets.put(fd.getFileName().toString(), Files.readSymbolicLink(fd).toString());
                } catch (java.io.IOException closedMeanwhile) {
                    // the descriptor went between the listing and the read (this listing's own, among others)
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return targets;
    }

    private static void checkOtherEndSeesEndOfStream(TestPools.Config config, boolean throughPoolIo)
            throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            Pipe pipe = p.pipe();
            int n = 1024 * 1024; // more than the pipe's buffer: the sink gets registered with a poller
            byte[] data = IoFixtures.pattern(n, 5);
            CompletableFuture<byte[]> r = IoFixtures.readExactly(p.io, pipe.source(), n);
            assertEquals(n, get(p.io.write(pipe.sink(), ByteBuffer.wrap(data)), p.ctx()));
            assertArrayEquals(data, get(r, p.ctx()));
            CompletableFuture<Integer> eof = p.io.read(pipe.source(), ByteBuffer.allocate(8));
            p.phase = "pipe source waits for end of stream after closing the sink (through PoolIO: "
                    + throughPoolIo + ")";
            if (throughPoolIo) {
                p.io.close(pipe.sink());
            } else {
                pipe.sink().close();
            }
            assertEquals(-1, get(eof, p.ctx()));

            IoFixtures.Conn c = p.conn();
            CompletableFuture<byte[]> in = IoFixtures.readExactly(p.io, c.mine(), 4); // registers the socket
            IoFixtures.writeFully(c.peer(), new byte[] {1, 2, 3, 4});
            get(in, p.ctx());
            p.phase = "socket peer waits for end of stream after close (through PoolIO: " + throughPoolIo + ")";
            if (throughPoolIo) {
                p.io.close(c.mine());
            } else {
                c.mine().close();
            }
            assertPeerSeesEndOfStream(p, c.peer());
        }
    }

    /** A direct close() wakes no selector: pending operations fail at the poller's next sweep, not never. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void directCloseFailsPendingOperationsWithinTheDocumentedNotice(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            CompletableFuture<Integer> read = p.io.read(c.mine(), ByteBuffer.allocate(16));
            Pipe pipe = p.pipe();
            CompletableFuture<Integer> pipeRead = p.pool.install(
                    () -> p.io.read(pipe.source(), ByteBuffer.allocate(16)));
            ServerSocketChannel server = p.server();
            CompletableFuture<SocketChannel> accept = p.io.accept(server);
            // every worker asleep in its wait: nobody is about to look at these channels
            p.awaitAllAsleep();
            p.phase = "direct close";
            c.mine().close();
            pipe.source().close();
            server.close();
            for (CompletableFuture<?> f : List.of(read, pipeRead, accept)) {
                assertClosedFailure(failure(f, DIRECT_CLOSE_BOUND, p.ctx()), false);
            }
            assertPeerSeesEndOfStream(p, c.peer());
        }
    }

    /** A cancelled read consumes nothing: the data sent afterwards goes to the next read. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void cancelWithdrawsAPendingRead(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            for (boolean onWorker : new boolean[] {false, true}) {
                IoFixtures.Conn c = p.conn();
                ByteBuffer stolen = ByteBuffer.allocate(16);
                CompletableFuture<Integer> read = onWorker
                        ? p.pool.install(() -> p.io.read(c.mine(), stolen))
                        : p.io.read(c.mine(), stolen);
                assertTrue(read.cancel(true));
                assertTrue(read.isCancelled());
                IoFixtures.writeFully(c.peer(), new byte[] {10, 20, 30});
                // once the pool has seen the channel readable, a withdrawn read would have fired by now
                get(p.io.ready(c.mine(), SelectionKey.OP_READ), p.ctx());
                assertEquals(0, stolen.position(), "the cancelled read consumed data");
                // the read slot is free again, and the next read gets every byte
                assertArrayEquals(new byte[] {10, 20, 30}, get(IoFixtures.readExactly(p.io, c.mine(), 3), p.ctx()));
                assertTrue(c.mine().isOpen(), "cancel must not close the channel");
            }
        }
    }

    /** A cancelled accept takes no connection; cancelled writes free the write slot. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void cancelWithdrawsAcceptAndWrite(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            ServerSocketChannel server = p.server();
            CompletableFuture<SocketChannel> a = p.io.accept(server);
            assertTrue(a.cancel(false));
            SocketChannel client = p.closing(SocketChannel.open(server.getLocalAddress()));
            get(p.io.ready(server, SelectionKey.OP_ACCEPT), p.ctx());
            SocketChannel accepted = p.closing(get(p.io.accept(server), p.ctx()));
            assertNotNull(accepted, "the connection went to the cancelled accept");
            assertEquals(client.getLocalAddress(), accepted.getRemoteAddress());

            IoFixtures.Conn c = p.conn();
            IoFixtures.fill(c.mine());
            CompletableFuture<Integer> w = p.io.write(c.mine(),
                    ByteBuffer.allocate(IoFixtures.MORE_THAN_A_SOCKET_HOLDS));
            assertTrue(w.cancel(true));
            // no WritePendingException; as large as the first, so it too stays pending (8 bytes once completed on CI)
            CompletableFuture<Integer> w2 = p.io.write(c.mine(),
                    ByteBuffer.allocate(IoFixtures.MORE_THAN_A_SOCKET_HOLDS));
            assertTrue(w2.cancel(true));
            assertTrue(c.mine().isOpen(), "cancel must not close the channel");
        }
    }

    /**
     * Failures stay in the futures: failed operations and failing dependent stages never reach the pool's handler
     * (checked when the pool closes), and the pool carries on.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void failuresNeverReachTheHandler(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            for (int i = 0; i < 9; i++) {
                IoFixtures.Conn c = p.conn();
                CompletableFuture<Integer> read = p.io.read(c.mine(), ByteBuffer.allocate(16));
                CompletableFuture<Integer> stage = read.thenApply(r -> {
                    throw new IllegalStateException("a failing dependent stage");
                });
                if (i % 3 == 0) {
                    p.io.close(c.mine());
                    failure(read, p.ctx());
                } else if (i % 3 == 1) {
                    c.peer().socket().setSoLinger(true, 0);
                    c.peer().close(); // reset: the channel's IOException
                    failure(read, p.ctx());
                } else {
                    IoFixtures.writeFully(c.peer(), new byte[] {1}); // the read succeeds, its stage fails
                    assertEquals(1, get(read, p.ctx()));
                }
                failure(stage, p.ctx());
            }
            assertEquals(3, p.pool.install(() -> 3));
            assertTrue(p.handled.isEmpty(), () -> "reached the handler: " + p.handled);
        }
    }
}
