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

    /**
     * One cancelled key of the channel, in the queue of the poller whose selector holds it. Stepped only by that
     * poller's poll-lock holder (IoPoller.completeDeregistered), which is one thread at a time, so {@link #step} is a
     * plain field that the lock orders; the wait leaves the queue only once its step is done.
     */
    static final class Wait {
        private static final int WAITING = 0;
        /** Its decrement took keysLeft to zero, and the job is not yet injected (an inject that threw: retried). */
        private static final int LAST = 1;
        private static final int DONE = 2;

        final Deregistration deregistration;
        final SelectionKey key;
        private int step = WAITING; // poll-lock holder only

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

        /**
         * This key is deregistered: the last one queues the job (IO1: injected, whichever thread found it). Safe to
         * fail at any step and to call again (a stack's edge): the decrement happens once (a method's return makes
         * no call, so the store of the step right after it cannot be missed), and an inject that threw took the job
         * back (E1 in the registry's package-info), so the retry injects it anew.
         */
        void deregistered() {
            if (step == WAITING) {
                // volatile RMW: exactly one waiter sees zero, and every key's deregistration happened before it
                step = deregistration.keysLeft.decrementAndGet() == 0 ? LAST : DONE;
            }
            if (step == LAST) {
                deregistration.io.queueDeregistration(deregistration);
                step = DONE;
            }
        }
    }

    /**
     * The job to inject: this one the first time; a fresh one after an inject that threw, since E1 took this one back
     * by claiming it, and a claimed job is dropped by whoever polls it.
     */
    private boolean injectedOnce; // poll-lock holder of the last key's poller only

    InjectedJob jobToInject() {
        if (!injectedOnce) {
            injectedOnce = true;
            return this;
        }
        return new InjectedJob() {
            @Override
            public void execute() {
                Deregistration.this.execute();
            }
        };
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
