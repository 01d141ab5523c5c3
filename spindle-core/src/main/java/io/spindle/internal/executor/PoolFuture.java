package io.spindle.internal.executor;

import io.spindle.internal.registry.Registry;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The {@code Future} of a submitted task. A worker of the same pool that waits on it first runs the task itself if it
 * has not started (FutureTask runs a task at most once, so the queued copy then does nothing): a worker blocking on a
 * task queued behind it, on a one-thread pool say, would otherwise wait forever.
 */
public final class PoolFuture<T> extends FutureTask<T> {
    private final Registry registry;

    public PoolFuture(Callable<T> task, Registry registry) {
        super(task);
        this.registry = registry;
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        helpIfOnPool();
        return super.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        helpIfOnPool();
        return super.get(timeout, unit);
    }

    /** Runs the task inline if the caller is a worker of its pool and nobody started it yet. */
    void helpIfOnPool() {
        if (!isDone() && registry.isCurrentThreadWorker()) {
            run();
        }
    }
}
