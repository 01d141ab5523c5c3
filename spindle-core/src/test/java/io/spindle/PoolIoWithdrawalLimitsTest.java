package io.spindle;

import static io.spindle.IoFixtures.get;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.ReadPendingException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What PoolIO's javadoc says a withdrawal does not do, and the timed get of a one-thread pool's only worker: each as
 * documented, so that the documentation stays true. No assertion depends on timing.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PoolIoWithdrawalLimitsTest {
    /**
     * A write withdrawn part of the way sent exactly the bytes before its buffer's position, and nothing after: a
     * marker written through the pool once the peer drained them comes right after them.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void aWithdrawnWriteSentWhatItsPositionSaysAndNothingMore(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            byte[] big = IoFixtures.pattern(32 << 20, 1); // far more than the socket buffers hold
            ByteBuffer src = ByteBuffer.wrap(big);
            CompletableFuture<Integer> write = p.io.write(c.mine(), src);
            assertFalse(write.isDone(), "the peer reads nothing: the write cannot finish");
            assertTrue(write.cancel(true));
            int sent = src.position();
            assertTrue(sent > 0 && sent < big.length, "sent " + sent);
            assertTrue(c.mine().isOpen(), "cancel(true) does not close the channel");
            assertArrayEquals(Arrays.copyOf(big, sent), IoFixtures.readFully(c.peer(), sent));
            byte[] marker = {42, 43, 44};
            get(p.io.write(c.mine(), ByteBuffer.wrap(marker)), p.ctx());
            assertArrayEquals(marker, IoFixtures.readFully(c.peer(), 3), "the withdrawn write went on after all");
            assertEquals(sent, src.position(), "the withdrawn write touched its buffer again");
        }
    }

    /** A timeout on a dependent stage completes that stage only: the read stays pending and takes the next bytes. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void aTimeoutOnADependentStageDoesNotWithdrawTheOperation(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            ByteBuffer dst = ByteBuffer.allocate(8);
            CompletableFuture<Integer> read = p.io.read(c.mine(), dst);
            CompletableFuture<Integer> stage = read.thenApply(n -> n);
            stage.completeExceptionally(new TimeoutException()); // what orTimeout does when it expires
            assertThrows(ReadPendingException.class, () -> p.io.read(c.mine(), ByteBuffer.allocate(8)));
            IoFixtures.writeFully(c.peer(), new byte[] {5});
            assertEquals(1, get(read, p.ctx()));
            assertEquals(5, dst.get(0));
        }
    }

    /**
     * The only worker of a one-thread pool, waiting in a timed get for its own read, cannot see it complete: the
     * completion is a job for that worker. It times out however long it waits (the bytes are there all along); once it
     * returns, the read completes.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#oneWorkerConfigs")
    void aTimedGetOnTheOnlyWorkerCannotSeeItsOwnCompletion(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            CompletableFuture<Integer> read = p.io.read(c.mine(), ByteBuffer.allocate(8));
            java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
            CompletableFuture<Boolean> waiter = p.pool.supplyAsync(() -> {
                running.countDown(); // from here the only worker runs this job: it cannot complete the read
                try {
                    read.get(300, TimeUnit.MILLISECONDS);
                    return false;
                } catch (TimeoutException e) {
                    return true;
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            assertTrue(running.await(IoFixtures.HANG.toMillis(), TimeUnit.MILLISECONDS), p.ctx());
            IoFixtures.writeFully(c.peer(), new byte[] {9}); // the bytes are there while the get waits
            boolean timedOut = get(waiter, p.ctx());
            assertTrue(timedOut, "the timed get saw a completion that needs its own worker");
            assertEquals(1, get(read, p.ctx()));
        }
    }
}
