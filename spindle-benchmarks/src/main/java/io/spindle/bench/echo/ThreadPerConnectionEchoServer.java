package io.spindle.bench.echo;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadFactory;

/**
 * A thread per connection with blocking channels, on platform threads ({@code platform-threads}: each request costs
 * one kernel wake-up of the thread blocked in read, the physical floor) or virtual threads ({@code virtual-threads}:
 * the JDK's poller thread wakes, then a carrier runs the virtual thread). echo-compute's computation is a {@code
 * RecursiveTask} invoked on the ForkJoinPool from the connection's thread, which blocks until it is done.
 */
final class ThreadPerConnectionEchoServer implements EchoServer {
    private final ThreadFactory threads;
    private final ForkJoinPool fjp;
    private final Compute compute;
    private final ServerSocketChannel server;
    private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private ThreadPerConnectionEchoServer(ThreadFactory threads, ForkJoinPool fjp, Compute compute)
            throws IOException {
        this.threads = threads;
        this.fjp = fjp;
        this.compute = compute;
        this.server = ServerSocketChannel.open(); // blocking, the default
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    static ThreadPerConnectionEchoServer start(ThreadFactory threads, ForkJoinPool fjp, Compute compute)
            throws IOException {
        ThreadPerConnectionEchoServer s = new ThreadPerConnectionEchoServer(threads, fjp, compute);
        threads.newThread(s::acceptLoop).start();
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

    private void acceptLoop() {
        while (!closed) {
            SocketChannel ch;
            try {
                ch = server.accept();
            } catch (IOException e) {
                return; // closed by close(): AsynchronousCloseException ends the loop
            }
            open.add(ch);
            if (closed) {
                closeQuietly(ch);
                return;
            }
            threads.newThread(() -> serve(ch)).start();
        }
    }

    private void serve(SocketChannel ch) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(MESSAGE_BYTES);
        try {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            while (true) {
                buffer.clear();
                while (buffer.hasRemaining()) {
                    if (ch.read(buffer) < 0) return; // the client is done
                }
                if (compute != null) compute.check(compute.onFjp(fjp));
                buffer.flip();
                while (buffer.hasRemaining()) ch.write(buffer);
            }
        } catch (IOException | RuntimeException e) {
            // a closed connection (close(), or the client's reset); a wrong sum: the client sees the end of stream
        } finally {
            closeQuietly(ch);
        }
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        open.forEach(this::closeQuietly); // wakes each connection's thread out of its blocking read
    }

    private void closeQuietly(java.nio.channels.Channel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // closing: nothing left to do with it
        }
        if (ch instanceof SocketChannel s) open.remove(s);
    }
}
