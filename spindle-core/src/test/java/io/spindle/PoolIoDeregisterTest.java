package io.spindle;

import static io.spindle.IoFixtures.get;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link PoolIO#deregister} (docs/DESIGN.md §6, IO13): a channel the pool served is handed back to blocking code. The
 * case that needs it: a connection read once on a worker that also has a server's accept pending. That home holds IO,
 * so it keeps the connection's key registered (IO4), and {@code configureBlocking(true)} throws {@link
 * IllegalBlockingModeException} for as long as the accept waits; each test checks that it does before the hand-back,
 * so that the scenario really is the one deregister exists for. Every strategy, at 1, 2 and 4 workers.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PoolIoDeregisterTest {
    /** A connection read once by a worker that also waits for a connection on a server: one home for both. */
    private record Homed(IoFixtures.Conn conn, ServerSocketChannel server, CompletableFuture<SocketChannel> accept) {}

    private static Homed readOnceBesideAnAccept(IoFixtures.IoPool p) throws Exception {
        IoFixtures.Conn c = p.conn();
        ServerSocketChannel server = p.server();
        ByteBuffer dst = ByteBuffer.allocate(16);
        // one job places both: both channels are new to the pool, so both are homed at this job's worker (IO2)
        CompletableFuture<?>[] ops = p.pool.install(() -> new CompletableFuture<?>[] {p.io.accept(server),
                p.io.read(c.mine(), dst)});
        IoFixtures.writeFully(c.peer(), new byte[] {7, 8, 9});
        p.phase = "first read";
        int n = (Integer) get(ops[1], p.ctx());
        assertTrue(n >= 1 && n <= 3, "read " + n);
        @SuppressWarnings("unchecked")
        CompletableFuture<SocketChannel> accept = (CompletableFuture<SocketChannel>) ops[0];
        assertFalse(accept.isDone(), "the accept stays pending at the home");
        // the bug deregister exists for: the home holds the accept, so it keeps the read's key (IO4)
        assertThrows(IllegalBlockingModeException.class, () -> c.mine().configureBlocking(true),
                "the connection's key should still be registered at its home while the accept waits");
        return new Homed(c, server, accept);
    }

    /** After the hand-back the connection works in blocking mode, both ways, while the accept still waits. */
    private static void assertBlockingUseWorks(IoFixtures.IoPool p, Homed h) throws Exception {
        SocketChannel mine = h.conn().mine();
        mine.configureBlocking(true); // threw IllegalBlockingModeException before the hand-back
        Watchdog.run(IoFixtures.HANG, p.ctx(), () -> {
            IoFixtures.writeFully(mine, new byte[] {1, 2, 3, 4});
            assertArrayEquals(new byte[] {1, 2, 3, 4}, IoFixtures.readFully(h.conn().peer(), 4));
            IoFixtures.writeFully(h.conn().peer(), new byte[] {5, 6});
            assertArrayEquals(new byte[] {5, 6}, IoFixtures.readFully(mine, 2));
        });
        assertFalse(h.accept().isDone(), "the accept on the same home is untouched");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void handsAConnectionBackWhileItsHomeWaitsForAnAccept(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            Homed h = readOnceBesideAnAccept(p);
            p.awaitAllAsleep(); // the home sleeps in its selector, holding the accept: the waker must end that select
            p.phase = "deregister";
            get(p.io.deregister(h.conn().mine()), p.ctx());
            assertBlockingUseWorks(p, h);
        }
    }

    /** Called on the pool: by some worker (with one worker, the home itself). The future completes on the pool. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void handsBackWhenCalledOnThePool(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            Homed h = readOnceBesideAnAccept(p);
            p.phase = "deregister on the pool";
            CompletableFuture<Void> done = p.pool.install(() -> p.io.deregister(h.conn().mine()));
            get(done, p.ctx());
            assertBlockingUseWorks(p, h);
        }
    }

    /**
     * The home runs a long job all along (it cannot select): the hand-back completes all the same, while the job still
     * runs, and another worker runs the completion. The job itself registers the connection (a read it then cancels:
     * the key stays, as the home holds the accept) so that no step waits for the busy home's IO; this holds with the
     * IO watchdog off too.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#multiWorkerConfigs")
    void handsBackWhileTheHomeRunsALongJob(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            ServerSocketChannel server = p.server();
            CountDownLatch placed = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<?>[] ops = new CompletableFuture<?>[2];
            CompletableFuture<Object> longJob = p.pool.supplyAsync(() -> {
                ops[0] = p.io.accept(server);
                ops[1] = p.io.read(c.mine(), ByteBuffer.allocate(16));
                ops[1].cancel(true); // withdrawn: ended, but its key stays registered at this busy home
                placed.countDown();
                try {
                    // the home stays busy until the test ends (a hang detector, not a timing bound)
                    assertTrue(release.await(IoFixtures.HANG.toMillis(), TimeUnit.MILLISECONDS));
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                return null;
            });
            try {
                assertTrue(placed.await(IoFixtures.HANG.toMillis(), TimeUnit.MILLISECONDS), p.ctx());
                assertTrue(ops[1].isCancelled());
                assertThrows(IllegalBlockingModeException.class, () -> c.mine().configureBlocking(true));
                p.phase = "deregister behind a busy home";
                get(p.io.deregister(c.mine()), p.ctx());
                assertFalse(longJob.isDone(), "the home was busy all along");
                @SuppressWarnings("unchecked")
                Homed h = new Homed(c, server, (CompletableFuture<SocketChannel>) ops[0]);
                assertBlockingUseWorks(p, h);
            } finally {
                release.countDown();
            }
            get(longJob, p.ctx());
        }
    }

    /** A pending operation refuses the hand-back, and the call changes nothing: the read then completes as usual. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void refusesWhileAnOperationIsPending(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            CompletableFuture<Integer> read = p.io.read(c.mine(), ByteBuffer.allocate(16));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> p.io.deregister(c.mine()));
            assertNotNull(e.getMessage());
            assertTrue(e.getMessage().contains("read"), e.getMessage());
            IoFixtures.writeFully(c.peer(), new byte[] {3});
            assertEquals(1, get(read, p.ctx()));
            get(p.io.deregister(c.mine()), p.ctx()); // and once it completed, the hand-back goes ahead
            c.mine().configureBlocking(true);
        }
    }

    /** After the hand-back the pool can take the channel again: it is registered anew at its next operation. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void theChannelCanComeBackToThePool(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            Homed h = readOnceBesideAnAccept(p);
            get(p.io.deregister(h.conn().mine()), p.ctx());
            assertBlockingUseWorks(p, h);
            SocketChannel mine = h.conn().mine();
            mine.configureBlocking(false);
            p.phase = "read after coming back";
            CompletableFuture<byte[]> again = p.pool.install(() -> IoFixtures.readExactly(p.io, mine, 3));
            IoFixtures.writeFully(h.conn().peer(), new byte[] {4, 5, 6});
            assertArrayEquals(new byte[] {4, 5, 6}, get(again, p.ctx()));
            // and handed back a second time
            get(p.io.deregister(mine), p.ctx());
            mine.configureBlocking(true);
        }
    }

    /** A channel the pool never saw (or no longer holds) is handed back at once; twice is fine too. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void aChannelThePoolNeverSawIsHandedBackAtOnce(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            Pipe pipe = p.pipe();
            CompletableFuture<Void> f = p.io.deregister(pipe.source());
            assertTrue(f.isDone() && !f.isCompletedExceptionally(), f.toString());
            assertTrue(p.io.deregister(pipe.source()).isDone());
            pipe.source().configureBlocking(true);
            assertTrue(p.io.deregister(pipe.source()).isDone(), "a channel in blocking mode is not the pool's");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#oneWorkerConfigs")
    void badArgumentsAndShutdown(TestPools.Config config) throws Exception {
        IoFixtures.IoPool p = new IoFixtures.IoPool(config);
        Pipe pipe;
        try (p) {
            NullPointerException npe = assertThrows(NullPointerException.class, () -> p.io.deregister(null));
            assertEquals("channel", npe.getMessage());
            pipe = p.pipe();
            p.pool.shutdown();
            // shutdown deregisters every channel itself (IO9); a hand-back after it is refused as every call is
            RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                    () -> p.io.deregister(pipe.source()));
            assertTrue(e.getMessage().contains("shut down"), e.getMessage());
        }
    }
}
