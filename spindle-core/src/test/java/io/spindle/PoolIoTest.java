package io.spindle;

import static io.spindle.IoFixtures.failure;
import static io.spindle.IoFixtures.get;
import static io.spindle.IoFixtures.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The IO operations themselves (docs/DESIGN.md §6, {@link PoolIO}): accept, connect, read, write and ready over
 * loopback sockets and pipes, on every strategy at 1, 2 and 4 workers: many connections at once, large writes that the
 * kernel takes in pieces, end of stream, an empty destination, connection failures. Every pool here also checks on
 * close that nothing reached its uncaught-exception handler.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PoolIoTest {
    static final int CONNECTIONS = 64;
    static final int ROUNDS = 3;
    static final int MESSAGE = 4 * 1024;
    static final int LARGE = 8 * 1024 * 1024;

    /** Echoes {@code ch} until end of stream, then closes it through the pool's IO. */
    static CompletableFuture<Void> echo(PoolIO io, SocketChannel ch, ByteBuffer buf) {
        buf.clear();
        return io.read(ch, buf).thenCompose(r -> {
            if (r < 0) {
                try {
                    io.close(ch);
                } catch (IOException e) {
                    return CompletableFuture.failedFuture(e);
                }
                return CompletableFuture.completedFuture(null);
            }
            buf.flip();
            return io.write(ch, buf).thenCompose(w -> echo(io, ch, buf));
        });
    }

    /** Accepts {@code count} connections, echoing each; every session's future goes into {@code sessions}. */
    static CompletableFuture<Void> acceptLoop(PoolIO io, ServerSocketChannel s, int count,
                                              List<CompletableFuture<Void>> sessions) {
        return io.accept(s).thenCompose(ch -> {
            if (ch.isBlocking()) {
                return CompletableFuture.failedFuture(new AssertionError("accepted channel is in blocking mode"));
            }
            sessions.add(echo(io, ch, ByteBuffer.allocate(8 * 1024)));
            return count > 1 ? acceptLoop(io, s, count - 1, sessions) : CompletableFuture.completedFuture(null);
        });
    }

    /** One client: connects, sends ROUNDS messages and checks each echo, half-closes, expects -1. */
    static CompletableFuture<Void> client(PoolIO io, SocketAddress server, int id) {
        SocketChannel ch;
        try {
            ch = SocketChannel.open();
            ch.configureBlocking(false);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<Void> f = io.connect(ch, server);
        for (int r = 0; r < ROUNDS; r++) {
            byte[] msg = pattern(MESSAGE, id * 31 + r);
            f = f.thenCompose(v -> io.write(ch, ByteBuffer.wrap(msg)))
                    .thenCompose(w -> {
                        if (w != MESSAGE) {
                            throw new AssertionError("write completed with " + w + " of " + MESSAGE + " bytes");
                        }
                        return IoFixtures.readExactly(io, ch, MESSAGE);
                    })
                    .thenAccept(back -> {
                        if (!Arrays.equals(msg, back)) {
                            throw new AssertionError("client " + id + ": echo differs from what was sent");
                        }
                    });
        }
        return f.thenCompose(v -> {
            try {
                ch.shutdownOutput();
            } catch (IOException e) {
                return CompletableFuture.failedFuture(e);
            }
            return io.read(ch, ByteBuffer.allocate(16));
        }).thenAccept(r -> {
            if (r != -1) {
                throw new AssertionError("client " + id + ": expected end of stream (-1), read " + r);
            }
            try {
                io.close(ch);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void sixtyFourConcurrentEchoConnectionsOverLoopback(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            ServerSocketChannel server = p.server();
            List<CompletableFuture<Void>> sessions = new CopyOnWriteArrayList<>();
            p.phase = "echo";
            CompletableFuture<Void> accepted = acceptLoop(p.io, server, CONNECTIONS, sessions);
            List<CompletableFuture<Void>> clients = new ArrayList<>();
            for (int i = 0; i < CONNECTIONS; i++) {
                clients.add(client(p.io, server.getLocalAddress(), i));
            }
            get(CompletableFuture.allOf(clients.toArray(CompletableFuture[]::new)), p.ctx());
            get(accepted, p.ctx());
            assertEquals(CONNECTIONS, sessions.size());
            get(CompletableFuture.allOf(sessions.toArray(CompletableFuture[]::new)), p.ctx());
        }
    }

    /** The same echo, the clients started from the pool's workers (each operation served by its worker's poller). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void echoConnectionsStartedOnWorkers(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            ServerSocketChannel server = p.server();
            List<CompletableFuture<Void>> sessions = new CopyOnWriteArrayList<>();
            CompletableFuture<Void> accepted = p.pool.supplyAsync(
                    () -> acceptLoop(p.io, server, CONNECTIONS, sessions)).thenCompose(f -> f);
            SocketAddress addr = server.getLocalAddress();
            List<CompletableFuture<Void>> clients = p.pool.install(() -> {
                List<CompletableFuture<Void>> out = new CopyOnWriteArrayList<>();
                Spindle.scope(s -> {
                    for (int i = 0; i < CONNECTIONS; i++) {
                        int id = i;
                        s.spawn(() -> out.add(client(p.io, addr, id)));
                    }
                });
                return out;
            });
            get(CompletableFuture.allOf(clients.toArray(CompletableFuture[]::new)), p.ctx());
            get(accepted, p.ctx());
            get(CompletableFuture.allOf(sessions.toArray(CompletableFuture[]::new)), p.ctx());
        }
    }

    /**
     * An 8 MB write to a peer that reads slowly: the kernel takes it in pieces; the future completes with every byte
     * and the peer receives them intact and in order.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void largeWriteToSlowReaderCompletesWithAllBytes(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            byte[] data = pattern(LARGE, 7);
            CompletableFuture<Integer> w = p.io.write(c.mine(), ByteBuffer.wrap(data));
            // the slow reader: small reads with a pause between them
            ByteBuffer got = ByteBuffer.allocate(LARGE);
            ByteBuffer chunk = ByteBuffer.allocate(16 * 1024);
            int reads = 0;
            while (got.hasRemaining()) {
                chunk.clear();
                int r = c.peer().read(chunk);
                assertTrue(r > 0, "peer saw end of stream after " + got.position() + " bytes");
                chunk.flip();
                got.put(chunk);
                if (++reads % 8 == 0) {
                    Thread.sleep(1);
                }
            }
            assertEquals(LARGE, get(w, p.ctx()));
            assertArrayEquals(data, got.array(), "the peer received different bytes");
            assertFalse(w.isCompletedExceptionally());
        }
    }

    /**
     * Pipes: a large transfer from sink to source through the pool's IO, then end of stream once the sink closes
     * (PoolIoCloseTest covers closing it through {@link PoolIO#close}).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void pipeTransfersIntactThenEndOfStream(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            Pipe pipe = p.pipe();
            int n = 2 * 1024 * 1024; // far more than a pipe's buffer: the write goes in pieces
            byte[] data = pattern(n, 11);
            CompletableFuture<byte[]> r = IoFixtures.readExactly(p.io, pipe.source(), n);
            CompletableFuture<Integer> w = p.io.write(pipe.sink(), ByteBuffer.wrap(data));
            assertEquals(n, get(w, p.ctx()));
            assertArrayEquals(data, get(r, p.ctx()));
            // end of stream on a pipe the pool never wrote to (PoolIoCloseTest: sinks the pool served)
            Pipe fresh = p.pipe();
            CompletableFuture<Integer> eof = p.io.read(fresh.source(), ByteBuffer.allocate(8));
            fresh.sink().write(ByteBuffer.wrap(new byte[] {1}));
            assertEquals(1, get(eof, p.ctx()));
            eof = p.io.read(fresh.source(), ByteBuffer.allocate(8));
            fresh.sink().close();
            assertEquals(-1, get(eof, p.ctx()));
        }
    }

    /** A pending read sees end of stream as -1; a read after it sees -1 again. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void endOfStreamCompletesWithMinusOne(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            IoFixtures.writeFully(c.peer(), new byte[] {1, 2, 3});
            ByteBuffer dst = ByteBuffer.allocate(16);
            assertEquals(3, get(IoFixtures.readExactly(p.io, c.mine(), 3), p.ctx()).length);
            CompletableFuture<Integer> pending = p.io.read(c.mine(), dst);
            c.peer().shutdownOutput();
            assertEquals(-1, get(pending, p.ctx()));
            assertEquals(-1, get(p.io.read(c.mine(), dst), p.ctx()));
            assertEquals(0, dst.position(), "end of stream must not touch the buffer");
            assertTrue(c.mine().isOpen(), "end of stream must not close the channel");
        }
    }

    /**
     * A read into a buffer with nothing remaining completes with 0 at once, off the pool and on a worker: "at once"
     * meaning without waiting for readiness (no byte is ever sent before it must complete; the engine may still
     * complete the future on a worker, docs/DESIGN.md §6, "Where things run"), so waiting for readiness shows up as a
     * hang.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void readIntoFullBufferCompletesWithZeroAtOnce(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            ByteBuffer full = ByteBuffer.allocate(4);
            full.position(4);
            assertEquals(0, get(p.io.read(c.mine(), full), p.ctx()));
            assertEquals(4, full.position());
            CompletableFuture<Integer> on = p.pool.install(() -> p.io.read(c.mine(), ByteBuffer.allocate(0)));
            assertEquals(0, get(on, p.ctx()));
            Pipe pipe = p.pipe();
            assertEquals(0, get(p.io.read(pipe.source(), ByteBuffer.allocate(0)), p.ctx()));
            // and it left no read pending: a real read follows
            CompletableFuture<byte[]> r = IoFixtures.readExactly(p.io, c.mine(), 2);
            IoFixtures.writeFully(c.peer(), new byte[] {9, 8});
            assertArrayEquals(new byte[] {9, 8}, get(r, p.ctx()));
        }
    }

    /** ready: OP_READ only once data arrives; OP_WRITE on a connected socket; several waiters on one channel. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void readyCompletesOnReadAndWriteReadiness(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            CompletableFuture<Void> r1 = p.io.ready(c.mine(), SelectionKey.OP_READ);
            CompletableFuture<Void> r2 = p.io.ready(c.mine(), SelectionKey.OP_READ);
            assertFalse(r1.isDone() || r2.isDone(), "ready(OP_READ) completed before any data was sent");
            get(p.io.ready(c.mine(), SelectionKey.OP_WRITE), p.ctx());
            get(p.io.ready(c.mine(), SelectionKey.OP_READ | SelectionKey.OP_WRITE), p.ctx());
            IoFixtures.writeFully(c.peer(), new byte[] {42});
            get(r1, p.ctx());
            get(r2, p.ctx());
            // ready does no IO: the byte is still there
            ByteBuffer one = ByteBuffer.allocate(1);
            assertEquals(1, c.mine().read(one));
            assertEquals(42, one.get(0));

            Pipe pipe = p.pipe();
            CompletableFuture<Void> src = p.io.ready(pipe.source(), SelectionKey.OP_READ);
            get(p.io.ready(pipe.sink(), SelectionKey.OP_WRITE), p.ctx());
            pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
            get(src, p.ctx());
        }
    }

    /** ready(OP_ACCEPT) completes once a client connects; ready(OP_CONNECT) once a connect can be finished. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void readyCompletesOnAcceptAndConnectReadiness(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            ServerSocketChannel server = p.server();
            CompletableFuture<Void> acceptable = p.io.ready(server, SelectionKey.OP_ACCEPT);
            assertFalse(acceptable.isDone(), "ready(OP_ACCEPT) completed before any client connected");
            SocketChannel client = p.closing(SocketChannel.open());
            client.configureBlocking(false);
            boolean connectedAtOnce = client.connect(server.getLocalAddress());
            get(acceptable, p.ctx());
            SocketChannel accepted = p.closing(server.accept());
            assertNotNull(accepted, "ready(OP_ACCEPT) completed but accept() found no connection");
            if (!connectedAtOnce) {
                get(p.io.ready(client, SelectionKey.OP_CONNECT), p.ctx());
                assertTrue(client.finishConnect());
            }
            assertTrue(client.isConnected());
        }
    }

    /** accept returns a non-blocking channel; connect completes once connected; data flows both ways. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void acceptAndConnectSucceed(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            ServerSocketChannel server = p.server();
            CompletableFuture<SocketChannel> a = p.io.accept(server);
            SocketChannel client = p.closing(SocketChannel.open());
            client.configureBlocking(false);
            CompletableFuture<Void> connected = p.io.connect(client, server.getLocalAddress());
            get(connected, p.ctx());
            assertTrue(client.isConnected(), "connect completed but the channel is not connected");
            SocketChannel s = p.closing(get(a, p.ctx()));
            assertFalse(s.isBlocking(), "the accepted channel must be non-blocking");
            assertEquals(client.getLocalAddress(), s.getRemoteAddress());
            assertEquals(5, get(p.io.write(client, ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5})), p.ctx()));
            assertArrayEquals(new byte[] {1, 2, 3, 4, 5}, get(IoFixtures.readExactly(p.io, s, 5), p.ctx()));
            assertEquals(2, get(p.io.write(s, ByteBuffer.wrap(new byte[] {6, 7})), p.ctx()));
            assertArrayEquals(new byte[] {6, 7}, get(IoFixtures.readExactly(p.io, client, 2), p.ctx()));
        }
    }

    /** Connecting to a closed port: the call returns; the future fails with the channel's IOException. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void connectToClosedPortCompletesExceptionally(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            SocketAddress closed;
            try (ServerSocketChannel s = ServerSocketChannel.open()) {
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                closed = s.getLocalAddress();
            }
            for (int i = 0; i < 3; i++) {
                SocketChannel ch = p.closing(SocketChannel.open());
                ch.configureBlocking(false);
                CompletableFuture<Void> f = i < 2 ? p.io.connect(ch, closed)
                        : p.pool.install(() -> p.io.connect(ch, closed)); // and from a worker
                Throwable e = failure(f, p.ctx());
                assertInstanceOf(IOException.class, e, "expected the channel's IOException");
                assertInstanceOf(ConnectException.class, e, "connection refused on loopback");
            }
        }
    }

    /** A reset connection: a pending read fails with the channel's IOException, and so does a later write. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void resetConnectionFailsPendingReadWithIOException(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            CompletableFuture<Integer> pending = p.io.read(c.mine(), ByteBuffer.allocate(16));
            c.peer().socket().setSoLinger(true, 0);
            c.peer().close(); // RST
            Throwable e = failure(pending, p.ctx());
            assertInstanceOf(IOException.class, e, "expected the channel's IOException (connection reset)");
            // the peer is gone: writing eventually fails with the channel's IOException too
            CompletableFuture<Integer> w = p.io.write(c.mine(), ByteBuffer.allocate(LARGE));
            assertInstanceOf(IOException.class, failure(w, p.ctx()));
            assertSame(p.io, p.pool.io(), "io() returns the same instance every call");
        }
    }

    /**
     * The example of {@link PoolIO}'s class javadoc, the same code, so that it is known to compile and to work:
     * change the two together. {@link #javadocEchoExampleEchoesAndCloses} runs it.
     */
    static final class JavadocExample {
        private JavadocExample() {}

        static void echo(PoolIO io, SocketChannel ch, ByteBuffer buf) {
            io.read(ch, buf.clear())
                    .thenCompose(n -> n < 0 ? CompletableFuture.completedFuture(-1) : io.write(ch, buf.flip()))
                    .whenComplete((n, failure) -> {
                        if (failure == null && n >= 0) {
                            echo(io, ch, buf);                  // the next round
                        } else {                                // end of stream, or the connection failed
                            try {
                                io.close(ch);                   // fails whatever is pending on ch at once
                            } catch (IOException e) {
                                // ch is closed all the same; nothing is left to tell the peer
                            }
                        }
                    });
        }

        /** The javadoc's last four lines, on {@code pool}; returns the server channel for the test to close. */
        static ServerSocketChannel start(ThreadPool pool) throws IOException {
            PoolIO io = pool.io();
            ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            server.configureBlocking(false);                        // PoolIO takes non-blocking channels only
            io.accept(server).thenAccept(ch -> echo(io, ch, ByteBuffer.allocate(4096)));
            return server;
        }
    }

    /**
     * {@link JavadocExample}, as the javadoc starts it, against a blocking loopback client: each message comes back
     * whole, and once the client half-closes, the example closes the connection, which the client reads as the end
     * of the stream (nothing but the example's {@code io.close} could end it).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void javadocEchoExampleEchoesAndCloses(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            ServerSocketChannel server = p.closing(JavadocExample.start(p.pool));
            SocketChannel client = p.closing(SocketChannel.open(server.getLocalAddress())); // blocking
            for (int round = 0; round < ROUNDS; round++) {
                byte[] message = pattern(MESSAGE, round);
                IoFixtures.writeFully(client, message);
                assertArrayEquals(message, IoFixtures.readFully(client, MESSAGE), "echo of round " + round);
            }
            client.shutdownOutput();
            // a hang here (no close) is turned into a failure by the class's @Timeout
            assertEquals(-1, client.read(ByteBuffer.allocate(1)), "the example did not close the connection");
        }
    }
}
