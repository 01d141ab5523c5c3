package io.spindle.internal.executor;

import io.spindle.internal.job.Failures;
import io.spindle.internal.registry.Registry;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/** {@code invokeAll} and {@code invokeAny} on a pool, with the failure rules of docs/DESIGN.md §1.8. */
public final class Invoke {
    private Invoke() {}

    /**
     * @param timeoutNanos negative: no timeout
     */
    public static <T> List<Future<T>> all(Registry registry, Collection<? extends Callable<T>> tasks,
                                          long timeoutNanos) throws InterruptedException {
        List<Callable<T>> checked = checkTasks(tasks);
        long deadline = System.nanoTime() + timeoutNanos;
        List<Future<T>> futures = new ArrayList<>(checked.size());
        boolean done = false;
        try {
            for (Callable<T> task : checked) {
                futures.add(registry.submit(task, "invokeAll"));
            }
            for (Future<T> f : futures) {
                if (f.isDone()) {
                    continue;
                }
                try {
                    if (timeoutNanos < 0) {
                        f.get();
                    } else {
                        f.get(Math.max(0L, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    }
                } catch (ExecutionException | CancellationException ignored) {
                    // the failure stays in the future, where the caller finds it
                } catch (TimeoutException e) {
                    return futures; // finally cancels the rest
                }
            }
            done = true;
            return futures;
        } finally {
            if (!done) {
                for (Future<T> f : futures) {
                    f.cancel(true);
                }
            }
        }
    }

    /**
     * @param timeoutNanos negative: no timeout
     */
    public static <T> T any(Registry registry, Collection<? extends Callable<T>> tasks, long timeoutNanos)
            throws InterruptedException, ExecutionException, TimeoutException {
        List<Callable<T>> checked = checkTasks(tasks);
        if (checked.isEmpty()) {
            throw new IllegalArgumentException("invokeAny needs at least one task, got none");
        }
        CompletableFuture<T> winner = new CompletableFuture<>();
        Failures failures = new Failures();
        AtomicInteger failuresLeft = new AtomicInteger(checked.size());
        List<PoolFuture<T>> futures = new ArrayList<>(checked.size());
        try {
            for (Callable<T> task : checked) {
                PoolFuture<T> f = new PoolFuture<>(() -> {
                    try {
                        T value = task.call();
                        winner.complete(value);
                        return value;
                    } catch (Throwable t) {
                        failures.add(t);
                        if (failuresLeft.decrementAndGet() == 0) {
                            // every task failed: the first in time, with the others suppressed (docs/DESIGN.md §1.8)
                            winner.completeExceptionally(failures.combine());
                        }
                        throw t;
                    }
                }, registry);
                futures.add(f);
                registry.spawn(f, "invokeAny");
            }
            if (registry.isCurrentThreadWorker()) {
                // Our own tasks may be queued behind us: run the ones nobody started until one wins.
                for (PoolFuture<T> f : futures) {
                    if (winner.isDone()) {
                        break;
                    }
                    f.helpIfOnPool();
                }
            }
            try {
                return timeoutNanos < 0 ? winner.get() : winner.get(timeoutNanos, TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                throw new ExecutionException(e.getCause()); // cause: the first failure, others suppressed
            }
        } finally {
            for (Future<T> f : futures) {
                f.cancel(true);
            }
        }
    }

    private static <T> List<Callable<T>> checkTasks(Collection<? extends Callable<T>> tasks) {
        List<Callable<T>> out = new ArrayList<>(tasks.size());
        int i = 0;
        for (Callable<T> t : tasks) {
            out.add(Objects.requireNonNull(t, "tasks[" + i + "]"));
            i++;
        }
        return out;
    }
}
