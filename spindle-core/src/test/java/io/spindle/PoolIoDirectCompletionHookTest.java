package io.spindle;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * IO12 for user code that is not a job: a worker's start hook runs the README's read loop over a socket whose bytes
 * are already waiting, and each turn's stage joins a job of the pool. The join runs that job on the worker, which must
 * count as nested (the hook is on the stack), or it starts a new budget of direct completions at every turn and the
 * loop recurses without bound (an outside review of IO12: 2,000 frames deep at turn 400, on every strategy). Nothing
 * here depends on timing; the timeout only turns a hang into a failure.
 */
class PoolIoDirectCompletionHookTest {
    static final int TURNS = 2_000;
    /** Far above what 8 direct completions and a join's frames take, far below what 2,000 unbounded turns reach. */
    static final int MAX_STACK_FRAMES = 1_000;

    static int stackDepth() {
        return (int) (long) StackWalker.getInstance().walk(frames -> frames.count());
    }

    static SocketChannel[] connectedPair() throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel peer = SocketChannel.open(server.getLocalAddress());
            SocketChannel mine = server.accept();
            mine.configureBlocking(false);
            return new SocketChannel[] {mine, peer};
        }
    }

    @ParameterizedTest
    @EnumSource(value = SleepStrategy.class, names = {"JOBS_EVENT_COUNTER", "SLEEPY_WORKER", "HINT_PIPE"})
    void aReadLoopInAStartHookWhoseStagesJoinPoolJobsStaysShallow(SleepStrategy strategy) throws Exception {
        SocketChannel[] pair = connectedPair();
        SocketChannel peer = pair[1];
        peer.configureBlocking(false);
        ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
        for (int zeros = 0; zeros < 3; ) { // fill what the sockets take: every read of the loop finds bytes waiting
            zeros = peer.write(chunk.clear()) == 0 ? zeros + 1 : 0;
        }
        AtomicReference<ThreadPool> poolRef = new AtomicReference<>();
        CountDownLatch built = new CountDownLatch(1);
        CompletableFuture<String> result = new CompletableFuture<>();
        AtomicInteger hookRuns = new AtomicInteger();
        ThreadPool pool = ThreadPool.builder().sleepStrategy(strategy).threads(1).onThreadStart(i -> {
            if (hookRuns.getAndIncrement() != 0) {
                return;
            }
            try {
                built.await();
            } catch (InterruptedException e) {
                return;
            }
            new ReadLoop(poolRef.get(), pair[0], result).turn();
        }).build();
        poolRef.set(pool);
        built.countDown();
        try {
            String outcome = result.get(120, TimeUnit.SECONDS);
            assertTrue(outcome.startsWith("ok"), strategy + ": " + outcome);
        } finally {
            pool.close();
            pair[0].close();
            peer.close();
        }
    }

    /** The README's loop; each turn's stage joins a job of the pool before it starts the next turn. */
    static final class ReadLoop {
        final ThreadPool pool;
        final SocketChannel channel;
        final CompletableFuture<String> result;
        final ByteBuffer buf = ByteBuffer.allocate(256);
        int turns; // only the chain touches it, one turn after another
        int deepest;

        ReadLoop(ThreadPool pool, SocketChannel channel, CompletableFuture<String> result) {
            this.pool = pool;
            this.channel = channel;
            this.result = result;
        }

        void turn() {
            buf.clear();
            pool.io().read(channel, buf).whenComplete((n, failure) -> {
                try {
                    if (failure != null) {
                        result.complete("failed " + failure + " after " + turns + " turns");
                        return;
                    }
                    turns++;
                    deepest = Math.max(deepest, stackDepth());
                    if (deepest > MAX_STACK_FRAMES) {
                        result.complete("turn " + turns + " runs " + deepest + " frames deep: unbounded (IO12)");
                        return;
                    }
                    if (turns >= TURNS) {
                        result.complete("ok: " + turns + " turns, deepest " + deepest + " frames");
                        return;
                    }
                    pool.supplyAsync(() -> 1).join(); // runs a job of the pool on this worker, inside the hook
                    turn();
                } catch (Throwable t) {
                    result.complete("threw " + t + " after " + turns + " turns");
                }
            });
        }
    }
}
