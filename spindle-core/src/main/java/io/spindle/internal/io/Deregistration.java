package io.spindle.internal.io;

import io.spindle.internal.executor.PoolCompletableFuture;
import io.spindle.internal.job.InjectedJob;

import java.nio.channels.SelectionKey;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One hand-back of a channel ({@code PoolIO.deregister}, IO13): the caller's future, and the cancelled keys of the
 * channel that selectors of the pool still hold. Each key waits in its poller's queue until a select that ended after
 * its cancel deregistered it; the last one makes this a job that completes the future on the pool (IO1). From the
 * call until that job ran it holds a terminate count (IO6), so the pool does not terminate with the future incomplete.
 */
final class Deregistration extends InjectedJob {
    private final PoolIoImpl io;
    final PoolCompletableFuture<Void> future;
    /** Keys not yet deregistered; the waiter that takes it to zero queues this job. */
    private final AtomicInteger keysLeft;

    Deregistration(PoolIoImpl io, Executor pool, int keys) {
        this.io = io;
        this.future = new PoolCompletableFuture<>(pool);
        this.keysLeft = new AtomicInteger(keys);
    }

    /** One cancelled key of the channel, in the queue of the poller whose selector holds it. */
    static final class Wait {
        final Deregistration deregistration;
        final SelectionKey key;

        Wait(Deregistration deregistration, SelectionKey key) {
            this.deregistration = deregistration;
            this.key = key;
        }

        /**
         * Whether the selector deregistered the key: the channel no longer knows it there (keyFor returns a cancelled
         * key until a select deregisters it; a key the channel got since, for an operation started after the
         * hand-back, is not this one).
         */
        boolean done() {
            return key.channel().keyFor(key.selector()) != key;
        }

        /** This key is deregistered: the last one queues the job (IO1: injected, whichever thread found it). */
        void deregistered() {
            // volatile RMW: exactly one waiter sees zero, and every key's deregistration happened before it
            if (deregistration.keysLeft.decrementAndGet() == 0) {
                deregistration.io.queueDeregistration(deregistration);
            }
        }
    }

    /** Runs on a worker (IO1): completes the future, then gives back the count (IO6). */
    @Override
    public void execute() {
        try {
            future.complete(null);
        } finally {
            io.operationEnded();
        }
    }
}
