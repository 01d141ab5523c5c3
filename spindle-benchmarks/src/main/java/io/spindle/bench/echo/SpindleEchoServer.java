package io.spindle.bench.echo;

import io.spindle.PoolIO;
import io.spindle.Spindle;
import io.spindle.ThreadPool;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Spindle echo server: every step on the pool through {@link PoolIO} (accept, read, write), each step started
 * from the completion stage of the one before, so it runs on the worker that the IO completed on, with no thread of
 * its own. echo-compute's computation joins right there, on that worker: {@code Spindle.join} inside the stage.
 *
 * <p>A completion stage runs inline when its future is already complete, so a chain of operations that all complete
 * at once would grow the stack; in ping-pong a read is issued before the client can have sent its next request, so
 * the chain breaks at every read.
 */
final class SpindleEchoServer implements EchoServer {
    static final Optional<String> UNAVAILABLE_REASON = unavailableReason();

    private final ThreadPool pool;
    private final PoolIO io;
    private final Compute compute;
    private final ServerSocketChannel server;
    private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong readsIssued = new AtomicLong();
    private volatile boolean closed;
    // the worker that issued the latest read: io-starvation keeps this one busy while that read is pending
    private volatile int lastReadWorker = -1;

    private SpindleEchoServer(ThreadPool pool, Compute compute) throws IOException {
        this.pool = pool;
        this.io = pool.io();
        this.compute = compute;
        this.server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        server.configureBlocking(false);
    }

    static SpindleEchoServer start(ThreadPool pool, Compute compute) throws IOException {
        SpindleEchoServer s = new SpindleEchoServer(pool, compute);
        s.acceptNext();
        return s;
    }

    /**
     * @return why this build's pools cannot serve IO ({@code ThreadPool.io()} throws {@code
     *         UnsupportedOperationException} until the engine lands), or empty when they can
     */
    private static Optional<String> unavailableReason() {
        try (ThreadPool p = ThreadPool.builder().threads(1).build()) {
            p.io();
            return Optional.empty();
        } catch (UnsupportedOperationException e) {
            return Optional.of("ThreadPool.io() is not implemented in this build");
        }
    }

    @Override
    public InetSocketAddress address() {
        try {
            return (InetSocketAddress) server.getLocalAddress();
        } catch (IOException e) {
            throw new IllegalStateException("the echo server's channel is closed", e);
        }
    }

    /** @return how many reads the connections have issued so far (each answered request issues one more) */
    long readsIssued() {
        return readsIssued.get();
    }

    /** @return the index of the worker that issued the latest read, or -1 before the first */
    int lastReadWorker() {
        return lastReadWorker;
    }

    ThreadPool pool() {
        return pool;
    }

    private void acceptNext() {
        io.accept(server).whenComplete((ch, failure) -> {
            if (failure != null) return; // the server channel was closed: close() takes care of the rest
            open.add(ch);
            if (closed) {
                closeQuietly(ch);
                return;
            }
            try {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            } catch (IOException e) {
                closeQuietly(ch);
            }
            new Connection(ch).readMore();
            acceptNext();
        });
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        open.forEach(this::closeQuietly);
    }

    private void closeQuietly(java.nio.channels.SelectableChannel ch) {
        try {
            io.close(ch); // fails its pending operation at once, which ends that connection's chain
        } catch (IOException | RuntimeException e) {
            // closing: nothing left to do with it
        }
        if (ch instanceof SocketChannel s) open.remove(s);
    }

    /** One connection's read-answer loop; only one step of it is in flight at any time. */
    private final class Connection {
        private final SocketChannel ch;
        private final ByteBuffer buffer = ByteBuffer.allocateDirect(MESSAGE_BYTES);

        Connection(SocketChannel ch) {
            this.ch = ch;
        }

        void readMore() {
            lastReadWorker = Spindle.currentThreadIndex().orElse(-1);
            readsIssued.incrementAndGet();
            io.read(ch, buffer).whenComplete(this::onRead);
        }

        private void onRead(Integer n, Throwable failure) {
            if (failure != null || n < 0) {
                closeQuietly(ch);
                return;
            }
            if (buffer.hasRemaining()) {
                readMore();
                return;
            }
            if (compute != null) {
                try {
                    compute.check(compute.onSpindle());
                } catch (RuntimeException e) {
                    closeQuietly(ch); // the client sees the end of stream and fails the run
                    return;
                }
            }
            buffer.flip();
            io.write(ch, buffer).whenComplete((written, writeFailure) -> {
                if (writeFailure != null) {
                    closeQuietly(ch);
                    return;
                }
                buffer.clear();
                readMore();
            });
        }
    }
}
