package io.spindle.internal.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindle.SleepStrategy;
import io.spindle.ThreadPool;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.Pipe;
import java.nio.channels.SelectableChannel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * IO6 when the hand-out of a step's finished operations overflows at a stack's edge: the caller owes the list
 * ({@link FinishedOps#owe}, the body its catch blocks write out inline), and the next delivery hands out what is left,
 * each operation exactly once. Here a close's step is played by hand (its operations failed and detached from their
 * channel, as {@code PoolIO.close} leaves them), one of two operations is handed out before the "overflow", and the
 * list is owed; before the fix such operations were lost: no sweep can find an operation detached from its channel,
 * so its future never completed and its terminate count kept the pool from terminating
 * ({@code PoolIoErrorSafetyTest}'s close at every depth, which stranded reads in 3 of 30 iterations).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FinishedOpsOwedTest {
    private static final long WAIT_SECONDS = 30;

    @ParameterizedTest
    @EnumSource(SleepStrategy.class)
    void anOwedListIsHandedOutByTheNextDeliveryEachOperationOnce(SleepStrategy strategy) throws Exception {
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        ThreadPool pool = ThreadPool.builder().sleepStrategy(strategy).threads(2)
                .uncaughtExceptionHandler((t, e) -> handled.add(e)).build();
        Pipe first = Pipe.open();
        Pipe second = Pipe.open();
        try {
            PoolIoImpl io = (PoolIoImpl) pool.io();
            first.source().configureBlocking(false);
            second.source().configureBlocking(false);
            CompletableFuture<Integer> a = io.read(first.source(), ByteBuffer.allocate(1));
            CompletableFuture<Integer> b = io.read(second.source(), ByteBuffer.allocate(1));

            // a close's step, as PoolIO.close makes it: fail and detach, then remove from the table
            FinishedOps finished = new FinishedOps(io);
            for (Pipe p : new Pipe[] {first, second}) {
                ChannelState s = channels(io).get(p.source());
                s.detachAndFail(AsynchronousCloseExceptions::closed, finished);
                channels(io).remove(p.source(), s);
            }
            assertEquals(2, finished.size());
            io.queueFinished(finished, null, 1); // the last one goes out; then the "overflow"
            assertEquals(1, finished.size(), "the one handed out left the list");
            finished.owe();

            // the delivery a worker's wait round, the watchdog or a non-worker's next hand-out makes
            io.deliverOwedWakes();
            for (CompletableFuture<Integer> r : List.of(a, b)) {
                ExecutionException failed = awaitFailure(r);
                assertInstanceOf(AsynchronousCloseException.class, failed.getCause());
            }
            first.source().close();
            second.source().close();
            pool.shutdown();
            assertTrue(pool.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS),
                    "a count was never given back: " + pool);
            // an operation run twice gives its count back twice: the count's underflow assertion reaches the handler
            assertEquals(List.of(), handled);
        } finally {
            pool.shutdownNow();
            for (Pipe p : new Pipe[] {first, second}) {
                p.source().close();
                p.sink().close();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(SleepStrategy.class)
    void anOwedListWithNothingLeftIsHarmless(SleepStrategy strategy) throws Exception {
        ThreadPool pool = ThreadPool.builder().sleepStrategy(strategy).threads(1).build();
        try {
            PoolIoImpl io = (PoolIoImpl) pool.io();
            FinishedOps empty = new FinishedOps(io);
            empty.owe();
            io.deliverOwedWakes();
            pool.shutdown();
            assertTrue(pool.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS), "the empty list's job kept the pool: "
                    + pool);
        } finally {
            pool.shutdownNow();
        }
    }

    private static ExecutionException awaitFailure(CompletableFuture<?> f) throws Exception {
        try {
            f.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e;
        }
        assertFalse(true, "completed normally: " + f);
        return null;
    }

    @SuppressWarnings("unchecked")
    private static Map<SelectableChannel, ChannelState> channels(PoolIoImpl io) throws ReflectiveOperationException {
        Field f = PoolIoImpl.class.getDeclaredField("channels");
        f.setAccessible(true);
        return (Map<SelectableChannel, ChannelState>) f.get(io);
    }
}
