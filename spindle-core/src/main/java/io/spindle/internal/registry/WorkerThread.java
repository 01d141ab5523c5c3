package io.spindle.internal.registry;

import io.spindle.internal.deque.ChaseLevDeque;
import io.spindle.internal.event.PoolEvents;
import io.spindle.internal.job.Job;
import io.spindle.internal.latch.CoreLatch;
import io.spindle.internal.latch.WorkerLatch;
import io.spindle.internal.sleep.IdleState;
import io.spindle.internal.sleep.SleepProtocol;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A worker of a pool: its deque, its private broadcast queue, and the wait loop that runs jobs until a latch is set
 * (rayon's {@code WorkerThread::wait_until}). The loop's shape is fixed by
 * {@link io.spindle.internal.sleep.SleepProtocol}; every sleep strategy plugs in behind it.
 */
public final class WorkerThread extends Thread {
    private static final VarHandle JOBS_EXECUTED;
    private static final VarHandle STEALS;
    private static final VarHandle RUNNING_DEPTH;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            JOBS_EXECUTED = l.findVarHandle(WorkerThread.class, "jobsExecuted", long.class);
            STEALS = l.findVarHandle(WorkerThread.class, "steals", long.class);
            RUNNING_DEPTH = l.findVarHandle(WorkerThread.class, "runningDepth", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Registry registry;
    private final int index;
    private final ChaseLevDeque<Job> deque = new ChaseLevDeque<>();
    private final ConcurrentLinkedQueue<Job> broadcasts = new ConcurrentLinkedQueue<>();
    private final SleepProtocol sleep;
    private final IdleState idle;
    private final WorkerLatch terminateLatch;
    private long rng;                // victim selection, owner only
    private long jobsExecuted;       // owner writes (opaque), stats() reads
    private long steals;             // likewise
    private long stealsAtBatchStart; // owner only: steals when the current StealBatch began (JFR)
    private long batchVictims;       // owner only: bit (index % 64) per victim of the current StealBatch (JFR)
    private int runningDepth;        // jobs on this worker's stack; owner writes (opaque), shutdownNow reads

    WorkerThread(Registry registry, int index, String name, long stackSize) {
        super(null, null, name, stackSize, false); // false: do not inherit the creator's inheritable thread-locals
        this.registry = registry;
        this.index = index;
        this.sleep = registry.sleep();
        this.idle = new IdleState(index, this::hasInjectedOrPrivateWork);
        this.terminateLatch = new WorkerLatch(registry, index);
        this.rng = 0x9E3779B97F4A7C15L * (index + 1); // distinct non-zero seeds
    }

    /** @return the calling thread as a worker of any Spindle pool, or null */
    public static WorkerThread current() {
        Thread t = Thread.currentThread();
        return t instanceof WorkerThread ? (WorkerThread) t : null;
    }

    public int index() {
        return index;
    }

    public Registry registry() {
        return registry;
    }

    @Override
    public void run() {
        registry.runStartHook(this);
        try {
            waitUntil(terminateLatch);
        } finally {
            endStealBatchIfAny(); // leaving through the latch skips the idle loop's last failed search
            registry.runExitHook(this);
            registry.workerExited();
        }
    }

    // --- pushing ----------------------------------------------------------------------------------------------------

    /** Makes {@code job} available to thieves (and to this worker's later pops). */
    public void push(Job job) {
        boolean queueWasEmpty = deque.push(job); // Option A input: a non-empty deque means nobody is stealing
        sleep.newInternalJobs(index, 1, queueWasEmpty);
    }

    /** Pops this worker's newest job, or takes a broadcast copy queued for it. */
    public Job takeLocalJob() {
        Job job = deque.pop();
        return job != null ? job : broadcasts.poll();
    }

    void enqueueBroadcast(Job job) {
        broadcasts.add(job);
    }

    // --- the wait loop ----------------------------------------------------------------------------------------------

    /** Runs jobs until {@code latch} is set, sleeping by the pool's protocol when there are none. */
    public void waitUntil(CoreLatch latch) {
        if (!latch.probe()) {
            waitUntilCold(latch);
        }
    }

    private void waitUntilCold(CoreLatch latch) {
        outer:
        while (!latch.probe()) {
            // Local work first, before touching any shared sleep state.
            Job job = takeLocalJob();
            if (job != null) {
                execute(job);
                continue;
            }
            sleep.startLooking(idle);
            while (!latch.probe()) {
                job = findWork();
                if (job != null) {
                    sleep.workFound(idle);
                    endStealBatchIfFull();
                    execute(job);
                    continue outer; // the job may have pushed local work
                }
                endStealBatchIfAny(); // the run of finds, and of steals, ended
                sleep.noWorkFound(idle, latch);
            }
            // Leaving the idle state: whatever waited for the latch is "work found".
            sleep.workFound(idle);
            return;
        }
    }

    /**
     * The idle loop's full search: own deque and broadcast queue, the hinted place, the other deques from a random
     * victim, the injector. Also tells the sleep protocol whether more work stayed visible where the job came from
     * (the cascade wakes more workers only then).
     */
    private Job findWork() {
        Job job = takeLocalJob();
        if (job != null) {
            idle.foundWork(!deque.isEmpty() || !broadcasts.isEmpty());
            return job;
        }
        int hint = idle.takeHint(); // where a waker said the new work is (protocols with hints only)
        if (hint == IdleState.HINT_INJECTOR) {
            job = pollInjectedNoting();
        } else if (hint != IdleState.NO_HINT && hint != index) {
            job = stealFrom(registry.workers()[hint]);
        }
        if (job != null) {
            return job;
        }
        job = stealFromOthers();
        if (job != null) {
            return job;
        }
        return pollInjectedNoting();
    }

    private Job pollInjectedNoting() {
        Job job = registry.pollInjected();
        if (job != null) {
            idle.foundWork(registry.hasInjectedJobs());
        }
        return job;
    }

    private Job stealFrom(WorkerThread victim) {
        Job job = victim.deque.steal();
        if (job != null) {
            STEALS.setOpaque(this, steals + 1); // opaque: single writer, read only for statistics
            batchVictims |= 1L << victim.index; // plain, owner only: the shift takes the index modulo 64
            idle.foundWork(!victim.deque.isEmpty());
        }
        return job;
    }

    private Job stealFromOthers() {
        WorkerThread[] all = registry.workers();
        int n = all.length;
        if (n == 1) {
            return null;
        }
        int start = nextVictim(n);
        for (int k = 0; k < n; k++) {
            int i = start + k;
            if (i >= n) {
                i -= n;
            }
            if (i == index) {
                continue;
            }
            Job job = stealFrom(all[i]);
            if (job != null) {
                return job;
            }
        }
        return null;
    }

    private int nextVictim(int n) {
        long x = rng; // xorshift64
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        rng = x;
        return (int) ((x >>> 1) % n);
    }

    /** The final check before blocking (J5): is there injected work, or a broadcast copy for this worker? */
    private boolean hasInjectedOrPrivateWork() {
        return registry.hasInjectedJobs() || !broadcasts.isEmpty();
    }

    /** Runs one job on this worker. Jobs do not throw; the interrupt status is cleared after each (SPEC §1). */
    public void execute(Job job) {
        JOBS_EXECUTED.setOpaque(this, jobsExecuted + 1); // opaque: single writer, statistics only
        RUNNING_DEPTH.setOpaque(this, runningDepth + 1);
        try {
            job.execute();
        } catch (Throwable unexpected) {
            registry.jobEscaped(unexpected); // a bug in a job class: report it, keep the worker alive
        } finally {
            RUNNING_DEPTH.setOpaque(this, runningDepth - 1);
            Thread.interrupted(); // a task may leave the flag set (e.g. Future.cancel(true)); it must not leak
        }
    }

    // --- statistics and diagnostics ---------------------------------------------------------------------------------

    long jobsExecuted() {
        return (long) JOBS_EXECUTED.getOpaque(this);
    }

    long steals() {
        return (long) STEALS.getOpaque(this);
    }

    /** A racy snapshot of the jobs waiting in this worker's deque and broadcast queue, for statistics. */
    int queuedEstimate() {
        return deque.sizeEstimate() + broadcasts.size();
    }

    // --- steal batches (JFR): the steal itself only counts; the batch is summed up here, off the steal path ----------

    private void endStealBatchIfAny() {
        if (steals != stealsAtBatchStart) {
            endStealBatch(false);
        }
    }

    private void endStealBatchIfFull() {
        if (steals - stealsAtBatchStart >= PoolEvents.STEAL_BATCH_LIMIT) {
            endStealBatch(true);
        }
    }

    private void endStealBatch(boolean limitReached) {
        registry.events().stealBatch(index, steals - stealsAtBatchStart, batchVictims, limitReached);
        stealsAtBatchStart = steals;
        batchVictims = 0L;
    }

    boolean isRunningJob() {
        return (int) RUNNING_DEPTH.getOpaque(this) > 0;
    }

    void setTerminateLatch() {
        terminateLatch.set();
    }
}
