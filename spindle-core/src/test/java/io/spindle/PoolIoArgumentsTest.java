package io.spindle;

import static io.spindle.IoFixtures.get;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.Pipe;
import java.nio.channels.ReadPendingException;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritePendingException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Argument checks at the call (docs/DESIGN.md §6, "Arguments"): each throws at once, on the caller, and leaves no
 * operation behind. Checked from outside the pool and from a worker (a worker's call must throw too, not fail a
 * future).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PoolIoArgumentsTest {

    /** Runs {@code check} off the pool and then on a worker. */
    private static void offAndOnPool(IoFixtures.IoPool p, Executable check) throws Throwable {
        check.execute();
        Throwable[] onPool = {null};
        p.pool.install(() -> {
            try {
                check.execute();
            } catch (Throwable e) {
                onPool[0] = e;
            }
            return null;
        });
        if (onPool[0] != null) {
            throw onPool[0];
        }
    }

    private static void assertNpeNaming(String argument, Executable call) {
        NullPointerException e = assertThrows(NullPointerException.class, call);
        assertTrue(e.getMessage() != null && e.getMessage().contains(argument),
                "the NullPointerException must name the argument '" + argument + "': " + e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void nullArgumentsThrowNullPointerExceptionNamingTheArgument(TestPools.Config config) throws Throwable {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            ServerSocketChannel server = p.server();
            SocketChannel unconnected = p.closing(SocketChannel.open());
            unconnected.configureBlocking(false);
            PoolIO io = p.io;
            offAndOnPool(p, () -> {
                assertNpeNaming("channel", () -> io.ready(null, SelectionKey.OP_READ));
                assertNpeNaming("server", () -> io.accept(null));
                assertNpeNaming("channel", () -> io.connect(null, server.getLocalAddress()));
                assertNpeNaming("remote", () -> io.connect(unconnected, null));
                assertNpeNaming("channel", () -> io.read((SocketChannel) null, ByteBuffer.allocate(1)));
                assertNpeNaming("dst", () -> io.read(c.mine(), null));
                assertNpeNaming("channel", () -> io.write((SocketChannel) null, ByteBuffer.allocate(1)));
                assertNpeNaming("src", () -> io.write(c.mine(), null));
                assertNpeNaming("channel", () -> io.close(null));
            });
            // nothing was left pending: a read and a write go through
            assertUsable(p, c);
            assertFalse(unconnected.isConnectionPending(), "a rejected connect must not start connecting");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void blockingChannelsThrowIllegalBlockingModeException(TestPools.Config config) throws Throwable {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            SocketChannel blocking = c.peer(); // connected, blocking
            ServerSocketChannel server = p.server();
            server.configureBlocking(true);
            SocketChannel unconnected = p.closing(SocketChannel.open()); // blocking by default
            Pipe pipe = Pipe.open();
            p.closing(pipe.source());
            p.closing(pipe.sink());
            PoolIO io = p.io;
            offAndOnPool(p, () -> {
                assertThrows(IllegalBlockingModeException.class, () -> io.read(blocking, ByteBuffer.allocate(1)));
                assertThrows(IllegalBlockingModeException.class, () -> io.write(blocking, ByteBuffer.allocate(1)));
                assertThrows(IllegalBlockingModeException.class, () -> io.ready(blocking, SelectionKey.OP_READ));
                assertThrows(IllegalBlockingModeException.class, () -> io.accept(server));
                assertThrows(IllegalBlockingModeException.class,
                        () -> io.connect(unconnected, server.getLocalAddress()));
                assertThrows(IllegalBlockingModeException.class,
                        () -> io.read(pipe.source(), ByteBuffer.allocate(1)));
                assertThrows(IllegalBlockingModeException.class,
                        () -> io.write(pipe.sink(), ByteBuffer.allocate(1)));
            });
            assertTrue(blocking.isBlocking() && !blocking.isRegistered(), "a rejected call must not register");
            assertFalse(unconnected.isConnectionPending(), "a rejected connect must not start connecting");
            // the blocking peer still works as a blocking channel
            blocking.write(ByteBuffer.wrap(new byte[] {5}));
            assertArrayEquals(new byte[] {5}, get(IoFixtures.readExactly(io, c.mine(), 1), p.ctx()));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void unsupportedOpsThrowIllegalArgumentException(TestPools.Config config) throws Throwable {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            ServerSocketChannel server = p.server();
            Pipe pipe = p.pipe();
            PoolIO io = p.io;
            offAndOnPool(p, () -> {
                assertThrows(IllegalArgumentException.class, () -> io.ready(server, SelectionKey.OP_READ));
                assertThrows(IllegalArgumentException.class, () -> io.ready(server, SelectionKey.OP_WRITE));
                assertThrows(IllegalArgumentException.class, () -> io.ready(c.mine(), SelectionKey.OP_ACCEPT));
                assertThrows(IllegalArgumentException.class, () -> io.ready(pipe.source(), SelectionKey.OP_WRITE));
                assertThrows(IllegalArgumentException.class, () -> io.ready(pipe.sink(), SelectionKey.OP_READ));
                assertThrows(IllegalArgumentException.class, () -> io.ready(c.mine(), 0));
                assertThrows(IllegalArgumentException.class, () -> io.ready(c.mine(), 1 << 30));
                assertThrows(IllegalArgumentException.class,
                        () -> io.ready(c.mine(), SelectionKey.OP_READ | SelectionKey.OP_ACCEPT));
            });
            assertUsable(p, c);
        }
    }

    /** At most one read and one write pending per channel; a read and a write may be pending together. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void secondPendingReadOrWriteThrows(TestPools.Config config) throws Throwable {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            PoolIO io = p.io;
            ByteBuffer dst = ByteBuffer.allocate(4);
            CompletableFuture<Integer> read = io.read(c.mine(), dst); // no data: stays pending
            IoFixtures.fill(c.mine()); // the peer does not read: the next write stays pending
            CompletableFuture<Integer> write = io.write(c.mine(),
                    ByteBuffer.allocate(IoFixtures.MORE_THAN_A_SOCKET_HOLDS));
            assertFalse(read.isDone(), "read completed with no data sent: " + read);
            assertFalse(write.isDone(), "write completed into a full send buffer: " + write);
            offAndOnPool(p, () -> {
                assertThrows(ReadPendingException.class, () -> io.read(c.mine(), ByteBuffer.allocate(4)));
                assertThrows(WritePendingException.class, () -> io.write(c.mine(), ByteBuffer.allocate(4)));
            });
            // the first ones are untouched and complete normally
            IoFixtures.writeFully(c.peer(), new byte[] {1, 2, 3, 4});
            int r = get(read, p.ctx());
            assertTrue(r >= 1 && r <= 4, "read " + r);
            c.peer().configureBlocking(false);
            ByteBuffer drain = ByteBuffer.allocate(256 * 1024);
            long deadline = System.nanoTime() + IoFixtures.HANG.toNanos();
            while (!write.isDone()) { // drain the peer until the pending write got through
                assertTrue(System.nanoTime() - deadline < 0, () -> "HANG: pending write never completed; "
                        + p.ctx().get());
                drain.clear();
                if (c.peer().read(drain) == 0) {
                    Thread.onSpinWait();
                }
            }
            assertEquals(IoFixtures.MORE_THAN_A_SOCKET_HOLDS, get(write, p.ctx()));
            // and after completion the next ones are accepted again (pipes too)
            Pipe pipe = p.pipe();
            CompletableFuture<Integer> pr = io.read(pipe.source(), ByteBuffer.allocate(4));
            assertThrows(ReadPendingException.class, () -> io.read(pipe.source(), ByteBuffer.allocate(4)));
            pipe.sink().write(ByteBuffer.wrap(new byte[] {7}));
            assertEquals(1, get(pr, p.ctx()));
            pr = io.read(pipe.source(), ByteBuffer.allocate(4));
            pipe.sink().write(ByteBuffer.wrap(new byte[] {8}));
            assertEquals(1, get(pr, p.ctx()));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void callsAfterShutdownThrowRejectedExecutionException(TestPools.Config config) throws Throwable {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            ServerSocketChannel server = p.server();
            Pipe pipe = p.pipe();
            SocketChannel unconnected = p.closing(SocketChannel.open());
            unconnected.configureBlocking(false);
            PoolIO io = p.io;
            String name = ShutdownTest.poolName(p.pool);
            p.pool.shutdown();
            assertSame(io, p.pool.io(), "io() returns the same instance, also after shutdown");
            // each message names the operation and the pool, and that the pool is shut down; nothing internal
            assertRejected("PoolIO.read", name, () -> io.read(c.mine(), ByteBuffer.allocate(1)));
            assertRejected("PoolIO.read", name, () -> io.read(c.mine(), ByteBuffer.allocate(0))); // places nothing
            assertRejected("PoolIO.write", name, () -> io.write(c.mine(), ByteBuffer.allocate(1)));
            assertRejected("PoolIO.ready", name, () -> io.ready(c.mine(), SelectionKey.OP_READ));
            assertRejected("PoolIO.accept", name, () -> io.accept(server));
            assertRejected("PoolIO.connect", name,
                    () -> io.connect(unconnected, new InetSocketAddress(InetAddress.getLoopbackAddress(), 1)));
            assertRejected("PoolIO.read", name, () -> io.read(pipe.source(), ByteBuffer.allocate(1)));
            assertRejected("PoolIO.write", name, () -> io.write(pipe.sink(), ByteBuffer.allocate(1)));
            assertRejected("PoolIO.deregister", name, () -> io.deregister(pipe.source()));
            assertTrue(c.mine().isOpen(), "a rejected call must not close the channel");
        }
    }

    private static void assertRejected(String operation, String pool, Executable call) {
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class, call);
        assertEquals(operation + " rejected: pool " + pool + " is shut down; its IO starts no new operation",
                e.getMessage());
    }

    /** A read and a write go through on {@code c}: the checks above left nothing pending. */
    private static void assertUsable(IoFixtures.IoPool p, IoFixtures.Conn c) throws Exception {
        CompletableFuture<byte[]> r = IoFixtures.readExactly(p.io, c.mine(), 3);
        IoFixtures.writeFully(c.peer(), new byte[] {1, 2, 3});
        assertArrayEquals(new byte[] {1, 2, 3}, get(r, p.ctx()));
        assertEquals(2, get(p.io.write(c.mine(), ByteBuffer.wrap(new byte[] {4, 5})), p.ctx()));
        assertArrayEquals(new byte[] {4, 5}, IoFixtures.readFully(c.peer(), 2));
    }
}
