package io.spindle;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Shared pieces of the {@code PoolIo*Test} classes (docs/DESIGN.md §6): the configurations (every strategy at 1, 2 and
 * 4 workers), a pool wrapper that records what reaches the uncaught-exception handler and closes under a deadline,
 * loopback and pipe endpoints, and waits that turn a hang into a failure with a thread dump. No pass/fail assertion
 * here depends on timing: {@link #HANG} only turns a hang into a failure.
 */
final class IoFixtures {
    /** Deadline that turns a hang into a failure; never a performance bound. */
    static final Duration HANG = Duration.ofSeconds(30);

    static final int[] IO_THREAD_COUNTS = {1, 2, 4};

    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    private IoFixtures() {}

    /** For {@code @MethodSource("io.spindle.IoFixtures#configs")}: every strategy at 1, 2 and 4 workers. */
    static Stream<Arguments> configs() {
        return configsWith(IO_THREAD_COUNTS);
    }

    /** Every strategy at 2 and 4 workers: for rules about another worker taking over. */
    static Stream<Arguments> multiWorkerConfigs() {
        return configsWith(new int[] {2, 4});
    }

    /** Every strategy at 1 worker. */
    static Stream<Arguments> oneWorkerConfigs() {
        return configsWith(new int[] {1});
    }

    private static Stream<Arguments> configsWith(int[] counts) {
        List<Arguments> out = new ArrayList<>();
        for (SleepStrategy s : TestPools.IMPLEMENTED) {
            for (int n : counts) {
                out.add(Arguments.of(new TestPools.Config(s, n)));
            }
        }
        return out.stream();
    }

    /**
     * A pool for one IO test: named workers (found through {@link Watchdog.Workers}), an uncaught-exception handler
     * that records every failure, and a close that fails on a hang (with a thread dump) and fails if anything reached
     * the handler (docs/DESIGN.md §6: IO failures never reach the pool's handler).
     */
    static final class IoPool implements AutoCloseable {
        final TestPools.Config config;
        final ThreadPool pool;
        final PoolIO io;
        final Watchdog.Workers workers;
        final List<Throwable> handled = new CopyOnWriteArrayList<>();
        volatile String phase = "start";
        private final List<java.nio.channels.Channel> toClose = new CopyOnWriteArrayList<>();

        IoPool(TestPools.Config config) {
            this.config = config;
            String prefix = "pio" + POOL_IDS.incrementAndGet() + "-w";
            this.pool = config.builder().threadName(i -> prefix + i)
                    .uncaughtExceptionHandler((t, e) -> handled.add(e)).build();
            this.workers = new Watchdog.Workers(pool, prefix, config.threads());
            try {
                this.io = pool.io();
            } catch (RuntimeException | Error e) {
                pool.close();
                throw e;
            }
        }

        /** Failure-message context: configuration, phase, stats, worker states. */
        Supplier<String> ctx() {
            return () -> "config=" + config + " phase=" + phase + " stats=" + pool.stats() + " pool=" + pool
                    + " workers=[" + workers.describe() + "]";
        }

        /** Closes {@code c} when the test ends (after the pool). */
        <C extends java.nio.channels.Channel> C closing(C c) {
            toClose.add(c);
            return c;
        }

        /** A listening loopback server in non-blocking mode. */
        ServerSocketChannel server() throws IOException {
            ServerSocketChannel s = closing(ServerSocketChannel.open());
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
            s.configureBlocking(false);
            return s;
        }

        /**
         * A connected loopback pair: {@code pool} non-blocking (for the pool's IO), {@code peer} blocking (driven by
         * the test thread).
         */
        Conn conn() throws IOException {
            try (ServerSocketChannel s = ServerSocketChannel.open()) {
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                SocketChannel peer = closing(SocketChannel.open(s.getLocalAddress()));
                SocketChannel mine = closing(s.accept());
                mine.configureBlocking(false);
                return new Conn(mine, peer);
            }
        }

        /** A pipe whose source and sink are both non-blocking. */
        Pipe pipe() throws IOException {
            Pipe p = Pipe.open();
            closing(p.source()).configureBlocking(false);
            closing(p.sink()).configureBlocking(false);
            return p;
        }

        /** The pool's worker threads, by index. */
        List<Thread> workerThreads() {
            return pool.broadcast(c -> Thread.currentThread());
        }

        /** Waits until every worker is asleep (sleeps counted, then at rest); fails on a hang. */
        void awaitAllAsleep() {
            phase = "awaiting rest";
            long n = config.threads();
            Watchdog.awaitCondition(() -> pool.stats().sleeps() >= n, HANG, ctx());
            assertTrue(workers.settle(HANG), () -> "the pool never came to rest: " + ctx().get());
        }

        @Override
        public void close() {
            phase = "close";
            try (Watchdog.Guard g = Watchdog.guard(pool, ctx())) {
                // closes under a deadline
            } finally {
                for (java.nio.channels.Channel c : toClose) {
                    try {
                        c.close();
                    } catch (IOException ignored) {
                        // best effort
                    }
                }
            }
            if (!handled.isEmpty()) {
                AssertionError e = new AssertionError("failures reached the pool's uncaught-exception handler ("
                        + config + "): " + handled);
                handled.forEach(e::addSuppressed);
                throw e;
            }
        }
    }

    /**
     * Skips a test of the IO watchdog's own behaviour when the run turned the watchdog off
     * ({@code -Dspindle.io.watchdogMicros=0}, one of the suite's executions).
     */
    static void assumeWatchdogOn(String whatOwnersDoInstead) {
        Assumptions.assumeFalse("0".equals(System.getProperty("spindle.io.watchdogMicros")),
                "the watchdog is off: " + whatOwnersDoInstead);
    }

    /** The pool's IO watchdog thread, found by the name the pool gives it: its own name, then "-io-watchdog". */
    static Thread watchdogThread(ThreadPool pool, Supplier<String> ctx) {
        String name = ShutdownTest.poolName(pool) + "-io-watchdog";
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no thread named " + name + ": " + ctx.get()));
    }

    /** A connected loopback pair: {@code mine} non-blocking for the pool, {@code peer} blocking for the test. */
    record Conn(SocketChannel mine, SocketChannel peer) {}

    /** Waits for {@code f} under {@link #HANG} and returns its value; fails if it hangs or completes exceptionally. */
    static <T> T get(CompletableFuture<T> f, Supplier<String> ctx) {
        try {
            return f.get(HANG.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("HANG: future not completed within " + HANG.toMillis() + " ms (" + f
                    + "); context: " + ctx.get() + "\n" + Watchdog.threadDump());
        } catch (ExecutionException e) {
            throw new AssertionError("future failed; context: " + ctx.get(), e.getCause());
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** Waits for {@code f} under {@code deadline}; returns its failure (unwrapped); fails if it completes normally. */
    static Throwable failure(CompletableFuture<?> f, Duration deadline, Supplier<String> ctx) {
        try {
            Object v = f.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
            throw new AssertionError("expected a failure, got " + v + "; context: " + ctx.get());
        } catch (TimeoutException e) {
            throw new AssertionError("HANG: future not completed within " + deadline.toMillis() + " ms (" + f
                    + "); context: " + ctx.get() + "\n" + Watchdog.threadDump());
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (java.util.concurrent.CancellationException e) {
            return e;
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    static Throwable failure(CompletableFuture<?> f, Supplier<String> ctx) {
        return failure(f, HANG, ctx);
    }

    /** {@code n} bytes of a pattern that differs per {@code seed} and per position (catches reordering and loss). */
    static byte[] pattern(int n, int seed) {
        byte[] b = new byte[n];
        int x = seed * 0x9E3779B1 + 1;
        for (int i = 0; i < n; i++) {
            x ^= x << 13;
            x ^= x >>> 17;
            x ^= x << 5;
            b[i] = (byte) x;
        }
        return b;
    }

    /** Reads exactly {@code n} bytes from a blocking channel. */
    static byte[] readFully(SocketChannel blocking, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining()) {
            if (blocking.read(b) < 0) {
                throw new IOException("end of stream after " + b.position() + " of " + n + " bytes");
            }
        }
        return b.array();
    }

    /** Writes all of {@code bytes} to a blocking channel. */
    static void writeFully(SocketChannel blocking, byte[] bytes) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
            blocking.write(b);
        }
    }

    /**
     * The size of a write that must stay pending after {@link #fill}: far more than a socket holds. TCP on loopback may
     * still take a few hundred KB after fill() saw zeros (the peer's receive buffer grows with autotuning), and a write
     * it took whole is no longer pending (a 4 KiB one completed under CI's load on 2026-11-29).
     */
    static final int MORE_THAN_A_SOCKET_HOLDS = 16 << 20;

    /** Fills a non-blocking channel's send buffer until a write takes nothing; returns the bytes written. */
    static long fill(java.nio.channels.WritableByteChannel nonBlocking) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
        long total = 0;
        int zeros = 0;
        while (zeros < 3) { // a few zero writes in a row: the buffer is full (the kernel may free a little in between)
            chunk.clear();
            int w = nonBlocking.write(chunk);
            total += w;
            zeros = w == 0 ? zeros + 1 : 0;
        }
        return total;
    }

    /**
     * Reads from {@code ch} with the pool's IO until {@code n} bytes arrived; returns them. The loop chains futures
     * (each step starts on the worker that completed the previous one).
     */
    static <C extends java.nio.channels.SelectableChannel & java.nio.channels.ReadableByteChannel>
            CompletableFuture<byte[]> readExactly(PoolIO io, C ch, int n) {
        ByteBuffer dst = ByteBuffer.allocate(n);
        return readLoop(io, ch, dst).thenApply(b -> b.array());
    }

    private static <C extends java.nio.channels.SelectableChannel & java.nio.channels.ReadableByteChannel>
            CompletableFuture<ByteBuffer> readLoop(PoolIO io, C ch, ByteBuffer dst) {
        return io.read(ch, dst).thenCompose(r -> {
            if (r < 0) {
                return CompletableFuture.failedFuture(new IOException("end of stream after " + dst.position()
                        + " of " + dst.capacity() + " bytes"));
            }
            if (r == 0) {
                return CompletableFuture.failedFuture(new AssertionError("read completed with 0 bytes while "
                        + dst.remaining() + " remained"));
            }
            return dst.hasRemaining() ? readLoop(io, ch, dst) : CompletableFuture.completedFuture(dst);
        });
    }
}
