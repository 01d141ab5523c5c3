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
 *
 * <p>A limit at the very edge of a stack (E4 in the registry's package documentation): the waiting worker's latch is
 * set by a dependent stage, on the stack of whichever thread completes the future. If that set overflows there before
 * the latch's state changed, {@code CompletableFuture} keeps the {@code StackOverflowError} in the dependent's own
 * future, which nobody reads, and the worker waits until something else wakes it and it finds the latch still unset:
 * it waits on. (Once the state changed, a wake-up that overflows is owed and delivered, E4.) Polling
 * {@code isDone()} from the wait would cover it, but it needs a bound on every sleep of that wait, a timer for a case
 * no caller has met; the completing thread's stack is the user's, and a completion that deep already risks the
 * user's own dependents the same way.
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
