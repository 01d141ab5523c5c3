package io.spindle;

import java.util.List;
import java.util.Objects;

/**
 * A snapshot of a pool's counters: totals, what is queued right now, and the same per worker. Counters are read
 * without stopping the pool, so a snapshot taken while work runs is approximate; one taken while the pool is idle is
 * exact. The totals are exactly the sums of the {@link #workers() per-worker} figures of the same snapshot.
 *
 * <pre>{@code
 * PoolStats s = pool.stats();
 * System.out.println(s);                 // totals on the first line, then one line per worker
 * long busiest = s.workers().stream().mapToLong(WorkerStats::jobsExecuted).max().orElse(0);
 * }</pre>
 *
 * @param jobsExecuted   jobs the pool's workers took from a queue and ran: stolen join halves, spawned tasks,
 *                       installs, broadcast copies, scope tasks (a join half taken back by its owner runs inline
 *                       and is not counted)
 * @param steals         jobs a worker took from another worker's deque
 * @param injected       jobs submitted from threads outside the pool (and tasks spawned by a thread back from
 *                       {@link Spindle#blocking}, which go the same way)
 * @param sleeps         times a worker blocked because it found no work
 * @param wakeups        times a blocked worker was woken by another thread
 * @param injectorQueued jobs submitted from outside that no worker has taken yet (the global injector's length)
 * @param workers        one entry per worker, element {@code i} for worker {@code i}; unmodifiable
 * @param promotions     join halves the workers' lazy joins made stealable at a heartbeat (docs/DESIGN.md §7); 0 with
 *                       eager joins
 * @param ioPolls        polls of the workers' IO selectors (docs/DESIGN.md §6), summed over the workers
 * @param ioReadyEvents  ready channels those polls reported, summed over the workers
 * @param ioWakeups      sleeps that a worker's own IO ended (no waker), summed over the workers: with
 *                       {@code wakeups}, the wake-ups caused by IO against those caused by work
 * @param ioWatchdogPolls polls the IO watchdog made for workers busy with a long job while holding IO (also counted in
 *                       their {@code ioPolls}); what those polls finished enters through the injector and is counted in
 *                       {@code injected}
 * @param blockedWorkers threads inside {@link Spindle#blocking} or {@link Spindle#managedBlock} right now whose place
 *                       in the pool a stand-in took (a call past {@code maxBlockingThreads} blocks its worker and is
 *                       not counted)
 * @param standInThreads threads alive beyond {@link ThreadPool#threadCount()}: threads back from a blocking call that
 *                       finish their task, and idle ones that wait, up to the keep-alive, to stand in again; 0 once
 *                       the keep-alive passed with nothing blocking. Jobs they ran count in their index's figures
 */
public record PoolStats(long jobsExecuted, long steals, long injected, long sleeps, long wakeups,
                        long injectorQueued, List<WorkerStats> workers, long promotions, long ioPolls,
                        long ioReadyEvents, long ioWakeups, long ioWatchdogPolls, int blockedWorkers,
                        int standInThreads) {

    /**
     * Checks the arguments and keeps an unmodifiable copy of {@code workers}.
     *
     * @param jobsExecuted   jobs run from a queue, summed over the workers
     * @param steals         jobs taken from another worker's deque, summed over the workers
     * @param injected       jobs submitted from outside the pool
     * @param sleeps         times a worker blocked, summed over the workers
     * @param wakeups        times a blocked worker was woken, summed over the workers
     * @param injectorQueued jobs waiting in the injector
     * @param workers        the per-worker figures, element {@code i} for worker {@code i}
     * @param promotions     join halves promoted, summed over the workers
     * @param ioPolls        IO selector polls, summed over the workers
     * @param ioReadyEvents  ready channels, summed over the workers
     * @param ioWakeups      sleeps ended by the sleeper's own IO, summed over the workers
     * @param ioWatchdogPolls the IO watchdog's polls for busy workers
     * @param blockedWorkers  threads inside {@link Spindle#blocking} or {@link Spindle#managedBlock} right now that
     *                        handed their place in the pool to a stand-in
     * @param standInThreads  threads alive beyond {@code threadCount()}: those back from a blocking call that finish
     *                        their task, and idle ones waiting, up to the keep-alive, to stand in again
     * @throws NullPointerException if {@code workers} or one of its elements is null
     */
    public PoolStats {
        workers = List.copyOf(Objects.requireNonNull(workers, "workers"));
    }

    /**
     * As the canonical constructor, with no blocking calls handed off.
     *
     * @param jobsExecuted   jobs run from a queue, summed over the workers
     * @param steals         jobs taken from another worker's deque, summed over the workers
     * @param injected       jobs submitted from outside the pool
     * @param sleeps         times a worker blocked, summed over the workers
     * @param wakeups        times a blocked worker was woken, summed over the workers
     * @param injectorQueued jobs waiting in the injector
     * @param workers        the per-worker figures, element {@code i} for worker {@code i}
     * @param promotions     join halves promoted, summed over the workers
     * @param ioPolls        IO selector polls, summed over the workers
     * @param ioReadyEvents  ready channels, summed over the workers
     * @param ioWakeups      sleeps ended by the sleeper's own IO, summed over the workers
     * @param ioWatchdogPolls the IO watchdog's polls for busy workers
     * @throws NullPointerException if {@code workers} or one of its elements is null
     */
    public PoolStats(long jobsExecuted, long steals, long injected, long sleeps, long wakeups, long injectorQueued,
                     List<WorkerStats> workers, long promotions, long ioPolls, long ioReadyEvents, long ioWakeups,
                     long ioWatchdogPolls) {
        this(jobsExecuted, steals, injected, sleeps, wakeups, injectorQueued, workers, promotions, ioPolls,
                ioReadyEvents, ioWakeups, ioWatchdogPolls, 0, 0);
    }

    /**
     * As the canonical constructor, with no IO.
     *
     * @param jobsExecuted   jobs run from a queue, summed over the workers
     * @param steals         jobs taken from another worker's deque, summed over the workers
     * @param injected       jobs submitted from outside the pool
     * @param sleeps         times a worker blocked, summed over the workers
     * @param wakeups        times a blocked worker was woken, summed over the workers
     * @param injectorQueued jobs waiting in the injector
     * @param workers        the per-worker figures, element {@code i} for worker {@code i}
     * @param promotions     join halves promoted, summed over the workers
     * @throws NullPointerException if {@code workers} or one of its elements is null
     */
    public PoolStats(long jobsExecuted, long steals, long injected, long sleeps, long wakeups, long injectorQueued,
                     List<WorkerStats> workers, long promotions) {
        this(jobsExecuted, steals, injected, sleeps, wakeups, injectorQueued, workers, promotions, 0L, 0L, 0L, 0L);
    }

    /**
     * As the canonical constructor, with no promotions.
     *
     * @param jobsExecuted   jobs run from a queue, summed over the workers
     * @param steals         jobs taken from another worker's deque, summed over the workers
     * @param injected       jobs submitted from outside the pool
     * @param sleeps         times a worker blocked, summed over the workers
     * @param wakeups        times a blocked worker was woken, summed over the workers
     * @param injectorQueued jobs waiting in the injector
     * @param workers        the per-worker figures, element {@code i} for worker {@code i}
     * @throws NullPointerException if {@code workers} or one of its elements is null
     */
    public PoolStats(long jobsExecuted, long steals, long injected, long sleeps, long wakeups, long injectorQueued,
                     List<WorkerStats> workers) {
        this(jobsExecuted, steals, injected, sleeps, wakeups, injectorQueued, workers, 0L);
    }

    /**
     * Returns the jobs waiting to run right now: in the injector, in the workers' deques and in their broadcast
     * queues. Approximate while the pool runs (each queue is measured at a slightly different moment), exact when it
     * is idle; jobs being run are not counted.
     *
     * @return {@link #injectorQueued()} plus every worker's {@link WorkerStats#queued()}
     */
    public long queued() {
        long n = injectorQueued;
        for (WorkerStats w : workers) {
            n += w.queued();
        }
        return n;
    }

    /**
     * Returns the totals on the first line, then one line per worker (with the IO counters appended for a pool that
     * did IO), for example:
     * <pre>
     * PoolStats[jobsExecuted=1201, steals=598, injected=3, sleeps=14, wakeups=12, queued=0, injectorQueued=0,
     *           promotions=40]
     *   worker 0: jobsExecuted=604, steals=297, sleeps=7, wakeups=6, queued=0, promotions=22
     *   worker 1: jobsExecuted=597, steals=301, sleeps=7, wakeups=6, queued=0, promotions=18
     * </pre>
     *
     * @return a readable multi-line summary
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(64 + 72 * workers.size());
        sb.append("PoolStats[jobsExecuted=").append(jobsExecuted)
                .append(", steals=").append(steals)
                .append(", injected=").append(injected)
                .append(", sleeps=").append(sleeps)
                .append(", wakeups=").append(wakeups)
                .append(", queued=").append(queued())
                .append(", injectorQueued=").append(injectorQueued)
                .append(", promotions=").append(promotions);
        if (ioPolls != 0 || ioReadyEvents != 0 || ioWakeups != 0 || ioWatchdogPolls != 0) {
            sb.append(", ioPolls=").append(ioPolls)
                    .append(", ioReadyEvents=").append(ioReadyEvents)
                    .append(", ioWakeups=").append(ioWakeups)
                    .append(", ioWatchdogPolls=").append(ioWatchdogPolls);
        }
        if (blockedWorkers != 0 || standInThreads != 0) {
            sb.append(", blockedWorkers=").append(blockedWorkers)
                    .append(", standInThreads=").append(standInThreads);
        }
        sb.append(']');
        for (WorkerStats w : workers) {
            sb.append("\n  ").append(w);
        }
        return sb.toString();
    }
}
