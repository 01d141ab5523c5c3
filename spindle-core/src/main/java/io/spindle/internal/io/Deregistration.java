package io.spindle.internal.io;

import io.spindle.internal.executor.PoolCompletableFuture;
import io.spindle.internal.job.InjectedJob;

import java.nio.channels.SelectionKey;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One hand-back of a channel ({@code PoolIO.deregister}, IO13): the caller's future, and the cancelled keys of the
 * channel that selectors of the pool still hold. Each key waits in its poller's queue until a select that ended after
 * its cancel deregistered it; the last of the n keys' decrements and the caller's own (the arming step, made once
 * every wait is queued and counted) makes this a job that completes the future on the pool (IO1). From the call until
 * that job ran it holds a terminate count (IO6), so the pool does not terminate with the future incomplete; until the
 * arming decrement returned, the count is still the caller's.
 */
final class Deregistration extends InjectedJob {
    private final PoolIoImpl io;
    final PoolCompletableFuture<Void> future;
    /**
     * Keys not yet deregistered, plus one for the caller's arming step (IO13); the decrement that takes it to zero
     * queues this job. Volatile RMWs only (decrementAndGet): exactly one of the n + 1 sees zero, and every earlier
     * decrement, with what its thread wrote before it ({@link #lost}), happens-before that one (an RMW chain on one
     * variable is a release sequence).
     */
    final AtomicInteger keysLeft;
    /**
     * IO13: a select that began after a key's wait was queued left the key in its channel (the JDK lost the key's
     * deregistration: a StackOverflowError inside a selection, or inside the cancel itself, at the very edge of a
     * stack); the future then fails rather than waiting for ever with the pool's count. A plain field: written by a
     * poll-lock holder before its wait's decrement of {@link #keysLeft}, read by {@link #execute} after the last one
     * (the RMW chain and the injection order it).
     */
    boolean lost;

    /** {@code keys}: the cancelled keys to wait for; {@link #keysLeft} starts one higher, for the arming step. */
    Deregistration(PoolIoImpl io, Executor pool, int keys) {
        this.io = io;
        this.future = new PoolCompletableFuture<>(pool);
        this.keysLeft = new AtomicInteger(keys + 1);
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
        /**
         * IO13: the wait was in the queue when a pass began (before its selectNow), so every select of that pass and
         * of later ones began after the key's cancel (the cancel happened-before the add, which happened-before the
         * holder's sight of it); a key such a select did not deregister is lost. Plain: the poll lock orders it.
         */
        boolean queuedBeforeASelect; // poll-lock holder only

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
         * no call, so the store of the step right after it cannot be missed), and the injection never throws (IO6: a
         * job it cannot queue is owed and injected again).
         */
        void deregistered() {
            if (step == WAITING) {
                // volatile RMW: exactly one of the n waits and the caller's arming step sees zero, and every key's
                // deregistration (and every lost flag) happened before it
                step = deregistration.keysLeft.decrementAndGet() == 0 ? LAST : DONE;
            }
            if (step == LAST) {
                deregistration.io.queueDeregistration(deregistration);
                step = DONE;
            }
        }

        /**
         * IO13: a select that began after this wait was queued did not deregister its key (see {@link #lost}): the
         * hand-back fails, and its count goes back with its job as if the key had gone. Safe to redo as
         * {@link #deregistered} is (the flag's store is idempotent and precedes the decrement).
         */
        void lost() {
            deregistration.lost = true; // plain: ordered before the job's read by the decrement below (keysLeft)
            deregistered();
        }
    }

    /**
     * The job to inject: this one the first time; a fresh one after an inject that threw, since E1 took this one back
     * by claiming it, and a claimed job is dropped by whoever polls it.
     */
    private boolean injectedOnce; // whoever took keysLeft to zero only: that poll-lock holder, or the arming caller

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
            if (lost) { // plain read, after the last decrement of keysLeft (see lost)
                future.completeExceptionally(new java.io.IOException("a selector of the pool lost the cancelled key"
                        + " of the channel handed back (a stack overflow inside the JDK's selection or cancel): the"
                        + " channel may stay registered with it until the pool closes"));
            } else {
                future.complete(null);
            }
        } finally {
            io.operationEnded();
        }
    }
}
