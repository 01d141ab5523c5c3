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
 * @param promotions   join halves this worker's lazy joins made stealable at a heartbeat (docs/DESIGN.md §7); 0 with
 *                     eager joins
 * @param ioPolls      polls of this worker's IO selector (docs/DESIGN.md §6): blocking ones while it slept,
 *                     non-blocking ones while it was busy, and the IO watchdog's for it; 0 for a worker that never held
 *                     IO
 * @param ioReadyEvents ready channels those polls reported
 * @param ioWakeups    sleeps of this worker that its own IO ended, with no other thread waking it (not counted in
 *                     {@code wakeups}: when IO and a waker race, the sleep counts once, as one or the other)
 */
public record WorkerStats(int index, long jobsExecuted, long steals, long sleeps, long wakeups, long queued,
                          long promotions, long ioPolls, long ioReadyEvents, long ioWakeups) {

    /**
     * The figures of a worker without IO counters (one that never held IO).
     *
     * @param index        the worker's index
     * @param jobsExecuted jobs it ran from a queue
     * @param steals       jobs it took from other workers
     * @param sleeps       times it blocked
     * @param wakeups      times it was woken
     * @param queued       jobs waiting in its queues
     * @param promotions   join halves it promoted
     */
    public WorkerStats(int index, long jobsExecuted, long steals, long sleeps, long wakeups, long queued,
                       long promotions) {
        this(index, jobsExecuted, steals, sleeps, wakeups, queued, promotions, 0L, 0L, 0L);
    }

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
     * Returns one line: {@code worker 3: jobsExecuted=604, steals=297, sleeps=7, wakeups=6, queued=0, promotions=22},
     * followed by {@code , ioPolls=.., ioReadyEvents=.., ioWakeups=..} for a worker that did IO.
     *
     * @return a readable one-line summary
     */
    @Override
    public String toString() {
        String line = "worker " + index + ": jobsExecuted=" + jobsExecuted + ", steals=" + steals + ", sleeps="
                + sleeps + ", wakeups=" + wakeups + ", queued=" + queued + ", promotions=" + promotions;
        return ioPolls == 0 && ioReadyEvents == 0 && ioWakeups == 0 ? line
                : line + ", ioPolls=" + ioPolls + ", ioReadyEvents=" + ioReadyEvents + ", ioWakeups=" + ioWakeups;
    }
}
