package io.spindle.internal.registry;

import java.util.ArrayDeque;
import java.util.concurrent.locks.LockSupport;

/**
 * The threads beyond a pool's workers: stand-ins that take a blocked worker's index, threads that handed theirs away
 * and finish their stacks ("detached"), and spares that wait to stand in again. The rules (B1 to B7) are in
 * {@code io.spindle.internal.blocking}'s package-info; this class keeps the table and the counts, under its own
 * monitor, which also orders a hand-off against termination (B7).
 */
public final class StandIns {
    private final Registry registry;
    private final int max;
    private final long keepAliveNanos;

    /** B3: the detached threads; entered and left under this monitor, read without it. */
    private final DetachedTable<WorkerThread> detachedTable = new DetachedTable<>(WorkerThread::index);

    // --- guarded by this --------------------------------------------------------------------------------------------
    private boolean terminated;         // B7: no hand-off once termination set the workers' latches
    private int extraThreads;           // alive beyond the workers: detached threads and spares (B4)
    private int blockedNow;             // hand-offs whose blocking call has not returned yet
    private long handOffs;              // statistics
    private long standInsStarted;       // statistics: threads started to stand in
    private ArrayDeque<WorkerThread>[] sparesByIndex; // B4: a spare keeps the index it was made for; made lazily
    private long[] retiredJobs;         // the counts of threads that ended beyond the workers, per index
    private long[] retiredSteals;
    private long[] retiredPromotions;

    StandIns(Registry registry, int maxBlockingThreads, long keepAliveNanos) {
        this.registry = registry;
        this.max = maxBlockingThreads;
        this.keepAliveNanos = keepAliveNanos;
    }

    // --- the hand-off (B2) ------------------------------------------------------------------------------------------

    /**
     * B2: the calling worker {@code t} hands its index to a spare (one waiting for this index, or a new thread) and
     * becomes detached. Everything that can fail (the table's growth, the new thread's start) comes before the first
     * change; the commit is plain and volatile stores. Refused, and nothing changed, when the pool terminates, at the
     * cap, or when a thread cannot be made: the caller then blocks its worker.
     *
     * @return whether the index was handed off
     */
    boolean handOff(WorkerThread t) {
        WorkerThread spare;
        boolean started = false;
        synchronized (this) {
            if (terminated || max == 0) {
                return false;
            }
            spare = takeSpare(t.index());
            if (spare == null && extraThreads >= max) {
                return false;
            }
            int place;
            try {
                place = detachedTable.reserve(); // may grow the table
                if (spare == null) {
                    WorkerThread fresh = registry.newStandIn(t.index()); // calls the user's threadName
                    fresh.start(); // may throw (no native thread); once started it waits for our monitor
                    spare = fresh;
                    extraThreads++;
                    standInsStarted++;
                    started = true;
                }
            } catch (Throwable cannot) {
                // B8: out of memory, no native thread, a failing threadName: nothing changed, and the caller blocks
                // its worker, as past the cap. A cached spare taken above goes back.
                if (spare != null) {
                    spares(t.index()).addFirst(spare); // room it had a moment ago: cannot fail
                }
                return false;
            }
            // Commit: no call below can fail but the last two, which cannot throw in practice (a volatile store, a
            // release store); their order is B2's.
            t.detached = true;                        // plain: only t reads it (see the field)
            detachedTable.enter(place, t);            // B3: before t can sleep on a latch detached
            blockedNow++;
            handOffs++;
            assignment(spare, ASSIGNED);              // the spare clears its own detached flag (awaitAssignment)
            registry.replaceWorker(t.index(), spare); // release: thieves, broadcasts and termination find the spare
            t.poller().bindOwner(spare);              // volatile: the index's IO wakes the spare from now on (B2)
        }
        LockSupport.unpark(spare);
        try {
            registry.events().handOff(t.index(), started);
        } catch (Throwable notRecorded) {
            // the hand-off stands; an event that could not be made (out of memory) is only not recorded
        }
        return true;
    }

    /** A blocking call that handed off returned (statistics: {@code PoolStats.blockedWorkers}). */
    synchronized void blockingReturned() {
        blockedNow--;
    }

    // --- spares (B4) ------------------------------------------------------------------------------------------------

    private static final int WAITING = 0;
    private static final int ASSIGNED = 1;

    /** A spare's state, kept in the thread's own field: WAITING or ASSIGNED. Under the monitor. */
    private static void assignment(WorkerThread spare, int state) {
        spare.spareState = state;
    }

    @SuppressWarnings("unchecked")
    private WorkerThread takeSpare(int index) {
        if (sparesByIndex == null) {
            return null;
        }
        ArrayDeque<WorkerThread> q = sparesByIndex[index];
        return q == null ? null : q.pollFirst(); // the most recently idle: the others may time out
    }

    /**
     * B6: detached thread {@code t} unwound its stack and drained its deque: it leaves the detached table and waits
     * as a spare for its index (or ends, if the pool terminates). A failure to queue it (out of memory) ends it.
     */
    void finishedDetached(WorkerThread t) {
        synchronized (this) {
            clearFromTable(t);
            if (!terminated) {
                try {
                    spares(t.index()).addFirst(t);
                    t.spareState = WAITING;
                    t.spareSince = System.nanoTime();
                } catch (Throwable outOfMemory) {
                    t.spareState = RETIRING; // awaitAssignment ends it
                }
            } else {
                t.spareState = RETIRING;
            }
        }
    }

    private static final int RETIRING = 2;

    @SuppressWarnings("unchecked")
    private ArrayDeque<WorkerThread> spares(int index) {
        if (sparesByIndex == null) {
            sparesByIndex = new ArrayDeque[registry.threadCount()];
        }
        ArrayDeque<WorkerThread> q = sparesByIndex[index];
        if (q == null) {
            q = new ArrayDeque<>();
            sparesByIndex[index] = q;
        }
        return q;
    }

    private void clearFromTable(WorkerThread t) {
        detachedTable.leave(t);
    }

    /**
     * B4: a spare waits until a hander assigns it its index, or until the keep-alive passed idle, or termination.
     * Called by the spare itself; a new stand-in finds itself assigned at once.
     *
     * @return true once assigned (the caller runs as the index's worker), false to end the thread
     */
    boolean awaitAssignment(WorkerThread spare) {
        boolean interrupted = false;
        try {
            while (true) {
                long left;
                synchronized (this) {
                    if (spare.spareState == ASSIGNED) {
                        spare.spareState = WAITING; // for its next time as a spare
                        spare.detached = false;     // B4: only the thread itself writes its flag
                        return true;
                    }
                    left = keepAliveNanos - (System.nanoTime() - spare.spareSince);
                    if (terminated || spare.spareState == RETIRING || left <= 0) {
                        if (sparesByIndex != null && sparesByIndex[spare.index()] != null) {
                            sparesByIndex[spare.index()].remove(spare);
                        }
                        spare.spareState = RETIRING;
                        return false;
                    }
                }
                LockSupport.parkNanos(this, left); // a hander unparks after its commit; a permit makes this return
                if (Thread.interrupted()) {
                    interrupted = true; // shutdownNow interrupts running threads; a spare runs nothing
                }
            }
        } finally {
            if (interrupted) {
                spare.interrupt();
            }
        }
    }

    /** A thread beyond the workers ended (a spare that retired, or a detached thread at termination). */
    void spareExited(WorkerThread t) {
        synchronized (this) {
            clearFromTable(t); // a thread that ended detached (its stack threw past the loop: never, but be sure)
            if (sparesByIndex != null && sparesByIndex[t.index()] != null) {
                sparesByIndex[t.index()].remove(t);
            }
            if (retiredJobs == null) {
                retiredJobs = new long[registry.threadCount()];
                retiredSteals = new long[registry.threadCount()];
                retiredPromotions = new long[registry.threadCount()];
            }
            retiredJobs[t.index()] += t.jobsExecuted();
            retiredSteals[t.index()] += t.steals();
            retiredPromotions[t.index()] += t.promotions();
            extraThreads--;
            notifyAll(); // awaitTermination
        }
    }

    // --- termination (B7) -------------------------------------------------------------------------------------------

    /**
     * B7: termination is decided. From here no hand-off happens, so the workers' array holds each index's last
     * holder for the caller to set its terminate latch; spares are woken to end.
     */
    synchronized WorkerThread[] terminate() {
        terminated = true;
        if (sparesByIndex != null) {
            for (ArrayDeque<WorkerThread> q : sparesByIndex) {
                if (q != null) {
                    for (WorkerThread s : q) {
                        LockSupport.unpark(s);
                    }
                }
            }
        }
        return registry.workers().clone();
    }

    synchronized boolean noneLeft() {
        return extraThreads == 0;
    }

    /** Waits up to {@code nanos} for every thread beyond the workers to end. */
    synchronized boolean awaitNoneLeft(long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + Math.max(nanos, 0);
        while (extraThreads > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    // --- what others read without the monitor -----------------------------------------------------------------------

    /** B3: the detached threads (entries may be null; each a WorkerThread), for thieves' scans and final checks. */
    Thread[] detached() {
        return detachedTable.snapshot();
    }

    /** B3: a latch of {@code index} was set: its detached threads may sleep on it (see DetachedTable). */
    void unparkDetached(int index) {
        detachedTable.unparkAll(index);
    }

    /** For shutdownNow: the detached threads run user tasks, to be interrupted as the workers' are. */
    void interruptDetached() {
        for (Thread d : detachedTable.snapshot()) {
            if (d != null) {
                d.interrupt();
            }
        }
    }

    // --- statistics -------------------------------------------------------------------------------------------------

    synchronized int blockedWorkers() {
        return blockedNow;
    }

    synchronized int standInThreads() {
        return extraThreads;
    }

    synchronized long handOffs() {
        return handOffs;
    }

    synchronized long standInsStarted() {
        return standInsStarted;
    }

    /**
     * The figures of index {@code i}'s threads other than its current holder {@code worker}: detached threads,
     * spares, and those that ended. Jobs, steals and promotions, then jobs queued (detached threads' deques only).
     */
    synchronized long[] countsBeyondWorker(int i, WorkerThread worker) {
        long[] sums = new long[4];
        if (retiredJobs != null) {
            sums[0] = retiredJobs[i];
            sums[1] = retiredSteals[i];
            sums[2] = retiredPromotions[i];
        }
        for (Thread t : detachedTable.snapshot()) {
            WorkerThread d = (WorkerThread) t;
            if (d != null && d != worker && d.index() == i) {
                add(sums, d);
                sums[3] += d.queuedEstimate();
            }
        }
        if (sparesByIndex != null && sparesByIndex[i] != null) {
            for (WorkerThread s : sparesByIndex[i]) {
                if (s != worker) {
                    add(sums, s);
                }
            }
        }
        return sums;
    }

    private static void add(long[] sums, WorkerThread t) {
        sums[0] += t.jobsExecuted();
        sums[1] += t.steals();
        sums[2] += t.promotions();
    }
}
