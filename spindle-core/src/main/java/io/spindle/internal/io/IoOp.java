package io.spindle.internal.io;

import io.spindle.internal.executor.PoolCompletableFuture;
import io.spindle.internal.job.InjectedJob;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

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
    /**
     * {@link #phase}: an outside completion is completing the future (IO11's first step): no step runs the operation
     * and no interest is kept for it, but it keeps its slot and its counts until the second step, so that an Error
     * between the two leaves an operation that close, the sweeps and shutdown still finish.
     */
    static final int WITHDRAWING = 3;

    /** The channel's state; null only for an operation finished at the call without one (an empty read). */
    final ChannelState channel;
    final PoolIoImpl io;
    final Future<T> future;
    /** Guarded by the channel's monitor. */
    int phase = PENDING;
    /**
     * IO6: this finished operation's job was pushed or injected. Written and read only by the thread handing out the
     * list it is in ({@code PoolIoImpl.queueFinished}), or, once that list is owed, by the thread that delivers it (a
     * worker, the watchdog, a thread outside the pool: the owe's monitor and {@code any} order the two), so that a
     * pass again after a throw skips it.
     */
    boolean handedOut;
    /**
     * IO6: a hand-out of this operation went to the injector, so every retry does too (the injector's claim picks one
     * run if the first injection threw after linking its node). Confined as {@link #handedOut} is.
     */
    boolean injecting;
    /**
     * Guarded by the channel's monitor until FINISHED, then read by the job (published by the job's queueing) or by a
     * refused outside completion (published by the monitor it read FINISHED under: IO11).
     */
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
            if (!delivered && failure == null && !future.holds(result)) {
                discard(result); // obtrude* replaced it: nobody will see the result
            }
        } finally {
            io.operationEnded();
        }
    }

    /**
     * A result that no future delivered (its future was obtruded, the one completion IO11 cannot refuse): the kinds
     * whose result holds a resource release it here.
     */
    void discard(T undelivered) {
    }

    /**
     * The caller's future. A completion from outside the operation ({@code cancel}, {@code complete},
     * {@code completeExceptionally}, {@code completeAsync}, and so {@code orTimeout} and {@code completeOnTimeout})
     * first withdraws the operation; if it already finished, the call completes the future with the operation's own
     * outcome instead and returns false (IO11).
     */
    static final class Future<T> extends PoolCompletableFuture<T> {
        private final IoOp<T> op;

        Future(Executor pool, IoOp<T> op) {
            super(pool);
            this.op = op;
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            if (!withdrawing()) {
                deliverOperationOutcome(); // Future's contract: done once cancel returns, whatever it returned
                return false;
            }
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            withdrawn();
            return cancelled;
        }

        @Override
        public boolean complete(T value) {
            if (!withdrawing()) {
                deliverOperationOutcome();
                return false;
            }
            boolean completed = super.complete(value);
            withdrawn();
            return completed;
        }

        @Override
        public boolean completeExceptionally(Throwable failure) {
            Objects.requireNonNull(failure, "failure"); // before the withdrawal: a call that throws changes nothing
            if (!withdrawing()) {
                deliverOperationOutcome(); // orTimeout's expiry still ends the wait, with what the channel gave
                return false;
            }
            boolean completed = super.completeExceptionally(failure);
            withdrawn();
            return completed;
        }

        /**
         * IO11 for {@code completeAsync} (the one-argument form calls this one): the JDK's own completes the future
         * through internals that withdraw nothing, which left the operation pending, taking the next bytes.
         */
        @Override
        public CompletableFuture<T> completeAsync(Supplier<? extends T> supplier, Executor executor) {
            Objects.requireNonNull(supplier, "supplier");
            Objects.requireNonNull(executor, "executor");
            executor.execute(() -> {
                if (isDone()) {
                    return; // as the JDK's: a future completed meanwhile does not call the supplier
                }
                T value;
                try {
                    value = supplier.get();
                } catch (Throwable failure) {
                    // wrapped as the JDK's completeAsync does, so that stages see what they would on any future
                    completeExceptionally(failure instanceof CompletionException ? failure
                            : new CompletionException(failure));
                    return;
                }
                complete(value);
            });
            return this;
        }

        @Override
        public void obtrudeValue(T value) {
            withdrawing(); // IO11: obtrude always completes; an operation that finished first loses its result
            super.obtrudeValue(value);
            withdrawn();
        }

        @Override
        public void obtrudeException(Throwable failure) {
            Objects.requireNonNull(failure, "failure");
            withdrawing();
            super.obtrudeException(failure);
            withdrawn();
        }

        /** The operation's own completion (its job, IO1): nothing to withdraw. */
        boolean completeFromOperation(T value) {
            return super.complete(value);
        }

        boolean failFromOperation(Throwable failure) {
            return super.completeExceptionally(failure);
        }

        /** Whether this future completed normally with exactly {@code value} (the operation's result, delivered). */
        boolean holds(T value) {
            return isDone() && !isCompletedExceptionally() && getNow(null) == value;
        }

        /**
         * IO11's first step: whether an outside completion may go ahead: the operation is withdrawing (from now, or an
         * earlier completion left it so), or was withdrawn, or there is none. False if it already finished (a read
         * that took bytes, an accept that took a connection).
         */
        private boolean withdrawing() {
            return op == null || op.channel == null || op.channel.beginWithdrawal(op);
        }

        /** IO11's second step, once the future is complete: the operation frees its slot and gives its counts back. */
        private void withdrawn() {
            if (op != null && op.channel != null) {
                op.channel.endWithdrawal(op);
            }
        }

        /**
         * A refused outside completion completes this future with the operation's own outcome, on the caller's thread
         * (as an accepted one does), rather than leave it to the job, which may wait for a free worker: nothing the
         * channel gave is lost, and a timeout still bounds the wait. {@code beginWithdrawal} read FINISHED under the
         * channel's monitor, after the step that set the outcome under it: the outcome is visible here. The job's
         * completion then finds the future done, and {@link #holds} keeps it from discarding a result it delivered.
         */
        private void deliverOperationOutcome() {
            if (op.failure != null) {
                super.completeExceptionally(op.failure);
            } else {
                super.complete(op.result);
            }
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
