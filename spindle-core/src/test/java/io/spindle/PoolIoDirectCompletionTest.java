package io.spindle;

import static io.spindle.IoFixtures.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/DESIGN.md §6, "Direct completions are bounded" (IO12 in the IO package-info): a loop written the README's way,
 * {@code io.read(ch, buf).whenComplete((n, e) -> loop())}, each turn's stage attached after the call returned, runs to
 * the end however many of its operations finish at their call. Before IO12 only completions nested inside the
 * completion itself were counted; the count was back to zero when the caller attached its stage, so each turn that
 * found its bytes waiting ran the next on the caller's stack, and the {@code StackOverflowError} (swallowed by the
 * {@code CompletableFuture}) ended the chain silently: a read loop with 4 KiB buffers stopped after about 4 MB, a write
 * loop after about 1,070 writes.
 *
 * <p>Every turn samples the depth of the stack it runs on now and then and the loop fails at once if it passes
 * {@link #MAX_STACK_FRAMES}: the bound holds the direct completions a top-level job may chain ({@code
 * PoolIoImpl.MAX_DIRECT_COMPLETIONS}) many times over, and turns that run inline one after another on today's code pass
 * it within the first few hundred kilobytes. So the test fails at once on an unbounded stack, not only once it
 * overflows. The data are checked byte for byte. Nothing here depends on timing; {@link IoFixtures#HANG} and the
 * class timeout only turn a hang into a failure.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PoolIoDirectCompletionTest {
    /** The read loop's bytes: 16,384 turns of 4 KiB, many times the ~4 MB after which the unbounded loop stopped. */
    static final long READ_TOTAL = 64L * 1024 * 1024;
    static final int READ_BUFFER = 4 * 1024;
    /** The write loop's turns, each a small write a drained socket takes at once. */
    static final int WRITES = 20_000;
    static final int WRITE_SIZE = 64;
    /** Each turn that is a multiple of this samples its stack's depth. */
    static final int SAMPLE_EVERY = 8;
    /**
     * The deepest stack a turn may see. A turn adds about five frames; with the budget spent a worker's loop runs 55
     * to 85 frames deep (its own frames, the budget's turns, and a few more where a thief completed a pushed operation
     * before the caller attached its stage: see IO12). The bound leaves room for some sixty such turns in a row,
     * while today's unbounded loop, whose first few hundred turns all find their bytes waiting (the peer filled the
     * socket's buffers first) or their send buffer free, passes it within its first hundred turns.
     */
    static final int MAX_STACK_FRAMES = 400;

    /** Every strategy at 1 worker (no thief: the worker's own deque and joins alone) and 2 (a thief), on and off. */
    static Stream<Arguments> configs() {
        List<Arguments> out = new ArrayList<>();
        for (SleepStrategy s : TestPools.IMPLEMENTED) {
            for (int n : new int[] {1, 2}) {
                for (boolean onPool : new boolean[] {true, false}) {
                    out.add(Arguments.of(new TestPools.Config(s, n), onPool));
                }
            }
        }
        return out.stream();
    }

    /** The byte at {@code position} of the stream the peer writes: varies per position, so loss shows. */
    static byte streamByte(long position) {
        return (byte) (position * 31 + (position >>> 12));
    }

    /** The README's read loop: each turn attaches its stage to the future {@code read} returned. */
    static final class ReadLoop {
        final PoolIO io;
        final SocketChannel ch;
        final ByteBuffer buf = ByteBuffer.allocate(READ_BUFFER);
        final CompletableFuture<Long> done = new CompletableFuture<>();
        // only the chain touches these, one turn after another (each turn's stage runs after the previous completed)
        long received;
        long turns;
        int deepest;

        ReadLoop(PoolIO io, SocketChannel ch) {
            this.io = io;
            this.ch = ch;
        }

        void turn() {
            buf.clear();
            CompletableFuture<Integer> f;
            try {
                f = io.read(ch, buf);
            } catch (Throwable t) {
                done.completeExceptionally(t);
                return;
            }
            f.whenComplete((n, e) -> {
                try {
                    if (e != null) {
                        done.completeExceptionally(e);
                    } else if (n < 0) {
                        done.completeExceptionally(new AssertionError("end of stream after " + received + " of "
                                + READ_TOTAL + " bytes"));
                    } else if (check(n) && received < READ_TOTAL) {
                        turn();
                    } else if (!done.isDone()) {
                        done.complete(received);
                    }
                } catch (Throwable t) { // a StackOverflowError included: a failure here, not a silent stop
                    done.completeExceptionally(t);
                }
            });
        }

        /** Checks the turn's bytes and the stack; false once the loop has failed. */
        private boolean check(int n) {
            if (n == 0) {
                done.completeExceptionally(new AssertionError("a read completed with 0 bytes after " + received));
                return false;
            }
            for (int i = 0; i < n; i++) {
                if (buf.get(i) != streamByte(received + i)) {
                    done.completeExceptionally(new AssertionError("byte " + (received + i) + " differs"));
                    return false;
                }
            }
            received += n;
            if (turns++ % SAMPLE_EVERY == 0) {
                int depth = stackDepth();
                deepest = Math.max(deepest, depth);
                if (depth > MAX_STACK_FRAMES) {
                    done.completeExceptionally(new AssertionError("turn " + turns + " (" + received + " bytes read)"
                            + " runs " + depth + " frames deep: direct completions are not bounded (IO12)"));
                    return false;
                }
            }
            return true;
        }
    }

    /** The README's write loop: each turn attaches its stage to the future {@code write} returned. */
    static final class WriteLoop {
        final PoolIO io;
        final SocketChannel ch;
        final ByteBuffer buf = ByteBuffer.allocate(WRITE_SIZE);
        final CompletableFuture<Integer> done = new CompletableFuture<>();
        int writes; // only the chain, as ReadLoop's fields
        int deepest;

        WriteLoop(PoolIO io, SocketChannel ch) {
            this.io = io;
            this.ch = ch;
        }

        void turn() {
            buf.clear();
            for (int i = 0; i < WRITE_SIZE; i++) {
                buf.put(i, streamByte((long) writes * WRITE_SIZE + i));
            }
            CompletableFuture<Integer> f;
            try {
                f = io.write(ch, buf);
            } catch (Throwable t) {
                done.completeExceptionally(t);
                return;
            }
            f.whenComplete((n, e) -> {
                try {
                    if (e != null) {
                        done.completeExceptionally(e);
                    } else if (n != WRITE_SIZE) {
                        done.completeExceptionally(new AssertionError("write " + writes + " wrote " + n));
                    } else if (sampleStack() && ++writes < WRITES) {
                        turn();
                    } else if (!done.isDone()) {
                        done.complete(writes);
                    }
                } catch (Throwable t) { // a StackOverflowError included: a failure here, not a silent stop
                    done.completeExceptionally(t);
                }
            });
        }

        private boolean sampleStack() {
            if (writes % SAMPLE_EVERY == 0) {
                int depth = stackDepth();
                deepest = Math.max(deepest, depth);
                if (depth > MAX_STACK_FRAMES) {
                    done.completeExceptionally(new AssertionError("write " + writes + " runs " + depth
                            + " frames deep: direct completions are not bounded (IO12)"));
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * The frames on the calling thread's stack, all of them: {@code Thread.getStackTrace} stops at the JVM's
     * {@code MaxJavaStackTraceDepth} (1,024 by default), which a bound above it would never see passed.
     */
    static int stackDepth() {
        return (int) (long) StackWalker.getInstance().walk(frames -> frames.count());
    }

    /** Starts {@code loop}'s first turn on a worker (a job of the pool) or on the test thread. */
    private static void start(IoFixtures.IoPool p, boolean onPool, Runnable firstTurn) {
        if (onPool) {
            p.pool.execute(firstTurn);
        } else {
            firstTurn.run();
        }
    }

    @ParameterizedTest(name = "{0} onPool={1}")
    @MethodSource("configs")
    void readLoopOverDataAlreadyWaitingReadsEveryByte(TestPools.Config config, boolean onPool) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            SocketChannel peer = c.peer();
            // the peer fills the socket's buffers before the loop starts, so its first turns all find bytes waiting
            // (deterministically past the stack bound on unbounded code), then keeps them full from a thread
            peer.configureBlocking(false);
            ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
            long written = 0;
            int zeros = 0;
            while (zeros < 3 && written < READ_TOTAL) {
                written += writeChunk(peer, chunk, written);
                zeros = chunk.position() == 0 ? zeros + 1 : 0;
            }
            long prefilled = written;
            peer.configureBlocking(true);
            AtomicReference<Throwable> writerFailure = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                try {
                    long w = prefilled;
                    while (w < READ_TOTAL) {
                        w += writeChunk(peer, chunk, w);
                    }
                } catch (IOException | RuntimeException e) {
                    writerFailure.set(e);
                }
            }, "direct-completion-writer");
            writer.setDaemon(true);
            writer.start();

            p.phase = "read loop (prefilled " + prefilled + " bytes)";
            ReadLoop loop = new ReadLoop(p.io, c.mine());
            start(p, onPool, loop::turn);
            long got = get(loop.done, p.ctx());
            writer.join(IoFixtures.HANG.toMillis());
            assertTrue(writerFailure.get() == null, () -> "writer failed: " + writerFailure.get());
            assertEquals(READ_TOTAL, got, p.ctx());
            assertTrue(loop.deepest > 0, "the premise: the loop sampled its stack");
        }
    }

    /** Writes up to a chunk of the stream at {@code position}; returns the bytes written ({@code chunk}'s position). */
    private static int writeChunk(SocketChannel peer, ByteBuffer chunk, long position) throws IOException {
        int n = (int) Math.min(chunk.capacity(), READ_TOTAL - position);
        chunk.clear().limit(n);
        for (int i = 0; i < n; i++) {
            chunk.put(i, streamByte(position + i));
        }
        int w = peer.write(chunk);
        chunk.position(w); // read back by the caller's zero count
        return w;
    }

    @ParameterizedTest(name = "{0} onPool={1}")
    @MethodSource("configs")
    void writeLoopOfWritesThatFinishAtOnceWritesEveryByte(TestPools.Config config, boolean onPool) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            long total = (long) WRITES * WRITE_SIZE;
            AtomicReference<Object> drained = new AtomicReference<>();
            Thread drain = new Thread(() -> { // keeps the send buffer free, so that each write finishes at its call
                try {
                    ByteBuffer b = ByteBuffer.allocate(64 * 1024);
                    long got = 0;
                    while (got < total) {
                        b.clear();
                        int r = c.peer().read(b);
                        if (r < 0) {
                            throw new IOException("end of stream after " + got + " of " + total + " bytes");
                        }
                        for (int i = 0; i < r; i++) {
                            if (b.get(i) != streamByte(got + i)) {
                                throw new AssertionError("byte " + (got + i) + " differs");
                            }
                        }
                        got += r;
                    }
                    drained.set(got);
                } catch (IOException | RuntimeException | AssertionError e) {
                    drained.set(e);
                }
            }, "direct-completion-drain");
            drain.setDaemon(true);
            drain.start();

            p.phase = "write loop";
            WriteLoop loop = new WriteLoop(p.io, c.mine());
            start(p, onPool, loop::turn);
            assertEquals(WRITES, get(loop.done, p.ctx()), p.ctx());
            drain.join(IoFixtures.HANG.toMillis());
            assertEquals(total, drained.get(), p.ctx());
            assertTrue(loop.deepest > 0, "the premise: the loop sampled its stack");
        }
    }
}
