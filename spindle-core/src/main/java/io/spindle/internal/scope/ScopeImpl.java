package io.spindle.internal.scope;

import io.spindle.Scope;
import io.spindle.internal.job.Failures;
import io.spindle.internal.job.InjectedJob;
import io.spindle.internal.latch.CountLatch;
import io.spindle.internal.latch.WorkerLatch;
import io.spindle.internal.registry.Registry;
import io.spindle.internal.registry.WorkerThread;

import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A scope: a count latch of outstanding tasks (starting at one, for the body) whose target is a latch owned by the
 * worker that opened it. That worker runs the body, then runs other work until the count reaches zero.
 */
public final class ScopeImpl implements Scope {
    private final Registry registry;
    private final CountLatch outstanding;
    private final Failures failures = new Failures();

    private ScopeImpl(Registry registry, WorkerThread owner) {
        this.registry = registry;
        this.outstanding = new CountLatch(new WorkerLatch(registry, owner.index()));
    }

    /** Runs {@code body} in a new scope on {@code owner} (a worker of {@code registry}) and waits for all its tasks. */
    public static <T> T run(Registry registry, WorkerThread owner, Function<Scope, T> body) {
        ScopeImpl scope = new ScopeImpl(registry, owner);
        T result = null;
        try {
            result = body.apply(scope);
        } catch (Throwable t) {
            scope.failures.add(t); // never throws
        }
        Throwable runtimeFailure = null;
        try {
            scope.outstanding.decrement(); // the body's own count
            owner.waitUntil((WorkerLatch) scope.outstanding.target()); // returns, or throws, once every task ended
        } catch (Throwable failure) {
            runtimeFailure = failure; // E3: the wait ended all the same; report it after the tasks'
        }
        scope.failures.rethrowIfAny();
        if (runtimeFailure != null) {
            throw Failures.<RuntimeException>sneakyThrow(runtimeFailure);
        }
        return result;
    }

    @Override
    public void spawn(Runnable task) {
        Objects.requireNonNull(task, "task");
        submit(new ScopeJob(this, task, null));
    }

    @Override
    public void spawn(Consumer<Scope> task) {
        Objects.requireNonNull(task, "task");
        submit(new ScopeJob(this, null, task));
    }

    private void submit(ScopeJob job) {
        // While the scope is open its count is above zero and its pool is running (the body holds the pool's count).
        if (!outstanding.tryIncrement()) {
            throw new IllegalStateException("spawn into a scope that has already ended");
        }
        try {
            registry.pushOrInject(job); // from another pool's thread this injects into the scope's pool
        } catch (Throwable failure) {
            synchronized (outstanding) { // E1: the job is not in the pool; its count goes back without a call
                outstanding.owed++; // settled below, or by the next decrement, ours or the body's (CountLatch.owed)
            }
            try {
                outstanding.settleOwed(); // at once where the stack allows: the spawner may hold no count of its own
            } catch (Throwable stillOwed) {
                // settled by the next decrement
            }
            throw failure;
        }
    }

    private static final class ScopeJob extends InjectedJob {
        private final ScopeImpl scope;
        private final Runnable runnable;
        private final Consumer<Scope> consumer;

        ScopeJob(ScopeImpl scope, Runnable runnable, Consumer<Scope> consumer) {
            this.scope = scope;
            this.runnable = runnable;
            this.consumer = consumer;
        }

        @Override
        public void execute() {
            try {
                if (runnable != null) {
                    runnable.run();
                } else {
                    consumer.accept(scope);
                }
            } catch (Throwable t) {
                scope.failures.add(t);
            } finally {
                scope.outstanding.decrement();
            }
        }
    }
}
