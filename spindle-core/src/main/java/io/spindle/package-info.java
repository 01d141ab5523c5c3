/**
 * Spindle's public API: a work-stealing fork-join runtime. A {@link io.spindle.ThreadPool} runs {@code join},
 * {@code scope}, {@code spawn}, {@code install} and {@code broadcast} work on per-worker deques, and its idle workers
 * sleep by the chosen {@link io.spindle.SleepStrategy}. {@link io.spindle.Spindle} has the same operations as free
 * functions on the caller's pool, a {@link io.spindle.Scope} waits for every task spawned into it,
 * {@link io.spindle.Parallel} runs stream-like operations and sorts on a pool, and {@link io.spindle.PoolStats} is a
 * snapshot of a pool's counters.
 *
 * <pre>{@code
 * try (ThreadPool pool = ThreadPool.builder().threads(4).build()) {
 *     Pair<Long, Long> halves = pool.join(() -> sum(left), () -> sum(right));   // sum may call Spindle.join
 *     pool.scope(s -> { s.spawn(() -> index(a)); s.spawn(() -> index(b)); });   // returns once both ended
 *     long evens = Parallel.range(0, 1_000_000).on(pool).filter(i -> i % 2 == 0).count();
 *     System.out.println(pool.stats());
 * }
 * }</pre>
 */
package io.spindle;
