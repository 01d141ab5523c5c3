package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.AbstractSelectableChannel;
import java.nio.channels.spi.SelectorProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * IO3 and IO11 under Errors: an Error thrown inside an operation's step, inside a registration, or part of the way
 * through a close finishes or fails the operations it touched; none stays PENDING for ever. The findings of a review
 * (each test failed before its fix): an Error at the first attempt left a phantom operation behind the call that
 * threw (every later one refused as pending), on readiness it came back on every round with the future never
 * completed, a registration's Error lost the interest request, and a close that overflowed its stack stranded the
 * operations it had not failed yet (the pool then never terminated).
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PoolIoErrorSafetyTest {
    private static final long HANG_SECONDS = IoFixtures.HANG.toSeconds();

    static final class InjectedError extends Error {
        InjectedError(String where) {
            super("injected in " + where);
        }
    }

    /** A non-blocking socket channel whose first write and first connect throw an Error; the later ones succeed. */
    static final class FaultyChannel extends SocketChannel {
        volatile boolean failWrite = true;
        volatile boolean failConnect = true;

        FaultyChannel() throws IOException {
            super(SelectorProvider.provider());
            configureBlocking(false);
        }

        @Override
        public boolean connect(SocketAddress remote) {
            if (failConnect) {
                failConnect = false;
                throw new InjectedError("connect");
            }
            return true;
        }

        @Override
        public int write(ByteBuffer src) {
            if (failWrite) {
                failWrite = false;
                throw new InjectedError("write");
            }
            int n = src.remaining();
            src.position(src.limit());
            return n;
        }

        @Override public SocketChannel bind(SocketAddress local) { return this; }
        @Override public <T> SocketChannel setOption(SocketOption<T> name, T value) { return this; }
        @Override public <T> T getOption(SocketOption<T> name) { return null; }
        @Override public Set<SocketOption<?>> supportedOptions() { return Set.of(); }
        @Override public SocketChannel shutdownInput() { return this; }
        @Override public SocketChannel shutdownOutput() { return this; }
        @Override public Socket socket() { throw new UnsupportedOperationException(); }
        @Override public boolean isConnected() { return true; }
        @Override public boolean isConnectionPending() { return false; }
        @Override public boolean finishConnect() { return true; }
        @Override public SocketAddress getRemoteAddress() { return null; }
        @Override public int read(ByteBuffer dst) { return 0; }
        @Override public long read(ByteBuffer[] dsts, int offset, int length) { return 0; }
        @Override public long write(ByteBuffer[] srcs, int offset, int length) { return 0; }
        @Override public SocketAddress getLocalAddress() { return null; }
        @Override protected void implCloseSelectableChannel() { }
        @Override protected void implConfigureBlocking(boolean block) { }
    }

    /** A pool whose handler records what reaches it: IO failures never do (docs/DESIGN.md §6). */
    private static ThreadPool pool(int threads, List<Throwable> handled) {
        return ThreadPool.builder().threads(threads).uncaughtExceptionHandler((t, e) -> handled.add(e)).build();
    }

    private static Throwable failureOf(CompletableFuture<?> f) throws Exception {
        try {
            Object v = f.get(HANG_SECONDS, TimeUnit.SECONDS);
            throw new AssertionError("expected a failure, got " + v);
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    @Test
    void anErrorInTheFirstWriteAttemptFailsTheWriteAndLeavesNothingPending() throws Exception {
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        try (ThreadPool p = pool(2, handled)) {
            FaultyChannel ch = new FaultyChannel();
            CompletableFuture<Integer> failed = p.io().write(ch, ByteBuffer.allocate(8)); // no throw at the call
            assertInstanceOf(InjectedError.class, failureOf(failed));
            CompletableFuture<Integer> next = p.io().write(ch, ByteBuffer.allocate(8)); // no WritePendingException
            assertEquals(8, next.get(HANG_SECONDS, TimeUnit.SECONDS));
        }
        assertEquals(List.of(), handled);
    }

    @Test
    void anErrorInConnectAtTheCallFailsTheConnectAndLeavesNothingPending() throws Exception {
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        try (ThreadPool p = pool(2, handled)) {
            FaultyChannel ch = new FaultyChannel();
            InetSocketAddress somewhere = new InetSocketAddress("127.0.0.1", 9);
            assertInstanceOf(InjectedError.class, failureOf(p.io().connect(ch, somewhere)));
            p.io().connect(ch, somewhere).get(HANG_SECONDS, TimeUnit.SECONDS); // no ConnectionPendingException
        }
        assertEquals(List.of(), handled);
    }

    /** A selectable channel whose {@code validOps()} throws on its second call: inside the home's register. */
    static final class ErrorOnRegisterChannel extends AbstractSelectableChannel {
        final AtomicInteger calls = new AtomicInteger();

        ErrorOnRegisterChannel() throws IOException {
            super(SelectorProvider.provider());
            configureBlocking(false);
        }

        @Override
        public int validOps() {
            if (calls.incrementAndGet() == 2) { // the first is ready()'s argument check
                throw new InjectedError("validOps during register");
            }
            return SelectionKey.OP_READ;
        }

        @Override protected void implCloseSelectableChannel() { }
        @Override protected void implConfigureBlocking(boolean block) { }
    }

    @Test
    void anErrorInARegistrationFailsTheOperationsThatWaitedForIt() throws Exception {
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        try (ThreadPool p = pool(1, handled)) {
            ErrorOnRegisterChannel ch = new ErrorOnRegisterChannel();
            // off the pool: an interest request for the home's owner, which registers the channel and meets the Error
            CompletableFuture<Void> ready = p.io().ready(ch, SelectionKey.OP_READ);
            try {
                assertInstanceOf(InjectedError.class, failureOf(ready));
            } catch (TimeoutException e) {
                throw new AssertionError("the ready() never completed: its interest request was lost; validOps calls="
                        + ch.calls.get() + " handled=" + handled + " pool=" + p);
            }
        }
        assertEquals(List.of(), handled);
    }

    /** Child JVM (-XX:MaxDirectMemorySize=1m): a heap buffer too large for the JDK's temporary direct buffer. */
    public static final class DirectMemoryChild {
        public static void main(String[] args) throws Exception {
            AtomicInteger handled = new AtomicInteger();
            try (ThreadPool p = ThreadPool.builder().threads(1)
                    .uncaughtExceptionHandler((t, e) -> handled.incrementAndGet()).build()) {
                atTheCall(p);
                onReadiness(p);
            }
            System.out.println("RESULT handled=" + handled.get());
        }

        /** The read's first attempt at the call meets the OutOfMemoryError: it fails; the next read works. */
        private static void atTheCall(ThreadPool p) throws Exception {
            Pipe pipe = openPipe();
            pipe.sink().write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5}));
            String atTheCall = outcome(p.io().read(pipe.source(), ByteBuffer.allocate(8 << 20)));
            System.out.println("AT-CALL " + atTheCall);
            if (!atTheCall.startsWith("failed")) {
                System.out.println("RESULT oom=none"); // this JDK reads into a heap buffer without a direct one
                System.exit(0);
            }
            pipe.sink().write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5})); // the failed read took nothing, or less
            System.out.println("AT-CALL-NEXT " + outcome(p.io().read(pipe.source(), ByteBuffer.allocate(16))));
        }

        /**
         * A read driven by readiness (its key already waits for reads: IO4, no attempt at the call) meets the Error
         * when bytes come: it fails, and another channel of the same worker is served.
         */
        private static void onReadiness(ThreadPool p) throws Exception {
            Pipe a = openPipe();
            Pipe b = openPipe();
            CompletableFuture<Integer> other = p.io().read(b.source(), ByteBuffer.allocate(16));
            CompletableFuture<Integer> prime = p.io().read(a.source(), ByteBuffer.allocate(1)); // registers a's key
            a.sink().write(ByteBuffer.wrap(new byte[] {1}));
            System.out.println("PRIME " + outcome(prime));
            CompletableFuture<Integer> big = p.io().read(a.source(), ByteBuffer.allocate(8 << 20));
            a.sink().write(ByteBuffer.wrap(new byte[] {4, 5, 6}));
            System.out.println("ON-READINESS " + outcome(big));
            b.sink().write(ByteBuffer.wrap(new byte[] {2, 3}));
            System.out.println("OTHER " + outcome(other));
        }

        private static Pipe openPipe() throws IOException {
            Pipe pipe = Pipe.open();
            pipe.source().configureBlocking(false);
            pipe.sink().configureBlocking(false);
            return pipe;
        }

        private static String outcome(CompletableFuture<Integer> f) throws InterruptedException {
            try {
                return "value " + f.get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                return "failed " + e.getCause().getClass().getSimpleName();
            } catch (TimeoutException e) {
                return "HANG";
            }
        }
    }

    @Test
    void outOfDirectMemoryInAReadFailsThatReadAndNothingElse() {
        ChildJvm.Result r = ChildJvm.run(ChildJvm.java("-XX:MaxDirectMemorySize=1m", "-cp",
                System.getProperty("java.class.path"), DirectMemoryChild.class.getName()), 120);
        Map<String, String> result = r.resultLine();
        // JDK 17 reads into a heap buffer through a temporary direct one, which the limit makes fail; later JDKs
        // (25 here) need none, and this test has no Error to inject there (the faulty channel's tests do)
        Assumptions.assumeFalse("none".equals(result.get("oom")), "no OutOfMemoryError on this JDK's read path");
        String out = r.output();
        assertTrue(out.contains("AT-CALL failed OutOfMemoryError"), r::report);
        assertTrue(out.contains("AT-CALL-NEXT value"), r::report);
        assertTrue(out.contains("PRIME value 1"), r::report);
        assertTrue(out.contains("ON-READINESS failed OutOfMemoryError"), r::report);
        assertTrue(out.contains("OTHER value 2"), r::report);
        assertEquals("0", result.get("handled"), r::report);
    }

    /** Recurses to the stack's end, then cancels one future per frame on the way back: every depth near the edge. */
    private static final class CancelAtEveryDepth {
        final List<CompletableFuture<Integer>> futures;
        int next;

        CancelAtEveryDepth(List<CompletableFuture<Integer>> futures) {
            this.futures = futures;
        }

        void descend() {
            try {
                descend();
            } catch (StackOverflowError e) {
                // this frame cancels at its depth
            }
            int i = next;
            if (i < futures.size()) {
                next = i + 1;
                try {
                    futures.get(i).cancel(true);
                } catch (Throwable t) {
                    // an overflow inside cancel: the operation stays WITHDRAWING, for shutdown to finish
                }
            }
        }
    }

    /**
     * IO11's two steps: a cancel that overflows between withdrawing an operation and completing its future leaves the
     * operation in its slot (WITHDRAWING), and shutdown finishes it; withdrawn in one step, such futures stayed
     * incomplete for ever (a reviewer saw 2 to 33 of 400).
     */
    @Test
    void aCancelThatOverflowsLeavesNoFutureIncompleteForEver() throws Exception {
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        ThreadPool p = pool(2, handled);
        int n = 400;
        Pipe[] pipes = new Pipe[n];
        List<CompletableFuture<Integer>> reads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            pipes[i] = Pipe.open();
            pipes[i].source().configureBlocking(false);
            pipes[i].sink().configureBlocking(false);
            reads.add(p.io().read(pipes[i].source(), ByteBuffer.allocate(1)));
        }
        Thread canceller = new Thread(null, new CancelAtEveryDepth(reads)::descend, "cancel-at-every-depth",
                512 * 1024);
        canceller.start();
        canceller.join(TimeUnit.SECONDS.toMillis(HANG_SECONDS));
        assertFalse(canceller.isAlive(), "the cancelling thread hung");
        p.shutdown(); // fails what is still PENDING or WITHDRAWING
        Watchdog.awaitCondition(() -> reads.stream().allMatch(CompletableFuture::isDone), IoFixtures.HANG,
                () -> reads.stream().filter(r -> !r.isDone()).count() + " futures never completed; pool=" + p);
        p.awaitTermination(5, TimeUnit.SECONDS); // not asserted: see the close test below
        for (Pipe pipe : pipes) {
            pipe.source().close();
            pipe.sink().close();
        }
    }

    @Test
    void aStageOfACancelledReadStartsTheNextReadOnTheSameChannel() throws Exception {
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        try (ThreadPool p = pool(2, handled)) {
            Pipe pipe = Pipe.open();
            pipe.source().configureBlocking(false);
            pipe.sink().configureBlocking(false);
            CompletableFuture<CompletableFuture<Integer>> next = new CompletableFuture<>();
            CompletableFuture<Integer> first = p.io().read(pipe.source(), ByteBuffer.allocate(4));
            // runs inside cancel, before IO11's second step has freed the read slot: the placement frees it
            first.whenComplete((v, e) -> next.complete(p.io().read(pipe.source(), ByteBuffer.allocate(4))));
            assertTrue(first.cancel(false));
            CompletableFuture<Integer> second = next.get(HANG_SECONDS, TimeUnit.SECONDS);
            pipe.sink().write(ByteBuffer.wrap(new byte[] {1, 2}));
            assertEquals(2, second.get(HANG_SECONDS, TimeUnit.SECONDS));
            pipe.source().close();
            pipe.sink().close();
        }
        assertEquals(List.of(), handled);
    }

    /** Recurses to the stack's end, then closes one channel per frame on the way back: every depth near the edge. */
    private static final class CloseAtEveryDepth {
        final PoolIO io;
        final Pipe[] pipes;
        int next;

        CloseAtEveryDepth(PoolIO io, Pipe[] pipes) {
            this.io = io;
            this.pipes = pipes;
        }

        void descend() {
            try {
                descend();
            } catch (StackOverflowError e) {
                // this frame closes at its depth
            }
            int i = next;
            if (i < pipes.length) {
                next = i + 1;
                try {
                    io.close(pipes[i].source());
                } catch (Throwable t) {
                    // an overflow inside close: what it failed is queued, what it did not is left in the table
                }
            }
        }
    }

    /**
     * A read still stranded after shutdown, 30 s on, failed the CI runs of 2026-11-28 (JDK 17, once in about five
     * fresh-clone runs): the close's call that hands out the operations it failed overflowed before any of them ran,
     * and they were detached from their channel, where no sweep finds them. Fixed by owing the list (IO6,
     * {@code FinishedOps}; {@code FinishedOpsOwedTest} covers the delivery without a stack's edge). In a repeat
     * harness it stranded reads in 3 of 30 iterations on JDK 17 before the fix, and in none of 60, 40 and 40 after.
     * Runs only with {@code -Dspindle.tests.stackEdgeClose=true}: once the JIT compiled the close, a descent to the
     * edge can take 15 to over 30 s (JDK 25 from the second iteration on, JDK 17 in about one iteration in eight),
     * which the bound below reports as a hang.
     */
    @Test
    @EnabledIfSystemProperty(named = "spindle.tests.stackEdgeClose", matches = "true")
    void aCloseThatOverflowsItsStackStrandsNoOperation() throws Exception {
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        ThreadPool p = pool(2, handled);
        int n = 400;
        Pipe[] pipes = new Pipe[n];
        List<CompletableFuture<Integer>> reads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            pipes[i] = Pipe.open();
            pipes[i].source().configureBlocking(false);
            pipes[i].sink().configureBlocking(false);
            reads.add(p.io().read(pipes[i].source(), ByteBuffer.allocate(1)));
        }
        Thread closer = new Thread(null, new CloseAtEveryDepth(p.io(), pipes)::descend, "close-at-every-depth",
                512 * 1024);
        closer.start();
        closer.join(TimeUnit.SECONDS.toMillis(HANG_SECONDS));
        assertFalse(closer.isAlive(), "the closing thread hung");
        // whatever a close left pending is failed by shutdown's sweep, which walks the channel table (IO9); the jobs
        // that complete the futures run on any worker
        p.shutdown();
        Watchdog.awaitCondition(() -> reads.stream().allMatch(CompletableFuture::isDone), IoFixtures.HANG,
                () -> reads.stream().filter(r -> !r.isDone()).count() + " reads never completed; pool=" + p);
        // Not asserted: the pool's termination. A close can still overflow inside the JDK's ReentrantLock.unlock of
        // the home's poll lock, which then stays held by a thread that went on, and the home's owner waits for it
        // for ever (seen here in about one run in five; see the io package's "What it does not do").
        p.awaitTermination(5, TimeUnit.SECONDS);
        for (Pipe pipe : pipes) {
            pipe.source().close();
            pipe.sink().close();
        }
    }
}
