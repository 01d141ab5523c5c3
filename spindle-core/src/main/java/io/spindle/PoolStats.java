package io.spindle;

/**
 * A snapshot of a pool's counters, summed over its workers. Counters are read without stopping the pool, so a
 * snapshot taken while work runs is approximate; one taken while the pool is idle is exact.
 *
 * @param jobsExecuted jobs the pool's workers took from a queue and ran: stolen join halves, spawned tasks,
 *                     installs, broadcast copies, scope tasks (a join half taken back by its owner runs inline
 *                     and is not counted)
 * @param steals       jobs a worker took from another worker's deque
 * @param injected     jobs submitted from threads outside the pool
 * @param sleeps       times a worker blocked because it found no work
 * @param wakeups      times a blocked worker was woken by another thread
 */
public record PoolStats(long jobsExecuted, long steals, long injected, long sleeps, long wakeups) {}
