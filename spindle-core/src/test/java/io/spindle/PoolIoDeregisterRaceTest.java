package io.spindle;

import static io.spindle.IoFixtures.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * IO13 regressions: a new operation placed on a channel right after its hand-back, on the same home, while the
 * hand-back's cancelled key is still in that home's selector (the caller's tryLock failed: another hand-back held the
 * poll lock). The new operation registers the channel at the same selector, where the JDK finds the cancelled key and
 * throws CancelledKeyException; the first version failed the operation as if the channel were closed
 * (AsynchronousCloseException), on an open channel (a review saw 1 and 18 of 20,000 rounds in two of nine
 * configurations). And a hand-back joined inside a job of a one-worker pool, whose only worker is the one waiting.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PoolIoDeregisterRaceTest {
    static final int ROUNDS = Integer.getInteger("spindle.tests.deregisterRace.rounds", 20_000);

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void aReadRightAfterAHandBackOnTheSameHomeIsNotFailedAsClosed(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            SocketChannel mine = c.mine();
            ServerSocketChannel server = p.server();
            AtomicBoolean stop = new AtomicBoolean();
            Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();
            List<CompletableFuture<Void>> handBacks = new ArrayList<>();
            // a contender for the poll locks: hand-backs of a pipe from off the pool (each selects under the lock)
            Pipe pipe = p.pipe();
            Thread contender = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        CompletableFuture<Integer> r = p.io.read(pipe.source(), ByteBuffer.allocate(1));
                        r.cancel(true);
                        p.io.deregister(pipe.source()).get(30, TimeUnit.SECONDS);
                    } catch (Throwable t) {
                        failures.computeIfAbsent("contender " + t, k -> new AtomicInteger()).incrementAndGet();
                    }
                }
            });
            contender.start();
            try {
                p.phase = "loop";
                p.pool.install(() -> {
                    CompletableFuture<SocketChannel> accept = p.io.accept(server); // the home holds other IO (IO4)
                    ByteBuffer b = ByteBuffer.allocate(16);
                    for (int i = 0; i < ROUNDS; i++) {
                        CompletableFuture<Integer> r = p.io.read(mine, b);
                        r.cancel(true);
                        CompletableFuture<Void> d;
                        try {
                            d = p.io.deregister(mine);
                        } catch (IllegalStateException e) {
                            failures.computeIfAbsent("deregister " + e, k -> new AtomicInteger()).incrementAndGet();
                            continue;
                        }
                        handBacks.add(d);
                        CompletableFuture<Integer> r2 = p.io.read(mine, b); // the caller takes the channel again
                        if (!r2.cancel(true)) { // nothing was written to mine: only a failure finishes it
                            Throwable t;
                            try {
                                r2.join();
                                t = null;
                            } catch (Throwable e) {
                                t = e.getCause() != null ? e.getCause() : e;
                            }
                            failures.computeIfAbsent("second read " + t, k -> new AtomicInteger()).incrementAndGet();
                        }
                    }
                    accept.cancel(true);
                    return null;
                });
            } finally {
                stop.set(true);
                contender.join(30_000);
            }
            assertFalse(contender.isAlive(), "the contender hung");
            for (CompletableFuture<Void> d : handBacks) {
                get(d, p.ctx());
            }
            assertEquals(Map.of(), Map.copyOf(failures), () -> "of " + ROUNDS + " rounds");
        }
    }

    /**
     * {@code deregister(ch).join()} inside a job of a one-worker pool: the hand-back's job is injected, and the only
     * worker is the one waiting in the join, which must run it (the join helps with injected work) rather than
     * deadlock. The home holds other IO (a pending accept), so the key stays registered until the hand-back.
     */
    @Test
    void aHandBackJoinedInsideAJobOfAOneWorkerPoolCompletes() throws Exception {
        try (ThreadPool pool = ThreadPool.builder().threads(1).build()) {
            ServerSocketChannel server = ServerSocketChannel.open();
            server.bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0));
            server.configureBlocking(false);
            Pipe pipe = Pipe.open();
            pipe.source().configureBlocking(false);
            int joined = pool.install(() -> {
                CompletableFuture<SocketChannel> accept = pool.io().accept(server); // the home holds other IO
                int n = 0;
                for (int i = 0; i < 200; i++) {
                    CompletableFuture<Integer> r = pool.io().read(pipe.source(), ByteBuffer.allocate(1));
                    assertTrue(r.cancel(true));
                    pool.io().deregister(pipe.source()).join(); // a hang here is the deadlock
                    n++;
                }
                accept.cancel(true);
                return n;
            });
            assertEquals(200, joined);
            pipe.source().configureBlocking(true); // the last hand-back let go of the channel
            pipe.source().close();
            pipe.sink().close();
            server.close();
        }
    }
}
