package io.spindle.internal.executor;

import io.spindle.internal.latch.WorkerLatch;
import io.spindle.internal.registry.WorkerThread;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;

/**
 * The {@code CompletableFuture} of {@code ThreadPool.supplyAsync} and {@code runAsync}. It differs from a plain one in
 * two ways:
 * <ul>
 *   <li>Its default executor is the pool, so the {@code *Async} methods without an executor argument
 *       ({@code thenApplyAsync(fn)}) run on the pool rather than on {@code ForkJoinPool.commonPool()}, and so do those
 *       of the stages they return ({@link #newIncompleteFuture()}).</li>
 *   <li>{@link #join()} and {@link #get()} called on a Spindle worker (of any pool) run that worker's pool's jobs until
 *       the future completes, as Spindle's own joins wait, instead of blocking the worker. On a one-thread pool a task
 *       that waits for a future of its own pool would otherwise wait forever (PoolFuture solves the same problem by
 *       running the task inline; here the task is the JDK's, so the worker waits on a latch instead). The timed
 *       {@code get(timeout, unit)} blocks as usual: the wait loop has no deadline.</li>
 * </ul>
 */
public class PoolCompletableFuture<T> extends CompletableFuture<T> {
    private final Executor pool;

    public PoolCompletableFuture(Executor pool) {
        this.pool = pool;
    }

    @Override
    public Executor defaultExecutor() {
        return pool;
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new PoolCompletableFuture<>(pool);
    }

    @Override
    public T join() {
        runOtherJobsUntilDone();
        return super.join();
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        runOtherJobsUntilDone();
        return super.get();
    }

    /** On a Spindle worker: keeps running its pool's jobs until this future completes. Elsewhere: returns at once. */
    private void runOtherJobsUntilDone() {
        if (isDone()) {
            return;
        }
        WorkerThread w = WorkerThread.current();
        if (w == null) {
            return;
        }
        // The latch's owner is the waiting worker: setting it wakes that worker if it sleeps on it (L1). Completion
        // happens-before the set, and the set before our probe sees it, so super.join() then returns at once.
        WorkerLatch done = new WorkerLatch(w.registry(), w.index());
        whenComplete((result, failure) -> done.set());
        w.waitUntil(done);
    }
}
