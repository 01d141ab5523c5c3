package io.spindle;

/**
 * What a copy of a {@link ThreadPool#broadcast(java.util.function.Function) broadcast} operation knows about
 * where it runs.
 *
 * @param index       the index of the worker running this copy, equal to {@link Spindle#currentThreadIndex()}
 * @param threadCount the number of workers in the pool, which is also the number of copies
 */
public record BroadcastContext(int index, int threadCount) {}
