package io.spindle.internal.job;

import io.spindle.BroadcastContext;
import io.spindle.internal.latch.CountLatch;

import java.util.function.Function;

/** Copy {@code index} of a broadcast, queued privately for worker {@code index}. */
public final class BroadcastJob<T> implements Job {
    private final Function<BroadcastContext, T> op;
    private final BroadcastContext context;
    private final Object[] results;
    private final Failures failures;
    private final CountLatch remaining;

    public BroadcastJob(Function<BroadcastContext, T> op, BroadcastContext context, Object[] results,
                        Failures failures, CountLatch remaining) {
        this.op = op;
        this.context = context;
        this.results = results;
        this.failures = failures;
        this.remaining = remaining;
    }

    @Override
    public void execute() {
        try {
            results[context.index()] = op.apply(context); // published by the count latch's final decrement
        } catch (Throwable t) {
            failures.add(t);
        } finally {
            remaining.decrement();
        }
    }
}
