package io.spindle;

/**
 * What a copy of a {@link ThreadPool#broadcast(java.util.function.Function) broadcast} operation knows about
 * where it runs.
 *
 * <pre>{@code
 * // One partial histogram per worker, each filled with a disjoint stride of the input.
 * List<int[]> partials = pool.broadcast(ctx -> {
 *     int[] h = new int[256];
 *     for (int i = ctx.index(); i < data.length; i += ctx.threadCount()) h[data[i] & 0xFF]++;
 *     return h;
 * });
 * }</pre>
 *
 * @param index       the index of the worker running this copy, equal to {@link Spindle#currentThreadIndex()}
 * @param threadCount the number of workers in the pool, which is also the number of copies
 */
public record BroadcastContext(int index, int threadCount) {}
