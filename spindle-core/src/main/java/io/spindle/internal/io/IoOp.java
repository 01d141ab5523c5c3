package io.spindle.internal.io;

import io.spindle.internal.executor.PoolCompletableFuture;
import io.spindle.internal.job.InjectedJob;

import java.io.IOException;
import java.nio.channels.SelectionKey;
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
    /** {@link #phase}: withdrawn by cancel(); the count was given back by the canceller, no job runs. */
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
            if (failure != null) {
                future.completeExceptionally(failure);
            } else {
                future.complete(result);
            }
        } finally {
            io.operationEnded();
        }
    }

    /** The caller's future: {@code cancel} withdraws the operation (SPEC §6). */
    static final class Future<T> extends PoolCompletableFuture<T> {
        private final IoOp<T> op;

        Future(Executor pool, IoOp<T> op) {
            super(pool);
            this.op = op;
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            if (cancelled && op != null && op.channel != null) {
                op.channel.withdraw(op); // IO3: only a PENDING operation is withdrawn; a finished one's job still runs
            }
            return cancelled;
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
