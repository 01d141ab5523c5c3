package io.spindle;

import static io.spindle.IoFixtures.failure;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.ShutdownChannelGroupException;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Shutdown with IO pending (docs/DESIGN.md §6, "Shutdown"): every pending operation completes exceptionally with {@link
 * ShutdownChannelGroupException}; its channel is deregistered but stays open (it belongs to the caller); tasks already
 * accepted still run; {@code awaitTermination} returns true. For {@code shutdown}, {@code shutdownNow} and
 * {@code close}, with the workers busy or asleep in their pollers.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PoolIoShutdownTest {

    /** The pending operations of one scenario and the channels they were on. */
    private static final class Pending {
        final List<CompletableFuture<?>> futures = new ArrayList<>();
        final List<SelectableChannel> channels = new ArrayList<>();
        IoFixtures.Conn conn;
    }

    /** Starts one of each operation, pending: off the pool and on a worker. */
    private static Pending startPending(IoFixtures.IoPool p) throws Exception {
        Pending pending = new Pending();
        IoFixtures.Conn c = p.conn();
        pending.conn = c;
        pending.futures.add(p.io.read(c.mine(), ByteBuffer.allocate(16)));
        IoFixtures.fill(c.mine());
        pending.futures.add(p.io.write(c.mine(), ByteBuffer.allocate(IoFixtures.MORE_THAN_A_SOCKET_HOLDS)));
        pending.futures.add(p.io.ready(c.mine(), SelectionKey.OP_READ));
        pending.channels.add(c.mine());

        IoFixtures.Conn d = p.conn();
        pending.futures.add(p.pool.install(() -> p.io.read(d.mine(), ByteBuffer.allocate(16))));
        pending.channels.add(d.mine());

        ServerSocketChannel server = p.server();
        pending.futures.add(p.io.accept(server));
        pending.channels.add(server);

        Pipe pipe = p.pipe();
        pending.futures.add(p.pool.install(() -> p.io.read(pipe.source(), ByteBuffer.allocate(16))));
        pending.channels.add(pipe.source());
        for (CompletableFuture<?> f : pending.futures) {
            assertFalse(f.isDone(), "an operation completed with nothing to complete it: " + f);
        }
        return pending;
    }

    private static void checkShutdown(TestPools.Config config, boolean asleep, Consumer<ThreadPool> stop)
            throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            Pending pending = startPending(p);
            if (asleep) {
                p.awaitAllAsleep();
            }
            p.phase = "stop";
            Watchdog.run(IoFixtures.HANG, p.ctx(), () -> stop.accept(p.pool));
            for (CompletableFuture<?> f : pending.futures) {
                assertInstanceOf(ShutdownChannelGroupException.class, failure(f, p.ctx()),
                        "a pending operation at shutdown");
            }
            p.phase = "awaitTermination";
            assertTrue(p.pool.awaitTermination(IoFixtures.HANG.toSeconds(), TimeUnit.SECONDS),
                    () -> "not terminated: " + p.ctx().get() + "\n" + Watchdog.threadDump());
            for (SelectableChannel ch : pending.channels) {
                assertTrue(ch.isOpen(), "shutdown closed a channel that belongs to the caller: " + ch);
                assertFalse(ch.isRegistered(), "shutdown left a channel registered: " + ch);
            }
            // the caller's channel is still whole: it can go back to blocking mode and read what the peer sends
            SocketChannel mine = pending.conn.mine();
            mine.configureBlocking(true);
            IoFixtures.writeFully(pending.conn.peer(), new byte[] {1, 2, 3});
            assertArrayEquals(new byte[] {1, 2, 3}, IoFixtures.readFully(mine, 3));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void shutdownFailsPendingOperationsAndKeepsChannelsOpen(TestPools.Config config) throws Exception {
        checkShutdown(config, false, ThreadPool::shutdown);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void shutdownWhileWorkersSleepInTheirPollers(TestPools.Config config) throws Exception {
        checkShutdown(config, true, ThreadPool::shutdown);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void closeWithPendingOperationsReturns(TestPools.Config config) throws Exception {
        checkShutdown(config, false, ThreadPool::close);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void shutdownNowWithPendingOperationsReturns(TestPools.Config config) throws Exception {
        checkShutdown(config, true, ThreadPool::shutdownNow);
    }

    /** A task accepted before shutdown still runs to its end, while the pending IO fails at shutdown. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void tasksAcceptedBeforeShutdownStillRun(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicBoolean ran = new AtomicBoolean();
            CompletableFuture<Integer> read = p.io.read(c.mine(), ByteBuffer.allocate(8));
            p.pool.execute(() -> {
                started.countDown();
                Watchdog.await(release, IoFixtures.HANG, p.ctx());
                ran.set(true);
            });
            Watchdog.await(started, IoFixtures.HANG, p.ctx());
            p.pool.shutdown();
            assertFalse(p.pool.isTerminated(), "terminated while an accepted task still runs");
            release.countDown(); // (a one-worker pool may need its worker to complete the read's future)
            assertInstanceOf(ShutdownChannelGroupException.class, failure(read, p.ctx()));
            assertTrue(p.pool.awaitTermination(IoFixtures.HANG.toSeconds(), TimeUnit.SECONDS),
                    () -> "not terminated: " + p.ctx().get());
            assertTrue(ran.get(), "the accepted task did not run to its end");
            assertTrue(c.mine().isOpen());
        }
    }
}
