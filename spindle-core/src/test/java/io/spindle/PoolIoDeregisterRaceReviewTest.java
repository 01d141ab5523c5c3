package io.spindle;

import static io.spindle.IoFixtures.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
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

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Review of IO13: a new operation placed on a channel right after its hand-back, on the same home, while the
 * hand-back's cancelled key may still be in that home's selector (the caller's tryLock failed: the watchdog, or
 * another hand-back, held the poll lock). The new operation re-registers the channel at the same selector: the JDK
 * throws CancelledKeyException for a channel whose key there is cancelled and not yet deregistered, and
 * applyInterest fails the new operation as if the channel were closed (AsynchronousCloseException) though it is open.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PoolIoDeregisterRaceReviewTest {
    static final int ROUNDS = Integer.getInteger("review.rounds", 20_000);

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
            // a contender for the poll locks: hand-backs of pipes from off the pool (each selects under the lock)
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
            int[] counts = new int[2];
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
                        if (!d.isDone()) {
                            counts[0]++; // the key is still in the selector: the window of the race
                        }
                        synchronized (handBacks) {
                            handBacks.add(d);
                        }
                        CompletableFuture<Integer> r2 = p.io.read(mine, b); // the caller takes the channel again
                        if (!r2.cancel(true)) {
                            Throwable t;
                            try {
                                r2.join();
                                t = null;
                            } catch (Throwable e) {
                                t = e.getCause() != null ? e.getCause() : e;
                            }
                            counts[1]++;
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
            for (CompletableFuture<Void> d : handBacks) {
                get(d, p.ctx());
            }
            System.out.println("REVIEW " + config + ": hand-backs incomplete at return " + counts[0]
                    + ", second reads that did not stay pending " + counts[1] + " of " + ROUNDS + "; failures "
                    + failures);
            assertEquals(Map.of(), Map.copyOf(failures), () -> "of " + ROUNDS + " rounds");
            assertTrue(true);
        }
    }
}
