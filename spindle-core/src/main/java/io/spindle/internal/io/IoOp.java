package io.spindle.internal.io;

import io.spindle.internal.executor.PoolCompletableFuture;
import io.spindle.internal.job.InjectedJob;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * One pending IO operation: the future the caller holds, the readiness it waits for, and the non-blocking attempt
 * that finishes it. Once finished (done, failed, closed, shut down) it is a job: running it completes the future on a
 * worker (IO1) and gives back the terminate count the operation held (IO6). Every state change happens under its
 * channel's {@link ChannelState} monitor, so an operation finishes exactly once (IO3).
 *
 * @param <T> the future's result
 */
abstract class IoOp<T> extends InjectedJob {
    /** {@link #phase}: waiting for readiness in its channel's slot. */
    static final int PENDING = 0;
    /** {@link #phase}: finished; the job completes the future and gives the count back when it runs. */
    static final int FINISHED = 1;
    /**
     * {@link #phase}: withdrawn by a completion from outside (cancel, orTimeout, ...: IO11); the count was given back
     * by that caller, no job runs.
     */
    static final int WITHDRAWN = 2;

    /** The channel's state; null only for an operation finished at the call without one (an empty read). */
    final ChannelState channel;
    final PoolIoImpl io;
    final Future<T> future;
    /** Guarded by the channel's monitor. */
    int phase = PENDING;
    /** Guarded by the channel's monitor until FINISHED, then read by the job (published by the job's queueing). */
    T result;
    Throwable failure;

    IoOp(ChannelState channel, PoolIoImpl io) {
        this.channel = channel;
        this.io = io;
        this.future = new Future<>(io.executor(), this);
    }

    /** The {@code SelectionKey.OP_*} bits this operation waits for. */
    abstract int interest();

    /**
     * Under the channel's monitor, when the channel may be ready: one non-blocking step.
     *
     * @return true when the operation finished ({@link #result} set)
     * @throws IOException the channel's failure, which finishes the operation exceptionally
     */
    abstract boolean attempt() throws IOException;

    /** Under the channel's monitor: finishes with {@code failure} instead of a result. */
    final void finishExceptionally(Throwable cause) {
        failure = cause;
        phase = FINISHED;
    }

    /** Runs on a worker of the pool (IO1): completes the future, then gives back the operation's count (IO6). */
    @Override
    public final void execute() {
        try {
            boolean delivered = failure != null ? future.failFromOperation(failure)
                    : future.completeFromOperation(result);
            if (!delivered && failure == null) {
                discard(result); // forced by obtrude*, or completeAsync: nobody will see the result
            }
        } finally {
            io.operationEnded();
        }
    }

    /**
     * A result that no future delivered (its future was completed by a way IO11 cannot refuse): the kinds whose result
     * holds a resource release it here.
     */
    void discard(T undelivered) {
    }

    /**
     * The caller's future. A completion from outside the operation ({@code cancel}, {@code complete},
     * {@code completeExceptionally}, and so {@code orTimeout} and {@code completeOnTimeout}) first withdraws the
     * operation, and does nothing if it already finished (IO11).
     */
    static final class Future<T> extends PoolCompletableFuture<T> {
        private final IoOp<T> op;

        Future(Executor pool, IoOp<T> op) {
            super(pool);
            this.op = op;
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            return withdrawn() && super.cancel(mayInterruptIfRunning);
        }

        @Override
        public boolean complete(T value) {
            return withdrawn() && super.complete(value);
        }

        @Override
        public boolean completeExceptionally(Throwable failure) {
            Objects.requireNonNull(failure, "failure"); // before the withdrawal: a call that throws changes nothing
            return withdrawn() && super.completeExceptionally(failure);
        }

        @Override
        public void obtrudeValue(T value) {
            withdrawn(); // IO11: obtrude always completes; an operation that finished first loses its result (discard)
            super.obtrudeValue(value);
        }

        @Override
        public void obtrudeException(Throwable failure) {
            Objects.requireNonNull(failure, "failure");
            withdrawn();
            super.obtrudeException(failure);
        }

        /** The operation's own completion (its job, IO1): nothing to withdraw. */
        boolean completeFromOperation(T value) {
            return super.complete(value);
        }

        boolean failFromOperation(Throwable failure) {
            return super.completeExceptionally(failure);
        }

        /**
         * IO11: whether an outside completion may go ahead. It may unless the operation already finished (a read
         * that took bytes, an accept that took a connection): then its job completes this future with that outcome
         * shortly, and the outside completion is refused, so that nothing the channel gave is lost.
         */
        private boolean withdrawn() {
            return op == null || op.channel == null || op.channel.withdraw(op);
        }
    }

    static boolean wants(int interest, int readyOps) {
        return (interest & readyOps) != 0;
    }

    static final int READ = SelectionKey.OP_READ;
    static final int WRITE = SelectionKey.OP_WRITE;
    static final int ACCEPT = SelectionKey.OP_ACCEPT;
    static final int CONNECT = SelectionKey.OP_CONNECT;
}
