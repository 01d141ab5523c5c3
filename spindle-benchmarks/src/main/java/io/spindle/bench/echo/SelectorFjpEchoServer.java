package io.spindle.bench.echo;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ForkJoinPool;

/**
 * The classic event-loop design ({@code selector-fjp}): one selector thread accepts and reads; each complete request
 * is handed to a ForkJoinPool, whose worker runs echo-compute's {@code RecursiveTask} (invoked from the worker, so it
 * forks inside the pool) and writes the answer itself. Two wake-ups per request when idle: the selector thread's,
 * then a pool worker's, which is what Spindle's one wait in the poller saves.
 *
 * <p>Interest in reading stays set while a request is in the pool (no selector round trip to re-arm it): the selector
 * thread reads the next bytes into the connection's buffer while the pool works on a copy of the request. A 64-byte
 * answer on a connection with one request in flight always fits the socket's send buffer, so the worker writes it
 * without the selector; the loop on a short write only guards that.
 */
final class SelectorFjpEchoServer implements EchoServer {
    private final ForkJoinPool fjp;
    private final Compute compute;
    private final Selector selector;
    private final ServerSocketChannel server;
    private final Thread loop;
    private volatile boolean closed;

    private SelectorFjpEchoServer(ForkJoinPool fjp, Compute compute) throws IOException {
        this.fjp = fjp;
        this.compute = compute;
        this.selector = Selector.open();
        this.server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        server.configureBlocking(false);
        server.register(selector, SelectionKey.OP_ACCEPT);
        this.loop = new Thread(this::selectLoop, "echo-selector");
        loop.setDaemon(true);
    }

    static SelectorFjpEchoServer start(ForkJoinPool fjp, Compute compute) throws IOException {
        SelectorFjpEchoServer s = new SelectorFjpEchoServer(fjp, compute);
        s.loop.start();
        return s;
    }

    @Override
    public InetSocketAddress address() {
        try {
            return (InetSocketAddress) server.getLocalAddress();
        } catch (IOException e) {
            throw new IllegalStateException("the echo server's channel is closed", e);
        }
    }

    private void selectLoop() {
        try {
            while (!closed) {
                selector.select(this::onReady);
            }
        } catch (IOException | RuntimeException e) {
            // the selector was closed under us by close()
        } finally {
            for (SelectionKey k : selector.keys()) closeQuietly(k.channel());
            closeQuietly(selector);
        }
    }

    private void onReady(SelectionKey key) {
        if (!key.isValid()) return;
        if (key.isAcceptable()) {
            try {
                SocketChannel ch = server.accept();
                if (ch == null) return;
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.register(selector, SelectionKey.OP_READ, ByteBuffer.allocate(MESSAGE_BYTES));
            } catch (IOException e) {
                // this connection failed; keep serving the others
            }
            return;
        }
        SocketChannel ch = (SocketChannel) key.channel();
        ByteBuffer buffer = (ByteBuffer) key.attachment();
        try {
            if (ch.read(buffer) < 0) {
                key.cancel();
                closeQuietly(ch);
                return;
            }
        } catch (IOException e) {
            key.cancel();
            closeQuietly(ch);
            return;
        }
        if (buffer.hasRemaining()) return;
        byte[] request = buffer.array().clone();
        buffer.clear();
        fjp.execute(() -> answer(ch, request));
    }

    /** On a pool worker: the computation, then the answer. */
    private void answer(SocketChannel ch, byte[] request) {
        try {
            if (compute != null) compute.check(compute.onFjp(fjp));
            ByteBuffer out = ByteBuffer.wrap(request);
            while (out.hasRemaining()) {
                if (ch.write(out) == 0) Thread.onSpinWait();
            }
        } catch (IOException | RuntimeException e) {
            closeQuietly(ch); // the client sees the end of stream; the selector cancels the key at its next read
        }
    }

    @Override
    public void close() {
        closed = true;
        selector.wakeup();
        try {
            loop.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeQuietly(server);
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // closing: nothing left to do with it
        }
    }
}
