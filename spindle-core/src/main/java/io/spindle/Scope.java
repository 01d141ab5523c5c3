package io.spindle;

import java.util.function.Consumer;

/**
 * A region of structured parallelism opened by {@link ThreadPool#scope(Consumer)} (or
 * {@link ThreadPool#scopeWithResult}): every task spawned into it has ended before the scope returns. Tasks may spawn
 * more tasks into the same scope.
 *
 * <p>A failure in any task is caught and rethrown when the scope ends (the first one in time, with the others
 * added as suppressed); the other tasks still run.
 *
 * <pre>{@code
 * long[] sums = new long[parts];
 * pool.scope(s -> {
 *     for (int i = 0; i < parts; i++) {
 *         int part = i;
 *         s.spawn(() -> sums[part] = sumOf(part));
 *     }
 * });
 * }</pre>
 */
public interface Scope {
    /**
     * Runs {@code task} asynchronously in this scope's pool; the scope does not end before it has.
     *
     * @param task the task
     * @throws NullPointerException if {@code task} is null
     */
    void spawn(Runnable task);

    /**
     * Runs {@code task} asynchronously in this scope's pool, handing it this scope so that it can spawn more.
     *
     * @param task the task
     * @throws NullPointerException if {@code task} is null
     */
    void spawn(Consumer<Scope> task);
}
