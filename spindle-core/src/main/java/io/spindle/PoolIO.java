package io.spindle;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.CompletableFuture;

/**
 * Asynchronous, non-blocking IO on a pool's workers (docs/DESIGN.md §6): EMPER's IO subsystem. Each worker owns a
 * poller (a {@link java.nio.channels.Selector}); an idle worker that has IO pending blocks in <em>one</em> wait that
 * returns on its own IO or on new work, so an IO completion costs one kernel wake-up, on the worker that runs what
 * follows.
 *
 * <p><b>Example.</b> An echo server: each connection is a loop of stages that reads what the peer sent, writes it
 * back and reads again, and at the end of the stream (or on a failure) closes the connection through {@link #close},
 * which can throw an {@code IOException}. The test {@code PoolIoTest.javadocEchoExampleEchoesAndCloses} holds the
 * same code, compiles it and runs it against a loopback client.
 *
 * <pre>{@code
 * static void echo(PoolIO io, SocketChannel ch, ByteBuffer buf) {
 *     io.read(ch, buf.clear())
 *             .thenCompose(n -> n < 0 ? CompletableFuture.completedFuture(-1) : io.write(ch, buf.flip()))
 *             .whenComplete((n, failure) -> {
 *                 if (failure == null && n >= 0) {
 *                     echo(io, ch, buf);                  // the next round
 *                 } else {                                // end of stream, or the connection failed
 *                     try {
 *                         io.close(ch);                   // fails whatever is pending on ch at once
 *                     } catch (IOException e) {
 *                         // ch is closed all the same; nothing is left to tell the peer
 *                     }
 *                 }
 *             });
 * }
 *
 * PoolIO io = pool.io();
 * ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
 * server.configureBlocking(false);                        // PoolIO takes non-blocking channels only
 * io.accept(server).thenAccept(ch -> echo(io, ch, ByteBuffer.allocate(4096)));
 * }</pre>
 *
 * <p>The loop's stages run on the worker that completed each future, and a turn that finds its bytes already
 * waiting may run on the stack of the turn before it; how deep that goes is bounded below ("Direct completions are
 * bounded"). The example program {@code spindle-examples}' {@code EchoServer} also accepts many connections and
 * closes them all on exit.
 *
 * <p><b>Where things run.</b> Every operation's future completes on a worker of the pool (the exceptions, a {@code
 * read} into a buffer with nothing remaining and an outside completion such as {@code cancel}, are below), so
 * dependent stages without an executor ({@code thenApply}, {@code thenCompose}, ...) run there too, and {@code
 * Spindle.*} free functions inside them mean this pool; the {@code *Async} stages without an executor run on this pool
 * as well. An operation started on a worker is served by that worker's poller when the channel is new to the pool; a
 * channel stays with the poller that first served it while it has operations pending (its registration is kept, not
 * re-made per operation). An operation started off the pool goes to some worker.
 *
 * <p><b>Direct completions are bounded.</b> An operation that finishes at its call (a write the socket takes whole; a
 * read that finds bytes waiting, as on a new connection or after the peer sent while no read was pending; an accept
 * with a connection waiting; a connect that completes at once), started on a worker, may complete its future before
 * the call returns, so that a stage attached afterwards runs at once on the caller's stack. Each worker does that for
 * at most 8 operations per top-level job it runs (the count starts over with each job the worker takes up from its
 * idle loop, not with a job it runs inside a join's wait; as {@code AsynchronousChannelGroup}'s handlers); after
 * that an operation that finishes at its call is queued as a job of the pool, and its future completes once that
 * job runs. Started off the pool, it is always queued. So a loop of any length written as
 * {@code io.read(ch, buf).whenComplete((n, e) -> loop())} runs at most 8 turns deep on a worker's stack before it
 * unwinds, however much data is waiting, except for one race: another worker that takes a queued operation and
 * completes its future before the caller attached its stage makes the stage run on the caller's stack, one turn
 * deeper, and a thief that keeps winning it keeps adding turns. A reviewer's request/response loop on 2 workers, whose
 * thief never slept, reached 60 to 115 such turns in a row (400 to 624 frames) in runs of 300,000 turns and never
 * overflowed a default stack; this is not yet a bound. Outside the budget: a {@code read} into a buffer with nothing
 * remaining, complete with 0 when returned (a loop over it makes no progress anyway), and an outside completion
 * ({@code cancel}, {@code complete}, ...) below, on the thread that calls it.
 *
 * <p><b>Arguments</b> are checked at the call, which throws: {@code NullPointerException} naming the argument;
 * {@link java.nio.channels.IllegalBlockingModeException} for a channel in blocking mode; {@code
 * IllegalArgumentException} for {@code ops} the channel does not support; {@link
 * java.nio.channels.ReadPendingException} / {@link java.nio.channels.WritePendingException} when the channel already
 * has a read / write pending (at most one of each, as {@code AsynchronousSocketChannel}); {@code
 * RejectedExecutionException} after {@code shutdown}.
 *
 * <p><b>Failures</b> complete the future exceptionally and never reach the pool's uncaught-exception handler: the
 * channel's {@code IOException}; a {@link java.nio.channels.ClosedChannelException} (or subclass) when the channel is
 * closed while the operation is pending, at once through {@link #close}, and within {@link #DIRECT_CLOSE_NOTICE_MILLIS}
 * when the channel is closed directly (a direct {@code close()} does not wake a selector: the pool's IO watchdog looks
 * for such channels this often while operations are pending, and wakes the worker that holds them; with the watchdog
 * off, that worker looks itself when it is idle, and a direct close while it runs one long job is noticed after that
 * job). {@code future.cancel(...)} withdraws the operation, and so do {@code complete}, {@code completeExceptionally},
 * {@code completeAsync} and the timeouts that call them ({@code orTimeout}, {@code completeOnTimeout}); if the
 * operation already finished (bytes read or written, a connection accepted), they complete the future with that
 * outcome instead, on the calling thread, and return false: the future is done either way, and nothing the channel
 * gave is lost.
 *
 * <p><b>What a withdrawal does not do.</b>
 * <ul>
 *   <li>It does not undo a write. A {@code write} withdrawn part of the way (its socket's buffer filled, then the
 *       future was cancelled or timed out) has sent the bytes before {@code src}'s position, and only those: Spindle
 *       neither sends the rest nor takes anything back, and from the withdrawal on it no longer touches {@code src}.
 *       The peer has a partial message, so the stream is usually beyond repair: close the channel, or write the
 *       remaining bytes yourself. (A write that went out whole before the withdrawal completes with its count
 *       instead.)</li>
 *   <li>It does not close the channel: {@code cancel(true)} withdraws the operation exactly as {@code cancel(false)}
 *       does ({@code mayInterruptIfRunning} is ignored, where {@code AsynchronousChannel} may close the channel).
 *       Close it through {@link #close} if that is what you want.</li>
 *   <li>Only the operation's own future withdraws it. A timeout on a dependent stage ({@code io.read(c,
 *       b).thenApply(f).orTimeout(...)}) completes that stage only: the read stays pending, takes the next bytes into
 *       {@code b}, and a second read is refused with {@code ReadPendingException}. Put {@code orTimeout} on the
 *       future the operation returned.</li>
 * </ul>
 *
 * <p><b>Waiting from a worker.</b> {@code join()} and the untimed {@code get()} of these futures, called on one of the
 * pool's workers, run the pool's jobs until the future completes, so they work even on a one-thread pool. The timed
 * {@code get(timeout, unit)} blocks the calling thread as usual; since a future completes on a worker, the only worker
 * of a one-thread pool waiting in a timed {@code get} for its own IO cannot see it complete: the completion waits for
 * that worker, and the {@code get} times out. Chain a stage instead, or wait with {@code join()}. The same holds for
 * any other blocking wait on a worker for a future the pool must complete ({@code CompletableFuture.allOf(...).join()},
 * {@code anyOf}, a future of your own): that includes an operation that finished at its call once the worker's
 * budget of direct completions (above) is spent, since its completion is then queued behind the waiting worker. On a
 * one-thread pool such a wait never ends; wait for each future with its own {@code join()} instead.
 *
 * <p><b>Shutdown.</b> {@code shutdown()} completes every pending operation exceptionally with {@link
 * java.nio.channels.ShutdownChannelGroupException} and deregisters its channel (the channel stays open: it belongs to
 * the caller).
 *
 * <p><b>Busy owners.</b> A worker that runs a long task cannot poll. A busy worker polls without blocking every
 * {@code 64} jobs it runs; and while a worker with IO pending runs a job, the pool's IO watchdog ticks every 2 ms and
 * polls the selector of such a worker that has not polled for 2 ms, handing what is ready to the other workers, so
 * ready IO waits a few milliseconds at most behind a long task. The watchdog stops ticking 2 to 4 ms after it last saw
 * such a worker busy, or saw IO wake a worker and such a job start (IO that wakes workers more often than the watchdog
 * ticks thus keeps it ticking, which costs fewer wake-ups than parking between arrivals); while operations are pending
 * it then wakes once per {@link #DIRECT_CLOSE_NOTICE_MILLIS} to look for channels closed directly, so idle workers with
 * idle connections wait without a timeout and use no CPU, and with nothing pending it parks until there is.
 * {@code -Dspindle.io.watchdogMicros=0} turns it off (ready IO then waits for the owner's next busy poll or the end of
 * its long job, and each worker with IO pending wakes once per {@code DIRECT_CLOSE_NOTICE_MILLIS} to look for closed
 * channels), and another value sets its tick.
 */
public interface PoolIO {
    /**
     * How long after a channel is closed directly (not through {@link #close}) its pending operations fail at the
     * latest, in milliseconds: the pool looks for closed channels among those with operations pending this often.
     */
    long DIRECT_CLOSE_NOTICE_MILLIS = 1_000;

    /**
     * Waits for readiness without doing any IO. Several {@code ready} calls may wait on one channel at once.
     *
     * @param channel a channel in non-blocking mode
     * @param ops     {@link java.nio.channels.SelectionKey}'s {@code OP_*} bits, non-zero and all supported by the
     *                channel ({@link SelectableChannel#validOps()})
     * @return a future that completes once the channel is ready for any of {@code ops}
     */
    CompletableFuture<Void> ready(SelectableChannel channel, int ops);

    /**
     * Accepts the next connection.
     *
     * @param server a server channel in non-blocking mode
     * @return a future of the accepted connection, which is already in non-blocking mode
     */
    CompletableFuture<SocketChannel> accept(ServerSocketChannel server);

    /**
     * Connects {@code channel} to {@code remote}.
     *
     * @param channel a channel in non-blocking mode, neither connected nor connecting
     * @param remote  the address to connect to
     * @return a future that completes once connected
     */
    CompletableFuture<Void> connect(SocketChannel channel, SocketAddress remote);

    /**
     * Reads at least one byte into {@code dst}. The buffer is the operation's until the future completes.
     *
     * @param channel a channel in non-blocking mode, with no read pending
     * @param dst     where the bytes go
     * @param <C>     a selectable, readable channel (a socket, a pipe's source)
     * @return a future of the bytes read (at least 1), -1 at the end of the stream, or 0 at once if {@code dst} has
     *         nothing remaining
     */
    <C extends SelectableChannel & ReadableByteChannel> CompletableFuture<Integer> read(C channel, ByteBuffer dst);

    /**
     * Writes all of {@code src}'s remaining bytes, in as many steps as the channel needs. The buffer is the
     * operation's until the future completes.
     *
     * @param channel a channel in non-blocking mode, with no write pending
     * @param src     the bytes to write
     * @param <C>     a selectable, writable channel (a socket, a pipe's sink)
     * @return a future of the bytes written (all of them)
     */
    <C extends SelectableChannel & WritableByteChannel> CompletableFuture<Integer> write(C channel, ByteBuffer src);

    /**
     * Closes {@code channel}; its pending operations fail at once with {@link
     * java.nio.channels.AsynchronousCloseException}. Closing a closed channel does nothing.
     *
     * @param channel the channel to close
     * @throws IOException if closing the channel fails (its pending operations fail all the same)
     */
    void close(SelectableChannel channel) throws IOException;

    /**
     * Hands {@code channel} back to the caller, for blocking code (STARTTLS, a protocol upgrade, a blocking library):
     * the future completes once no selector of the pool holds the channel, and then {@code configureBlocking(true)}
     * works. Until then it may throw {@link java.nio.channels.IllegalBlockingModeException}: a worker keeps a
     * channel's registration while it has any operation pending, on that channel or another one (a server's accept),
     * and a cancelled registration is released only by the selector's next selection, which this call brings about
     * at once, whether the worker is asleep in its selector or busy running a job.
     *
     * <p>The future completes on a worker of the pool, or is complete when returned if no selector of the pool holds
     * the channel (a channel the pool never saw, or one it let go of already). The pool forgets the channel: an
     * operation started on it later registers it again, as a new channel (it is homed afresh). An operation started
     * on it concurrently with this call is the caller's race: it may register the channel again before the future
     * completes. The channel is not closed and stays in non-blocking mode.
     *
     * <p>At the very edge of a thread's stack, the JDK's own cancel or selection can overflow part of the way and
     * lose a cancelled registration, which no selection then releases: the future then completes exceptionally with
     * an {@link IOException}, and the channel stays registered with that worker's selector until the pool closes.
     *
     * @param channel the channel to hand back; every operation the pool had on it must have ended (a withdrawn
     *                operation counts as ended once its future is complete)
     * @return a future that completes once no selector of the pool holds the channel
     * @throws NullPointerException if {@code channel} is null
     * @throws IllegalStateException if an operation is pending on {@code channel} (nothing changes then)
     * @throws java.util.concurrent.RejectedExecutionException after {@code shutdown}, as every call: shutdown
     *         deregisters every channel itself, and once the pool has terminated its selectors are closed and no
     *         channel is registered with them
     */
    CompletableFuture<Void> deregister(SelectableChannel channel);
}
