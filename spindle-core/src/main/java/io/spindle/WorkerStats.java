package io.spindle;

/**
 * One worker's counters in a {@link PoolStats} snapshot. Read without stopping the worker: approximate while it runs,
 * exact while the pool is idle.
 *
 * @param index        the worker's index in its pool, {@code 0..threadCount()-1}
 * @param jobsExecuted jobs this worker took from a queue and ran (see {@link PoolStats#jobsExecuted()})
 * @param steals       jobs this worker took from another worker's deque
 * @param sleeps       times this worker blocked because it found no work
 * @param wakeups      times another thread woke this worker from blocking
 * @param queued       jobs waiting in this worker's deque, broadcast queue and promotion slots right now (a racy
 *                     snapshot)
 * @param promotions   join halves this worker's lazy joins made stealable at a heartbeat (SPEC §7); 0 with eager joins
 */
public record WorkerStats(int index, long jobsExecuted, long steals, long sleeps, long wakeups, long queued,
                          long promotions) {

    /**
     * The figures of a worker that made no promotions (an eager pool's, or one built before promotions were counted).
     *
     * @param index        the worker's index
     * @param jobsExecuted jobs it ran from a queue
     * @param steals       jobs it took from other workers
     * @param sleeps       times it blocked
     * @param wakeups      times it was woken
     * @param queued       jobs waiting in its queues
     */
    public WorkerStats(int index, long jobsExecuted, long steals, long sleeps, long wakeups, long queued) {
        this(index, jobsExecuted, steals, sleeps, wakeups, queued, 0L);
    }

    /**
     * Returns one line: {@code worker 3: jobsExecuted=604, steals=297, sleeps=7, wakeups=6, queued=0, promotions=22}.
     *
     * @return a readable one-line summary
     */
    @Override
    public String toString() {
        return "worker " + index + ": jobsExecuted=" + jobsExecuted + ", steals=" + steals + ", sleeps=" + sleeps
                + ", wakeups=" + wakeups + ", queued=" + queued + ", promotions=" + promotions;
    }
}
