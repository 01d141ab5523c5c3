package io.spindle.internal.sleep;

import io.spindle.internal.latch.CoreLatch;

/**
 * What the worker loop tells a sleep protocol, and nothing else: the loop in
 * {@code io.spindle.internal.registry.WorkerThread#waitUntil} is the same for every {@code SleepStrategy}.
 *
 * <p>The worker loop's contract (see package-info, "The worker loop"):
 * <pre>
 *   while (!latch.probe()) {
 *       job = own deque or own broadcast queue;  if found: run it, continue      // no sleep-state traffic
 *       startLooking(idle)
 *       try {
 *           while (!latch.probe()) {
 *               job = full search (own, steal, injector);  if found: break
 *               noWorkFound(idle, latch)         // yields, gets sleepy, or sleeps
 *           }
 *       } finally {
 *           leaveIdle(idle, job != null)          // paired with startLooking even if a step above throws
 *       }
 *       if job == null: return                    // the latch was set
 *       run job
 *   }
 * </pre>
 * A search that starts after work was posted must find it (or the protocol must keep the worker awake): this is the
 * premise every protocol's "no lost wake-up" argument rests on. A worker that leaves through its latch has not
 * searched, yet a poster may have counted on it (an awake idle worker, a hint it read): {@link #leaveIdle} is where it
 * pays that debt (A4, H8 in package-info).
 */
public interface SleepProtocol {
    /** Worker {@code idle.workerIndex()} found no local work and begins to search. */
    void startLooking(IdleState idle);

    /**
     * The worker leaves the idle state: it found a job ({@code foundWork}), or its latch was set, or a step of the
     * search threw. Each protocol decides what the worker owes the sleepers on the way out: a cascade when it found
     * work and more stayed visible (JEC's A2), handing on a wake-up or hint it will not use when it leaves without a
     * job (A4, H8), giving up the sleepy role (S6). Must not lose a wake-up if called after a failed step.
     */
    void leaveIdle(IdleState idle, boolean foundWork);

    /**
     * A full search found nothing: yield, get sleepy, or block until woken. Returns after at most one of those; the
     * caller probes its latch and searches again.
     *
     * @param latch the latch the worker waits for; setting it must wake the worker
     */
    void noWorkFound(IdleState idle, CoreLatch latch);

    /**
     * Worker {@code pusherIndex} pushed {@code numJobs} jobs onto its own deque, which was empty before if
     * {@code queueWasEmpty}. (The index lets a protocol tell a woken worker where to look: see {@link IdleState}'s
     * hint.)
     */
    void newInternalJobs(int pusherIndex, int numJobs, boolean queueWasEmpty);

    /**
     * A racy estimate of the workers that are idle (searching or blocked) right now, for the lazy joins' promotion rule
     * (LZ5 in internal/lazy: promote only if it can help). Cheap: one load of the protocol's own counters; never blocks.
     */
    int idleWorkersEstimate();

    /** A thread put {@code numJobs} jobs into the global injector, which was empty before if {@code queueWasEmpty}. */
    void newInjectedJobs(int numJobs, boolean queueWasEmpty);

    /** Every worker got one job in its private broadcast queue: each sleeping worker must wake. */
    void newBroadcastJobs();

    /** A latch that worker {@code workerIndex} sleeps on was set: wake that worker. */
    void notifyWorkerLatchIsSet(int workerIndex);

    /** Every worker's terminate latch has been set; protocols that need more than the latch wake-ups act here. */
    void terminate();

    /**
     * Releases what the protocol holds outside the Java heap (HINT_PIPE: its pipe and selector). The pool calls it once
     * every worker has exited, a worker that a failed build never started counting as exited; no other method is
     * called afterwards except the statistics. Idempotent: the last worker out and a failed build may both call it.
     */
    default void close() {}

    /**
     * For diagnostics and tests: whether the protocol's own bookkeeping says every worker is blocked and no wake-up is
     * in flight (JEC: inactive = sleeping = threads; SLEEPY_WORKER: nobody sleepy, the sleeping bit set, every worker
     * blocked; HINT_PIPE: sleepers = threads, every hint read). A pool left alone for long enough must reach this
     * state; counters stuck elsewhere (a worker counted twice, or dead) mean a broken invariant. A snapshot: racy
     * while work is posted.
     */
    boolean isAtRest();

    /** @return times worker {@code workerIndex} blocked */
    long sleeps(int workerIndex);

    /** @return times worker {@code workerIndex} was woken from blocking by another thread */
    long wakeups(int workerIndex);

    /**
     * A1: the most yielding rounds of this protocol's adaptive limit, where each worker's limit starts (its fixed
     * count: rayon's 32 by default).
     */
    default int maxRoundsUntilSleepy() {
        return JecSleep.ROUNDS_UNTIL_SLEEPY;
    }
}
