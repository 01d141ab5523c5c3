package io.spindle.soak;

import io.spindle.PoolIO;
import io.spindle.ThreadPool;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.ShutdownChannelGroupException;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * IO traffic for one soak round, beside its task trees (docs/DESIGN.md §6): an echo server on the pool under test
 * ({@link ThreadPool#io()}: accept, read, write, close, all on the workers) and blocking clients on their own threads
 * that echo random bytes with random delays (some long enough for every worker to fall asleep, so IO must wake one)
 * and random closes (half-way through an exchange, sometimes with a reset), plus one connection that stays idle
 * through the round, registered with some worker's poller.
 *
 * <p>Checked: every byte comes back exactly; every operation the server started completes (counted at the call and
 * at the completion), with a failure the situation allows (a peer's reset, the server's own {@code io.close}, the
 * pool's shutdown), never another; every connection a client made is accepted and ended by the server; after
 * {@code shutdown} every pending operation failed. Nothing depends on timing: a lost completion leaves a client or
 * {@link #awaitEnd} waiting, and the soak's watchdog turns that into a failure with a thread dump (the waits here do
 * not report progress).
 */
final class EchoTraffic {
    private final ThreadPool pool;
    private final PoolIO io;
    private final ServerSocketChannel server;
    private final int port;
    private final Runnable progress;
    private final Thread[] clients;
    private final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
    private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong started = new AtomicLong();
    private final AtomicLong completed = new AtomicLong();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger ended = new AtomicInteger();
    private final AtomicInteger connected = new AtomicInteger();
    private final AtomicLong exchanges = new AtomicLong();
    private final AtomicInteger aborted = new AtomicInteger();
    private final AtomicInteger failedConnections = new AtomicInteger();
    private volatile boolean acceptEnded;
    private volatile boolean serverClosing;
    private volatile boolean shuttingDown;

    /** Opens the server on the pool and starts {@code clientCount} clients; {@code progress} is the soak's tick. */
    EchoTraffic(ThreadPool pool, SplittableRandom rnd, int clientCount, Runnable progress) throws IOException {
        this.pool = pool;
        this.io = pool.io();
        this.progress = progress;
        server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0), 256);
        server.configureBlocking(false);
        port = ((InetSocketAddress) server.getLocalAddress()).getPort();
        acceptNext(rnd.nextLong());
        clients = new Thread[clientCount];
        for (int c = 0; c < clientCount; c++) {
            long clientSeed = rnd.nextLong();
            boolean holdsIdle = c == 0;
            clients[c] = new Thread(() -> client(new SplittableRandom(clientSeed), holdsIdle), "soak-echo-client-" + c);
            clients[c].start();
        }
    }

    int connections() {
        return connected.get();
    }

    long exchanges() {
        return exchanges.get();
    }

    // --- the server: every step on the pool, each operation counted when started and when completed ----------------

    private <T> CompletableFuture<T> counted(CompletableFuture<T> operation) {
        started.incrementAndGet();
        return operation.whenComplete((v, e) -> completed.incrementAndGet());
    }

    private void acceptNext(long seed) {
        CompletableFuture<SocketChannel> accept;
        try {
            accept = counted(io.accept(server));
        } catch (RejectedExecutionException e) {
            endAccepting(e);
            return;
        }
        // Plain whenComplete, not *Async: after shutdown the completing thread may be one that cannot hand work to
        // the pool, and the nesting is bounded (one level per connection already waiting in the backlog).
        accept.whenComplete((connection, failure) -> {
            if (failure != null) {
                endAccepting(failure);
                return;
            }
            accepted.incrementAndGet();
            open.add(connection);
            SplittableRandom rnd = new SplittableRandom(seed);
            acceptNext(rnd.nextLong());
            // Small buffers too, so that one client write takes many reads and writes.
            echo(connection, ByteBuffer.allocate(1 + rnd.nextInt(rnd.nextBoolean() ? 64 : 8192)));
        });
    }

    private void endAccepting(Throwable failure) {
        Throwable f = unwrap(failure);
        boolean expected = f instanceof ClosedChannelException && serverClosing || shutdownFailure(f);
        if (!expected) {
            problem("accept failed with " + f, f);
        }
        acceptEnded = true;
    }

    private void echo(SocketChannel connection, ByteBuffer buffer) {
        CompletableFuture<Integer> read;
        try {
            read = counted(io.read(connection, buffer.clear()));
        } catch (RuntimeException e) {
            end(connection, e);
            return;
        }
        read.whenComplete((n, failure) -> {
            if (failure != null) {
                end(connection, failure);
            } else if (n < 0) {
                end(connection, null); // the client closed: the normal end
            } else if (n == 0 || n != buffer.position()) {
                problem("read completed with " + n + " into a buffer holding " + buffer.position() + " bytes", null);
                end(connection, null);
            } else {
                int length = buffer.flip().remaining();
                CompletableFuture<Integer> write;
                try {
                    write = counted(io.write(connection, buffer));
                } catch (RuntimeException e) {
                    end(connection, e);
                    return;
                }
                write.whenComplete((written, writeFailure) -> {
                    if (writeFailure != null) {
                        end(connection, writeFailure);
                    } else if (written != length || buffer.hasRemaining()) {
                        problem("write of " + length + " bytes completed with " + written + ", "
                                + buffer.remaining() + " left", null);
                        end(connection, null);
                    } else {
                        nextRound(connection, buffer);
                    }
                });
            }
        });
    }

    /**
     * The next read, as a task of its own: if the engine completes an operation at once when the data is there, a
     * loop of nested callbacks would grow the stack with every round (a 64 KiB message through a 1-byte buffer is
     * 64 Ki rounds).
     */
    private void nextRound(SocketChannel connection, ByteBuffer buffer) {
        try {
            pool.spawn(() -> echo(connection, buffer));
        } catch (RejectedExecutionException e) { // completed off the pool after shutdown
            end(connection, e);
        }
    }

    /** A connection's loop ends exactly once: at the client's close, or at a failure the situation allows. */
    private void end(SocketChannel connection, Throwable failure) {
        Throwable f = failure == null ? null : unwrap(failure);
        // A client's abort shows as a reset or a broken pipe (IOException); the pool's shutdown as its own failure.
        if (f != null && !(f instanceof IOException) && !shutdownFailure(f)) {
            problem("connection failed with " + f, f);
        } else if (f instanceof IOException && !shuttingDown) {
            failedConnections.incrementAndGet(); // must be one a client aborted: compared at the end
        }
        open.remove(connection);
        try {
            io.close(connection);
        } catch (IOException | RuntimeException e) { // RejectedExecutionException after shutdown: close it directly
            closeDirectly(connection);
        }
        ended.incrementAndGet();
    }

    private boolean shutdownFailure(Throwable f) {
        return shuttingDown && (f instanceof ShutdownChannelGroupException || f instanceof RejectedExecutionException
                || f instanceof ClosedChannelException);
    }

    // --- the clients: plain blocking sockets on their own threads ----------------------------------------------------

    private void client(SplittableRandom rnd, boolean holdsIdle) {
        Socket idle = null;
        try {
            if (holdsIdle) {
                idle = connect(); // registered with a poller for the whole round, silent until the end
            }
            int connections = 1 + rnd.nextInt(6);
            for (int c = 0; c < connections && !shuttingDown; c++) {
                try (Socket socket = connect()) {
                    converse(socket, rnd);
                }
            }
            if (idle != null) {
                exchange(idle, rnd, 1 + rnd.nextInt(100));
                idle.close();
            }
        } catch (IOException e) {
            if (!shuttingDown) { // after shutdown the server stops echoing: resets and ends of stream are expected
                problem("client: " + e, e);
            }
        } finally {
            closeDirectly(idle);
        }
    }

    private Socket connect() throws IOException {
        progress.run();
        Socket socket = new Socket("127.0.0.1", port);
        connected.incrementAndGet();
        return socket;
    }

    /** Random exchanges with random pauses; now and then an abort half-way through one. */
    private void converse(Socket socket, SplittableRandom rnd) throws IOException {
        int rounds = 1 + rnd.nextInt(8);
        int abortAt = rnd.nextInt(6) == 0 ? rnd.nextInt(rounds) : -1;
        for (int i = 0; i < rounds && !shuttingDown; i++) {
            progress.run();
            int size = rnd.nextInt(20) == 0 ? 1 + rnd.nextInt(64 * 1024) : 1 + rnd.nextInt(512);
            if (i == abortAt) {
                aborted.incrementAndGet();
                byte[] bytes = new byte[Math.min(size, 16 * 1024)]; // written unread: small enough to fit the buffers
                rnd.nextBytes(bytes);
                socket.getOutputStream().write(bytes);
                if (rnd.nextBoolean()) {
                    socket.setSoLinger(true, 0); // close() sends a reset: the server's read or write fails
                }
                return; // closed unread by the caller's try-with-resources
            }
            exchange(socket, rnd, size);
            pause(rnd);
        }
    }

    /**
     * Sends {@code size} random bytes and reads them back, in pieces of at most 16 KiB each echoed before the next is
     * sent: a blocking client that wrote everything before reading could fill both directions' buffers and block.
     */
    private void exchange(Socket socket, SplittableRandom rnd, int size) throws IOException {
        OutputStream out = socket.getOutputStream();
        InputStream in = socket.getInputStream();
        for (int from = 0; from < size; ) {
            byte[] sent = new byte[Math.min(size - from, 1 + rnd.nextInt(16 * 1024))];
            rnd.nextBytes(sent);
            out.write(sent);
            byte[] back = in.readNBytes(sent.length);
            if (!Arrays.equals(sent, back)) {
                if (shuttingDown) {
                    throw new IOException("echo cut short by the shutdown");
                }
                problem("echo of " + sent.length + " bytes came back as " + back.length + " bytes"
                        + (back.length == sent.length ? " that differ" : ""), null);
                return;
            }
            from += sent.length;
        }
        exchanges.incrementAndGet();
    }

    private static void pause(SplittableRandom rnd) {
        int r = rnd.nextInt(20);
        if (r == 0) {
            LockSupport.parkNanos(20_000_000); // long enough for the workers to go to sleep: IO has to wake one
        } else if (r < 8) {
            LockSupport.parkNanos(rnd.nextInt(1_000_000));
        }
    }

    // --- the end of a round -----------------------------------------------------------------------------------------

    /** Waits for the clients, then for the server to have ended every connection, closes it and checks the count. */
    void awaitEnd() throws InterruptedException {
        for (Thread c : clients) {
            c.join(); // no progress reported here: a client stuck on a lost completion is the watchdog's to catch
        }
        while (ended.get() < connected.get()) { // every client connection accepted, and its end seen by the server
            LockSupport.parkNanos(1_000_000);
        }
        serverClosing = true;
        try {
            io.close(server); // the pending accept fails at once
        } catch (IOException e) {
            problem("io.close(server): " + e, e);
        }
        awaitEveryCompletion();
        if (accepted.get() != connected.get() || ended.get() != accepted.get()) {
            problem("clients connected " + connected + " times, the server accepted " + accepted + " and ended "
                    + ended, null);
        }
        if (failedConnections.get() > aborted.get()) {
            problem(failedConnections + " connections failed on the server, but clients aborted only " + aborted, null);
        }
        check();
    }

    /** Before the pool's shutdown: from now on, shutdown failures are expected. */
    void shuttingDown() {
        shuttingDown = true;
    }

    /** After the pool's shutdown: every pending operation has failed; the channels, still open, are closed here. */
    void afterShutdown() throws InterruptedException {
        awaitEveryCompletion();
        closeDirectly(server); // still the caller's after shutdown; clients waiting in the backlog get a reset
        open.forEach(EchoTraffic::closeDirectly);
        for (Thread c : clients) {
            c.join();
        }
        check();
    }

    private void awaitEveryCompletion() {
        while (!acceptEnded || completed.get() < started.get()) { // a lost completion waits here for the watchdog
            LockSupport.parkNanos(1_000_000);
        }
    }

    private void check() {
        if (completed.get() != started.get()) {
            problem(started + " operations started, " + completed + " completed", null);
        }
        if (!problems.isEmpty()) {
            List<String> all = List.copyOf(problems);
            throw new Soak.SoakFailure("echo traffic: " + all.size() + " problem(s), first: " + all.get(0));
        }
    }

    private void problem(String what, Throwable cause) {
        problems.add(what);
        if (cause != null && problems.size() == 1) {
            cause.printStackTrace(System.out);
        }
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }

    private static void closeDirectly(java.io.Closeable c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException e) {
                // Closing at the end of a round: nothing to do about it.
            }
        }
    }
}
