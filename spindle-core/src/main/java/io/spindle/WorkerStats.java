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
 * @param queued       jobs waiting in this worker's deque and broadcast queue right now (a racy snapshot)
 */
public record WorkerStats(int index, long jobsExecuted, long steals, long sleeps, long wakeups, long queued) {

    /**
     * Returns one line: {@code worker 3: jobsExecuted=604, steals=297, sleeps=7, wakeups=6, queued=0}.
     *
     * @return a readable one-line summary
     */
    @Override
    public String toString() {
        return "worker " + index + ": jobsExecuted=" + jobsExecuted + ", steals=" + steals + ", sleeps=" + sleeps
                + ", wakeups=" + wakeups + ", queued=" + queued;
    }
}
