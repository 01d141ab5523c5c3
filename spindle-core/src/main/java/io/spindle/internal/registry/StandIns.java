package io.spindle.internal.registry;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The threads beyond a pool's workers: stand-ins that take a blocked worker's index, threads that handed theirs away
 * and finish their stacks ("detached"), and spares that wait to stand in again. The rules (B1 to B8) are in
 * {@code io.spindle.internal.blocking}'s package-info; this class keeps the table and the counts under its own
 * monitor, which also orders a hand-off against termination (B7) and against the statistics' reads.
 */
public final class StandIns {
    /** {@link WorkerThread#spareState}: waiting for an index, or not a spare at all (a worker, a detached thread). */
    static final int WAITING = 0;
    /** Handed its index: the spare runs as the index's worker once it sees this (awaitAssignment). */
    static final int ASSIGNED = 1;
    /** Ends: its keep-alive passed, the pool terminated, or the cap made room with it (B4). */
    static final int RETIRING = 2;

    private final Registry registry;
    private final int max;
    private final long keepAliveNanos;
    /** B3: the detached threads; entered and left under this monitor, read without it. */
    private final DetachedTable<WorkerThread> detachedTable = new DetachedTable<>(WorkerThread::index);

    // --- guarded by this --------------------------------------------------------------------------------------------
    private boolean terminated;         // B7: no hand-off once termination set the holders' latches
    /** Threads alive beyond the workers: detached ones, spares, and spares on their way out (PoolStats, B7). */
    private int alive;
    /** The cap's count (B4): {@link #alive} less the spares retired to make room, which end on their own. */
    private int counted;
    private int blockedNow;             // hand-offs whose blocking call has not returned yet
    private int standInNumber;          // names stand-ins apart: "<the index's worker name>-standin-<n>"
    private ArrayDeque<WorkerThread>[] sparesByIndex; // B4: a spare keeps the index it was made for; made lazily
    private long[] retired;             // per index, 3 figures each: jobs, steals, promotions of threads that ended
    /** B7: threads that ended after termination began; awaitTermination joins them (their last steps follow ours). */
    private final java.util.List<Thread> endedAfterTermination = new java.util.ArrayList<>();

    StandIns(Registry registry, int maxBlockingThreads, long keepAliveNanos) {
        this.registry = registry;
        this.max = maxBlockingThreads;
        this.keepAliveNanos = keepAliveNanos;
    }

    // --- the hand-off (B2) ------------------------------------------------------------------------------------------

    /**
     * B2: the calling worker {@code t} hands its index to a spare (one waiting for this index, or a new thread) and
     * becomes detached. Everything that can fail (the table's growth, the new thread's start, the unpark) comes before
     * the first change; the commit is stores only. Refused, and nothing changed, when the pool terminates, at the cap,
     * or when a thread cannot be made: the caller then blocks where it is.
     *
     * @return whether the index was handed off
     */
    boolean handOff(WorkerThread t) {
        int i = t.index();
        WorkerThread spare;
        boolean started = false;
        synchronized (this) {
            if (terminated || max == 0) {
                return false;
            }
            spare = takeSpare(i);
            WorkerThread makeRoom = null; // at the cap: an idle spare of another index, retired once ours started
            if (spare == null && counted >= max && (makeRoom = idleSpareOfAnotherIndex()) == null) {
                return false;
            }
            int place;
            try {
                place = detachedTable.reserve(); // may grow the table
                if (spare == null) {
                    WorkerThread fresh = registry.newStandIn(i, ++standInNumber);
                    fresh.start(); // may throw (no native thread); once started it waits for our monitor
                    spare = fresh;
                    alive++;
                    counted++;
                    started = true;
                    if (makeRoom != null) {
                        evict(makeRoom); // only now: a refusal above changed nothing (B8)
                    }
                }
                // Before the commit: a permit, if the spare is not parked yet; it reads its assignment under this
                // monitor, so it cannot act on the permit before we release it.
                LockSupport.unpark(spare);
            } catch (Throwable cannot) {
                // B8: out of memory, no native thread, a stack's edge: nothing changed, and the caller blocks where
                // it is, as past the cap. A spare taken or started above waits as a spare of this index again.
                if (spare != null) {
                    try {
                        spare.spareSince = System.nanoTime();
                        spares(i).addFirst(spare);
                    } catch (Throwable noRoom) {
                        retire(spare); // it ends instead
                    }
                }
                return false;
            }
            // The commit: stores (their call sites linked at the build, E6), in B2's order; t's own flag last, so that
            // t is never detached while it still holds the index.
            detachedTable.enter(place, t);      // B3: before t can sleep on a latch detached
            blockedNow++;
            spare.spareState = ASSIGNED;        // the spare clears its own detached flag (awaitAssignment)
            registry.replaceWorker(i, spare);   // release: thieves, broadcasts and termination find the spare
            t.poller().bindOwner(spare);        // volatile: the index's IO wakes the spare from now on
            t.detached = true;                  // plain: only t reads it (see the field)
        }
        try {
            registry.events().handOff(i, started);
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

    private WorkerThread takeSpare(int index) {
        if (sparesByIndex == null || sparesByIndex[index] == null) {
            return null;
        }
        return sparesByIndex[index].pollFirst(); // the most recently idle: the others may time out
    }

    /** B4, at the cap: an idle spare of another index (a thread serves one index only), or null. */
    private WorkerThread idleSpareOfAnotherIndex() {
        if (sparesByIndex == null) {
            return null;
        }
        for (ArrayDeque<WorkerThread> q : sparesByIndex) {
            WorkerThread oldest = q == null ? null : q.peekLast(); // the one nearest its keep-alive
            if (oldest != null) {
                return oldest;
            }
        }
        return null;
    }

    /** B4: {@code spare} retires to make room under the cap: it stops counting now and ends once unparked. */
    private void evict(WorkerThread spare) {
        retire(spare);
        spare.evicted = true;
        counted--;
        LockSupport.unpark(spare);
    }

    /**
     * B6: detached thread {@code t} unwound its stack and drained its deque: it leaves the detached table and waits
     * as a spare for its index, or ends if the pool terminates (or if queueing it runs out of memory).
     */
    synchronized void finishedDetached(WorkerThread t) {
        detachedTable.leave(t);
        if (!terminated) {
            try {
                spares(t.index()).addFirst(t);
                t.spareState = WAITING;
                t.spareSince = System.nanoTime();
                return;
            } catch (Throwable outOfMemory) {
                // it ends instead
            }
        }
        retire(t);
    }

    /**
     * Under the monitor: {@code t} (a spare, or a detached thread done) will end. It leaves the spares, and its
     * figures move to the index's retired ones now: it runs no job from here, and the statistics must not lose them
     * between now and its exit.
     */
    private void retire(WorkerThread t) {
        if (t.spareState == RETIRING) {
            return;
        }
        t.spareState = RETIRING;
        if (sparesByIndex != null && sparesByIndex[t.index()] != null) {
            sparesByIndex[t.index()].remove(t);
        }
        try {
            if (retired == null) {
                retired = new long[3 * registry.threadCount()];
            }
            int k = 3 * t.index();
            retired[k] += t.jobsExecuted();
            retired[k + 1] += t.steals();
            retired[k + 2] += t.promotions();
        } catch (Throwable outOfMemory) {
            // its figures go uncounted; it ends all the same
        }
    }

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
                        spare.spareState = WAITING; // not a spare now; WAITING again if it is queued as one later
                        spare.detached = false;     // B4: only the thread itself writes its flag
                        return true;
                    }
                    left = keepAliveNanos - (System.nanoTime() - spare.spareSince);
                    if (terminated || spare.spareState == RETIRING || left <= 0) {
                        retire(spare);
                        return false;
                    }
                }
                LockSupport.parkNanos(this, left); // a hander's or termination's unpark ends it early
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

    /** A thread beyond the workers ended: a spare that retired, or one that found the pool terminated. */
    synchronized void spareExited(WorkerThread t) {
        detachedTable.leave(t); // in case its loop ended detached (it cannot, but the table must never keep it)
        retire(t);              // if its way out skipped it
        if (terminated) {
            try {
                endedAfterTermination.add(t);
            } catch (Throwable outOfMemory) {
                // awaitTermination then does not wait for this thread's last steps
            }
        }
        alive--;
        if (!t.evicted) {
            counted--;
        }
        notifyAll(); // awaitNoneLeft
    }

    // --- termination (B7) -------------------------------------------------------------------------------------------

    /**
     * B7: termination is decided. From here no hand-off happens, so the holders returned are each index's last, for
     * the caller to set their terminate latches; spares are woken to end.
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
        if (alive != 0) {
            return false;
        }
        for (Thread t : endedAfterTermination) {
            if (t.isAlive()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Waits up to {@code nanos} for every thread beyond the workers to end: to leave its loop, and then, for those
     * that ended once termination began, to die (as awaitTermination joins the workers).
     */
    boolean awaitNoneLeft(long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + Math.max(nanos, 0);
        Thread[] ended;
        synchronized (this) {
            while (alive > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            ended = endedAfterTermination.toArray(new Thread[0]);
        }
        for (Thread t : ended) {
            TimeUnit.NANOSECONDS.timedJoin(t, Math.max(deadline - System.nanoTime(), 1));
            if (t.isAlive()) {
                return false;
            }
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
        return alive;
    }

    /**
     * Index {@code i}'s figures over every thread that held it: its holder (read here, under the monitor its
     * replacement takes, so that a hand-off cannot drop a thread from both sides of the read), detached threads,
     * spares, and those that ended. Jobs, steals, promotions, then jobs queued (the holder's deque, broadcast queue
     * and slots; a detached thread's deque and slots).
     */
    synchronized long[] figuresOf(int i) {
        WorkerThread holder = registry.workers()[i];
        long[] sums = new long[4];
        add(sums, holder);
        sums[3] = holder.queuedEstimate();
        if (retired != null) {
            sums[0] += retired[3 * i];
            sums[1] += retired[3 * i + 1];
            sums[2] += retired[3 * i + 2];
        }
        for (Thread t : detachedTable.snapshot()) {
            WorkerThread d = (WorkerThread) t;
            if (d != null && d.index() == i) {
                add(sums, d);
                sums[3] += d.ownQueuedEstimate();
            }
        }
        if (sparesByIndex != null && sparesByIndex[i] != null) {
            for (WorkerThread s : sparesByIndex[i]) {
                add(sums, s);
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
