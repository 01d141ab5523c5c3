package io.spindle;

import static io.spindle.IoFixtures.get;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.Channel;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Interrupts while IO is in flight (docs/DESIGN.md §1.11, §6): interrupting workers, however often, while they run IO
 * completions or wait in their pollers, never closes a channel (an interrupt closes an interruptible channel that is in
 * a blocking operation), never fails an operation, and never breaks a worker's wait.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PoolIoInterruptTest {

    /** Interrupts every worker over and over, until stopped; counts the rounds. */
    private static final class Storm implements AutoCloseable {
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong rounds = new AtomicLong();
        final Thread thread;

        Storm(List<Thread> workers) {
            thread = new Thread(() -> {
                while (!stop.get()) {
                    for (Thread w : workers) {
                        w.interrupt();
                    }
                    rounds.incrementAndGet();
                    LockSupport.parkNanos(20_000L);
                }
            }, "pool-io-interrupt-storm");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            thread.join();
        }
    }

    private static void assertAllOpen(List<? extends Channel> channels) {
        for (Channel ch : channels) {
            assertTrue(ch.isOpen(), "an interrupt closed a channel: " + ch);
        }
    }

    /** The pool is healthy after the storm: every worker takes work and starts it with a clear interrupt status. */
    private static void assertHealthy(IoFixtures.IoPool p) {
        p.pool.broadcast(ctx -> null); // a worker interrupted while idle clears its status after its next task
        List<Boolean> flags = p.pool.broadcast(ctx -> Thread.currentThread().isInterrupted());
        assertFalse(flags.contains(true), "a task started with an interrupt status set: " + flags);
        assertEquals(5, p.pool.install(() -> 5));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void interruptStormDuringEchoAndPipeTraffic(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            ServerSocketChannel server = p.server();
            int n = 8;
            List<CompletableFuture<Void>> sessions = new CopyOnWriteArrayList<>();
            CompletableFuture<Void> accepted = PoolIoTest.acceptLoop(p.io, server, n, sessions);
            Pipe pipe = p.pipe();
            int pipeBytes = 1024 * 1024;
            byte[] pipeData = IoFixtures.pattern(pipeBytes, 3);
            List<CompletableFuture<Void>> clients = new ArrayList<>();
            CompletableFuture<byte[]> pipeRead;
            CompletableFuture<Integer> pipeWrite;
            long rounds;
            try (Storm storm = new Storm(p.workerThreads())) {
                p.phase = "storm";
                // the storm's thread first, or the traffic may be over before it runs once (seen on 2 cores)
                Watchdog.awaitCondition(() -> storm.rounds.get() > 0, IoFixtures.HANG, p.ctx());
                for (int i = 0; i < n; i++) {
                    clients.add(PoolIoTest.client(p.io, server.getLocalAddress(), i));
                }
                pipeRead = IoFixtures.readExactly(p.io, pipe.source(), pipeBytes);
                pipeWrite = p.io.write(pipe.sink(), ByteBuffer.wrap(pipeData));
                get(CompletableFuture.allOf(clients.toArray(CompletableFuture[]::new)), p.ctx());
                assertEquals(pipeBytes, get(pipeWrite, p.ctx()));
                assertArrayEquals(pipeData, get(pipeRead, p.ctx()));
                get(accepted, p.ctx());
                get(CompletableFuture.allOf(sessions.toArray(CompletableFuture[]::new)), p.ctx());
                rounds = storm.rounds.get();
            }
            assertTrue(rounds > 0, "the storm never ran");
            assertAllOpen(List.of(server, pipe.source(), pipe.sink()));
            assertHealthy(p);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void interruptsWhileWorkersWaitInTheirPollers(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            List<Thread> workers = p.workerThreads();
            List<IoFixtures.Conn> conns = new ArrayList<>();
            List<CompletableFuture<byte[]>> reads = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                IoFixtures.Conn c = p.conn();
                conns.add(c);
                // half started on workers, so that each worker may own some
                reads.add(i % 2 == 0 ? IoFixtures.readExactly(p.io, c.mine(), 2)
                        : p.pool.install(() -> IoFixtures.readExactly(p.io, c.mine(), 2)));
            }
            Pipe pipe = p.pipe();
            CompletableFuture<byte[]> pipeRead = p.pool.install(() -> IoFixtures.readExactly(p.io, pipe.source(), 2));
            for (int round = 0; round < 5; round++) {
                p.awaitAllAsleep();
                p.phase = "interrupting sleepers, round " + round;
                for (int k = 0; k < 20; k++) {
                    for (Thread w : workers) {
                        w.interrupt();
                    }
                    LockSupport.parkNanos(50_000L);
                }
            }
            for (int i = 0; i < reads.size(); i++) {
                assertFalse(reads.get(i).isDone(), "an interrupt completed a read with no data: " + reads.get(i));
                assertTrue(conns.get(i).mine().isOpen(), "an interrupt closed a channel waiting in a poller");
            }
            assertTrue(pipe.source().isOpen(), "an interrupt closed a pipe waiting in a poller");
            p.phase = "data after the interrupts";
            for (int i = 0; i < conns.size(); i++) {
                IoFixtures.writeFully(conns.get(i).peer(), new byte[] {(byte) i, 9});
            }
            pipe.sink().write(ByteBuffer.wrap(new byte[] {4, 2}));
            for (int i = 0; i < reads.size(); i++) {
                assertArrayEquals(new byte[] {(byte) i, 9}, get(reads.get(i), p.ctx()));
            }
            assertArrayEquals(new byte[] {4, 2}, get(pipeRead, p.ctx()));
            assertHealthy(p);
        }
    }
}
