package io.spindle.examples;

import io.spindle.PoolIO;
import io.spindle.ThreadPool;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectableChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * An echo server served by a Spindle pool's workers through {@link ThreadPool#io()}: no thread per connection and no
 * event-loop thread. Accepting, reading and writing are futures that complete on a worker, and each connection is a
 * loop of stages (read, then write what was read, then read again), so an open connection costs a channel and a
 * buffer, not a thread; an idle one costs no CPU.
 *
 * <pre>
 * bin/spindle-examples echo [MESSAGE...]    starts the server on a free local port, sends each MESSAGE over one
 *                                          connection, prints the echoes and stops
 * bin/spindle-examples echo --serve PORT    serves on 127.0.0.1:PORT until interrupted (try nc 127.0.0.1 PORT)
 * </pre>
 */
public final class EchoServer implements AutoCloseable {
    private final ThreadPool pool;
    private final PoolIO io;
    private final ServerSocketChannel server;
    private final Set<SocketChannel> connections = ConcurrentHashMap.newKeySet();

    /** Serves on 127.0.0.1:{@code port} (0: any free port) with {@code pool}'s workers, until {@link #close}. */
    EchoServer(ThreadPool pool, int port) throws IOException {
        this.pool = pool;
        this.io = pool.io();
        // Loopback only: an example has no business listening on the network.
        server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", port));
        server.configureBlocking(false); // PoolIO takes non-blocking channels only
        acceptNext();
    }

    int port() throws IOException {
        return ((InetSocketAddress) server.getLocalAddress()).getPort();
    }

    private void acceptNext() {
        io.accept(server).whenComplete((connection, failure) -> {
            if (failure != null) {
                return; // close() closed the server channel, or the pool shut down: accept no more
            }
            acceptNext(); // the next client waits in its own accept while this one is served
            connections.add(connection);
            echo(connection, ByteBuffer.allocate(4096));
        });
    }

    /** One read and the write of what it read; the stage after the write starts the next round. */
    private void echo(SocketChannel connection, ByteBuffer buffer) {
        io.read(connection, buffer.clear())
                .thenCompose(n -> n < 0 ? CompletableFuture.completedFuture(-1) : io.write(connection, buffer.flip()))
                // Async, on the pool: if data is already waiting, the futures may be complete at once, and a loop
                // that went round in nested callbacks would grow the stack with every message.
                .whenCompleteAsync((n, failure) -> {
                    if (failure == null && n >= 0) {
                        echo(connection, buffer);
                    } else { // the client closed (-1), or the connection failed: end it
                        close(connection);
                    }
                }, pool);
    }

    /** Stops accepting and closes every open connection; their pending reads and writes fail at once. */
    @Override
    public void close() {
        close(server);
        connections.forEach(this::close);
    }

    private void close(SelectableChannel channel) {
        connections.remove(channel);
        try {
            io.close(channel); // not channel.close(): io.close fails the channel's pending operations at once
        } catch (IOException e) {
            // Nothing is left to tell the peer; the channel is closed all the same.
        }
    }

    public static void main(String[] args) throws Exception {
        int code = run(args, System.out, System.err);
        if (code != 0) {
            System.exit(code);
        }
    }

    /**
     * Serves on 127.0.0.1:{@code port} (0: any free port) until {@code pool} is closed, and only then returns. The
     * pool's workers are daemon threads, as a pool's are by default: a {@code main} that returned after starting the
     * server would end the JVM at once, so the thread that started it waits here.
     */
    static void serve(ThreadPool pool, int port, PrintStream out) throws IOException, InterruptedException {
        try (EchoServer echo = new EchoServer(pool, port)) {
            out.printf("echoing on 127.0.0.1:%d, Ctrl-C to stop; try  nc 127.0.0.1 %d%n", echo.port(), echo.port());
            while (!pool.awaitTermination(1, TimeUnit.DAYS)) {
                // serving: the workers do everything
            }
        }
    }

    /** The whole program, with its streams passed in so that a test can read what it prints; returns the exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        if (args.length >= 1 && args[0].equals("--serve")) {
            int port = args.length == 2 && args[1].matches("\\d{1,5}") ? Integer.parseInt(args[1]) : 0;
            if (port < 1 || port > 65535) {
                err.println("echo: usage: bin/spindle-examples echo [MESSAGE...] | echo --serve PORT (1..65535)");
                return 2;
            }
            ThreadPool pool = ThreadPool.builder().build();
            Runtime.getRuntime().addShutdownHook(new Thread(pool::close)); // Ctrl-C: serve() returns, the JVM exits
            serve(pool, port, out);
            return 0;
        }
        String[] messages = args.length > 0 ? args : new String[] {"hello", "from the pool"};
        try (ThreadPool pool = ThreadPool.builder().threads(2).build();
             EchoServer echo = new EchoServer(pool, 0);
             Socket client = new Socket("127.0.0.1", echo.port())) {
            out.printf("echo server on port %d, served by a pool of %d workers%n", echo.port(), pool.threadCount());
            OutputStream toServer = client.getOutputStream();
            InputStream fromServer = client.getInputStream();
            for (String message : messages) {
                byte[] sent = message.getBytes(StandardCharsets.UTF_8);
                toServer.write(sent);
                byte[] back = fromServer.readNBytes(sent.length); // TCP may split the echo: wait for all of it
                out.println("sent '" + message + "', got back '" + new String(back, StandardCharsets.UTF_8) + "'");
            }
        }
        return 0;
    }
}
