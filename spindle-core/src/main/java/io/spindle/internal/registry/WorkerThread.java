package io.spindle.internal.registry;

import io.spindle.internal.deque.ChaseLevDeque;
import io.spindle.internal.event.PoolEvents;
import io.spindle.internal.io.IoPoller;
import io.spindle.internal.job.Failures;
import io.spindle.internal.job.Job;
import io.spindle.internal.latch.CoreLatch;
import io.spindle.internal.latch.WorkerLatch;
import io.spindle.internal.lazy.LazyWorker;
import io.spindle.internal.sleep.IdleState;
import io.spindle.internal.sleep.SleepProtocol;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A worker of a pool: its deque, its private broadcast queue, and the wait loop that runs jobs until a latch is set
 * (rayon's {@code WorkerThread::wait_until}). The loop's shape is fixed by
 * {@link io.spindle.internal.sleep.SleepProtocol}; every sleep strategy plugs in behind it.
 */
public final class WorkerThread extends Thread implements IdleState.WorkView {
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
        // Link the failure paths' pause now: its call sites' first execution resolves them, which with the stack
        // exhausted would itself throw (see Failures.pauseAfterRuntimeFailure).
        Failures.pauseAfterRuntimeFailure(0);
    }

    private final Registry registry;
    private final int index;
    private final ChaseLevDeque<Job> deque = new ChaseLevDeque<>();
    private final ConcurrentLinkedQueue<Job> broadcasts; // the index's, shared by every thread that holds it (B2)
    private final SleepProtocol sleep;
    private final IdleState idle;
    private final WorkerLatch terminateLatch;
    private final LazyWorker lazy;   // null with JoinStrategy.EAGER
    private final IoPoller poller;   // this worker's IO (docs/DESIGN.md §6); also its sleep protocol's Blocker (IO5)
    private long rng;                // victim selection, owner only
    private long jobsExecuted;       // owner writes (opaque), stats() reads
    private long steals;             // likewise
    private long stealsAtBatchStart; // owner only: steals when the current StealBatch began (JFR)
    private long batchVictims;       // owner only: bit (index % 64) per victim of the current StealBatch (JFR)
    private int runningDepth;        // jobs on this worker's stack; owner writes (opaque), shutdownNow reads
    /**
     * B1: this thread handed its index to a stand-in ({@code io.spindle.internal.blocking}) and finishes its stack
     * outside the sleep protocol, or it is a spare waiting for an index (B4). Plain: only this thread reads and writes
     * it (a spare clears it itself, under StandIns' monitor, when it finds itself assigned).
     */
    boolean detached;
    /** B4: a spare's state (StandIns' WAITING, ASSIGNED, RETIRING) and since when it waits; guarded by StandIns. */
    int spareState;
    long spareSince;
    /** B4: retired by StandIns to make room under the cap (no longer counted against it); guarded by StandIns. */
    boolean evicted;
    /** B5: inside the start or exit hook, where a blocking call does not hand off. Owner only, plain. */
    private boolean inHook;

    /**
     * @param standIn a thread that starts as a spare for {@code index} ({@link StandIns}): it binds the index's poller
     *                only when it is handed the index, not here
     */
    WorkerThread(Registry registry, int index, String name, long stackSize, boolean standIn) {
        super(null, null, name, stackSize, false); // false: do not inherit the creator's inheritable thread-locals
        this.registry = registry;
        this.index = index;
        this.broadcasts = registry.broadcastQueue(index);
        this.detached = standIn; // a spare is outside the protocol until it is handed the index (B4)
        this.sleep = registry.sleep();
        this.idle = new IdleState(index, this, sleep.maxRoundsUntilSleepy()); // A1 starts at the protocol's count
        this.terminateLatch = new WorkerLatch(registry, index);
        this.lazy = registry.config().joinStrategy() == io.spindle.JoinStrategy.LAZY
                ? new LazyWorker(this, sleep, registry.config().heartbeatNanos()) : null;
        this.rng = 0x9E3779B97F4A7C15L * (index + 1); // distinct non-zero seeds
        this.poller = registry.io().poller(index);
        if (!standIn) {
            poller.bindOwner(this);
        }
    }

    /** @return the calling thread as a worker of any Spindle pool, or null */
    public static WorkerThread current() {
        Thread t = Thread.currentThread();
        return t instanceof WorkerThread ? (WorkerThread) t : null;
    }

    /**
     * For IO, which works through the caller's own poller: a thread that handed its index to a stand-in (B1) holds
     * no poller any more, and does IO as any thread outside the pool does.
     *
     * @return the calling thread if it is a worker of {@code registry}'s pool holding its index, else null
     */
    public static WorkerThread currentOf(Registry registry) {
        Thread t = Thread.currentThread();
        return t instanceof WorkerThread && ((WorkerThread) t).registry == registry && !((WorkerThread) t).detached
                ? (WorkerThread) t : null;
    }

    /** B1: whether this thread handed its index to a stand-in and finishes its stack outside the protocol. */
    public boolean isDetached() {
        return detached; // plain: see the field
    }

    /**
     * B5: a blocking call that blocks where it is (no hand-off) tells the protocol, fenced, of what this thread left
     * stealable: its pushes and promotions were announced without a fence ("Internal pushes"), so a worker that
     * registered to sleep at the same instant may have missed them, and nothing else would look while this thread
     * blocks. A full fence, then the protocol, as LZ6 announces a promotion (its jcstress test,
     * {@code JecPromotionVsSleepTest}, drives that very pair). A failure costs only parallelism: it is not thrown.
     */
    public void announceStealableWork() {
        try {
            if (hasStealableWork()) {
                VarHandle.fullFence();
                sleep.newInternalJobs(index, 1, false); // "work nobody took": every protocol wakes a sleeper for it
            }
        } catch (Throwable notAnnounced) {
            // out of memory or stack in the protocol's step, which rolled itself back: the blocked call's halves
            // wait for the next search that passes by, as an unfenced push's do
        }
    }

    /** B5: whether a blocking call on this thread may hand its index to a stand-in. Owner only. */
    public boolean mayHandOff() {
        return !detached && !inHook;
    }

    /** This index's IO poller, for the hand-off that binds it to the stand-in (B3). */
    IoPoller poller() {
        return poller;
    }

    public int index() {
        return index;
    }

    public Registry registry() {
        return registry;
    }

    /** @return this worker's lazy-join state, or null if the pool's joins are eager */
    public LazyWorker lazy() {
        return lazy;
    }

    @Override
    public void run() {
        runHook(true);
        boolean heldIndexAtExit = false;
        try {
            // A spare waits for an index first (B4); a worker, or a spare handed one, runs until termination or until
            // it hands its index to a stand-in, finishes its stack, and waits as a spare for the index again.
            while (!detached || registry.standIns().awaitAssignment(this)) {
                runUntilTerminated();
                if (!detached) {
                    heldIndexAtExit = true; // terminated holding the index
                    break;
                }
                registry.standIns().finishedDetached(this); // B6: stack unwound, own deque drained
            }
        } finally {
            endStealBatchIfAny(); // leaving through the latch skips the idle loop's last failed search
            runHook(false);
            if (heldIndexAtExit) {
                registry.workerExited();
            } else {
                registry.standIns().spareExited(this);
            }
        }
    }

    /**
     * Runs the start or exit hook as a running job: a hook is user code on this worker's stack, so a job it waits for
     * in a join is nested and must not start a new budget of direct IO completions under the hook's own turns (IO12:
     * a read loop in a start hook whose stages joined a pool job ran 2,000 frames deep), and the worker is busy (IO7).
     */
    private void runHook(boolean start) {
        RUNNING_DEPTH.setOpaque(this, runningDepth + 1); // opaque: single writer; shutdownNow and the watchdog read it
        inHook = true;
        try {
            if (start) {
                registry.runStartHook(this);
            } else {
                registry.runExitHook(this);
            }
        } finally {
            inHook = false;
            RUNNING_DEPTH.setOpaque(this, runningDepth - 1);
        }
    }

    /**
     * The worker's top-level wait. Jobs never throw (execute catches), and the wait loop keeps going through a failure
     * of the runtime's own steps (see {@link #waitUntil}); what remains to catch here is a failure of the hooks' and
     * loop's own bookkeeping, which is reported, not allowed to end the worker: a worker that died silently would
     * strand the jobs of every later broadcast and its share of the rest.
     */
    private void runUntilTerminated() {
        while (true) {
            try {
                waitUntil(terminateLatch);
                return;
            } catch (Throwable runtimeFailure) {
                reportRuntimeFailure(runtimeFailure); // E5: report, never let the worker die
                // a failure that repeats must not spin a core
                Failures.pauseAfterRuntimeFailure(Failures.RUNTIME_FAILURE_BACKOFF_NANOS);
            }
        }
    }

    private void reportRuntimeFailure(Throwable failure) {
        try {
            Thread.UncaughtExceptionHandler h = Thread.getDefaultUncaughtExceptionHandler();
            Throwable report = new IllegalStateException("Spindle worker " + getName()
                    + ": the runtime's work loop failed; the worker rolled back and carries on", failure);
            if (h != null) {
                h.uncaughtException(this, report);
            } else {
                report.printStackTrace();
            }
        } catch (Throwable ignored) {
            // Out of memory again, or a throwing handler: nothing is left to report with; carrying on matters more.
        }
    }

    // --- pushing ----------------------------------------------------------------------------------------------------

    /**
     * Makes {@code job} available to thieves (and to this worker's later pops). E1: either the job is pushed for good
     * and this returns, or it throws and the job is not in the deque: a caller that reserved something for the job (a
     * count) rolls it back on a throw, and one that waits for the job (a join) waits only after a normal return.
     */
    public void push(Job job) {
        boolean queueWasEmpty = deque.push(job); // throws only before the job is visible (the deque grows first)
        try {
            // B3: a detached thread tells the protocol too (the index is only a hint's code there): its deque is in
            // every search, and the rest of its task should spread as a worker's does
            sleep.newInternalJobs(index, 1, queueWasEmpty); // Option A input: a non-empty deque means nobody steals
        } catch (VirtualMachineError exhaustion) {
            // E1: the job is in the deque for good. The protocol's step rolled itself back, so at worst nobody was
            // woken for the job, which is what an internal push is promised anyway ("Internal pushes" in the sleep
            // package-info): this worker runs it when it returns to its loop, or a join takes it back. Taking the job
            // back here instead would need more calls at a depth that may have none left (a stack overflow). Nothing
            // at all runs here, not even an instanceof: resolving its class threw a second StackOverflowError in CI.
        } catch (Throwable bug) {
            try {
                reportRuntimeFailure(bug); // a bug in the protocol, not exhaustion: keep it visible; the push stands
            } catch (Throwable reportOverflowed) {
                // E1: the report's own entry can overflow at a stack's edge (its body catches everything else). The
                // job is in the deque for good, so this push must return: a throw would tell the caller that it is
                // not, and a caller that then runs or injects it elsewhere (IO6's hand-out) would run it twice.
            }
        }
    }

    /** Pops this worker's newest job, or takes a broadcast copy queued for it. */
    public Job takeLocalJob() {
        Job job = deque.pop();
        return job != null || detached ? job : broadcasts.poll(); // B2: the index's broadcasts go with the index
    }

    void enqueueBroadcast(Job job) {
        broadcasts.add(job);
    }

    // --- the wait loop ----------------------------------------------------------------------------------------------

    /**
     * Runs jobs until {@code latch} is set, sleeping by the pool's protocol when there are none. E3: returns, or
     * throws, only once the latch is set: whoever waits here (a join for its stolen half, a scope for its tasks) must
     * not go on while the work it waits for still runs. If a step of the runtime itself throws meanwhile (an Error in
     * the sleep path: out of memory inside a lock, a stack overflow), the step has rolled itself back; the loop keeps
     * waiting, and the first such failure is thrown once the latch is set (at the top level, where the latch is the
     * pool's termination, it is reported at once instead).
     */
    public void waitUntil(CoreLatch latch) {
        if (!latch.probe()) {
            waitUntilCold(latch);
        }
    }

    private void waitUntilCold(CoreLatch latch) {
        Throwable runtimeFailure = null;
        Throwable unhandled = null; // the last failure, reported and paused for inside the try: a catch makes no call
        while (!latch.probe()) {
            try {
                if (unhandled != null) {
                    Throwable failure = unhandled;
                    unhandled = null;
                    runtimeFailed(latch, failure);
                }
                if (registry.owedLatchWakes.any) {
                    deliverOwedLatchWakesHere(); // E4 at the stack's edge: shallower than the idle search below
                }
                if (!(detached ? waitStepDetached(latch) : waitStep(latch))) {
                    break; // the latch was set (or, detached at the top level, the stack is unwound: B6)
                }
            } catch (Throwable failure) {
                // E3: a step threw (an Error in the sleep path or in a job's catch block, a stack overflow in a pop);
                // each step rolled itself back. Keep waiting; the first failure is thrown once the latch is set.
                if (runtimeFailure == null) {
                    runtimeFailure = failure;
                }
                unhandled = failure;
            }
        }
        if (registry.owedLatchWakes.any) {
            deliverOwedLatchWakesHere(); // E4: the job that set this latch may have owed its wake-up; no round follows
        }
        if (runtimeFailure != null && latch != terminateLatch) {
            throw Failures.<RuntimeException>sneakyThrow(runtimeFailure);
        }
    }

    /**
     * E4 at the stack's edge: delivers owed latch wake-ups from the wait loop's own frame, three frames above a job
     * whose wake-up overflowed (the idle search is deeper than that wake-up was). Exhaustion leaves them owed: the
     * round still runs its jobs, and its idle search tries again before it may sleep; anything else is a bug and is
     * thrown (E4).
     */
    private void deliverOwedLatchWakesHere() {
        try {
            registry.deliverOwedLatchWakes();
        } catch (VirtualMachineError stillOwed) {
            // owed again (OwedLatchWakes set it back); nothing here may call
        }
    }

    /** One round of the wait: a local job, or an idle search. @return false once the latch is set */
    private boolean waitStep(CoreLatch latch) {
        // Local work first, before touching any shared sleep state.
        Job job = takeLocalJob();
        if (job == null) {
            job = searchWhileIdle(latch);
            if (job == null) {
                return false; // the latch was set
            }
        }
        execute(job); // the job may push local work: the next round looks there first
        return true;
    }

    /**
     * B3: one round of a wait on a thread that handed its index to a stand-in: it runs what its own deque and
     * promotion slots still hold (the jobs its own frames left there, which thieves may also take), and with nothing
     * left parks on the latch until it is set. It steals nothing and takes no part in the sleep protocol: the index
     * it would sleep under belongs to the stand-in. Whoever sets a latch this thread sleeps on wakes the latch's
     * index through {@link Registry#wakeLatchOwner}, which also unparks every detached thread of that index (B3). At
     * the top level (the terminate latch, which only the index's current holder waits for) it returns false as soon
     * as its own deque is empty: the stack is unwound, and the thread leaves the loop (B6).
     *
     * @return false once the latch is set, or at the top level once nothing of its own is left
     */
    private boolean waitStepDetached(CoreLatch latch) {
        Job job = deque.pop();
        if (job == null && lazy != null) {
            job = lazy.slots().steal(); // our own promoted frame nobody took (LZ7)
        }
        if (job != null) {
            execute(job);
            return true;
        }
        if (latch == terminateLatch) {
            return false;
        }
        // L1 with a thread for the waker: UNSET -> SLEEPY -> SLEEPING by CAS, then park until SET. A setter that swaps
        // SET over SLEEPING calls wakeLatchOwner(index), which unparks us: we joined StandIns' detached table before
        // this CAS, and the setter's swap reads our CAS's value, so it sees the table entry (B3). A permit taken early
        // makes the park return at once. First back to UNSET, as the protocols' sleeps start: a wake-up step that
        // threw in an earlier round (E3) may have left the latch SLEEPY, and getSleepy would then fail every round.
        latch.wakeUp();
        if (latch.getSleepy()) {
            boolean interrupted = false;
            try {
                if (latch.fallAsleep()) {
                    while (!latch.probe()) {
                        LockSupport.park(latch);
                        if (Thread.interrupted()) {
                            interrupted = true; // the wait is not interruptible, as a join's is not; kept for later
                        }
                    }
                }
            } finally {
                latch.wakeUp();
                if (interrupted) {
                    interrupt();
                }
            }
        }
        return !latch.probe();
    }

    /**
     * A step of the idle loop threw. The top level reports it at once (a nested wait throws it once its latch is
     * set), and the loop backs off a little: a failure that repeats (memory stays exhausted) must not spin a core.
     */
    private void runtimeFailed(CoreLatch latch, Throwable failure) {
        if (latch == terminateLatch) {
            reportRuntimeFailure(failure); // E5
        }
        Failures.pauseAfterRuntimeFailure(Failures.RUNTIME_FAILURE_BACKOFF_NANOS);
    }

    /**
     * The idle state: full searches until a job turns up or the latch is set, with the protocol's yields and sleeps in
     * between. {@code leaveIdle} is paired with {@code startLooking} even when a step throws (an Error in the sleep
     * path), so that the protocol's counters return to rest and a wake-up or hint this worker took is handed on.
     *
     * @return the job found, or null if the latch was set
     */
    private Job searchWhileIdle(CoreLatch latch) {
        sleep.startLooking(idle);
        Job job = null;
        try {
            while (job == null && !latch.probe()) {
                job = findWork(); // takes a job only as its last step: a throw leaves job null
                if (job == null) {
                    endStealBatchIfAny(); // the run of finds, and of steals, ended
                    if (registry.owedLatchWakes.any) {
                        // E4 at the stack's edge: no worker sleeps while a latch's owner may sleep on unwoken. A
                        // delivery that overflows again throws: this wait backs off and comes back (E3).
                        registry.deliverOwedLatchWakes();
                    } else {
                        sleep.noWorkFound(idle, latch);
                    }
                }
            }
        } catch (Throwable failure) {
            leaveIdleAfterFailure(failure);
            throw failure;
        }
        try {
            sleep.leaveIdle(idle, job != null); // A4: a latch exit hands on what this worker may have been counted for
        } catch (Throwable failure) {
            if (job != null) {
                execute(job); // never drop a job we took; the protocol's failure is reported after it ran
            }
            throw failure;
        }
        if (job != null) {
            endStealBatchIfFull();
        }
        return job;
    }

    private void leaveIdleAfterFailure(Throwable failure) {
        try {
            sleep.leaveIdle(idle, false);
        } catch (Throwable second) {
            try {
                failure.addSuppressed(second);
            } catch (Throwable third) {
                // out of memory recording it: the first failure is the one to report
            }
        }
    }

    /**
     * The idle loop's full search: own deque and broadcast queue, the hinted place, the other deques from a random
     * victim, the injector. Records where the job came from; the protocol asks whether more stayed there only if it
     * needs to (JEC's cascade, when sleepers exist: A2).
     */
    private Job findWork() {
        Job job = poller.processReady(this); // IO1: what our own IO finished comes first (cheap when nothing)
        if (job != null) {
            idle.foundWork(IdleState.FOUND_OWN_IO);
            return job;
        }
        job = takeLocalJob();
        if (job == null && lazy != null) {
            job = lazy.slots().steal(); // our own promoted frame: nobody took it, and we have nothing else (LZ7)
        }
        if (job != null) {
            idle.foundWork(index);
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
            idle.foundWork(IdleState.FOUND_IN_INJECTOR);
        }
        return job;
    }

    private Job stealFrom(WorkerThread victim) {
        Job job = victim.deque.steal();
        if (job == null && victim.lazy != null) {
            job = victim.lazy.slots().steal(); // its oldest promoted frame (LZ4)
        }
        if (job != null) {
            STEALS.setOpaque(this, steals + 1); // opaque: single writer, read only for statistics
            batchVictims |= 1L << victim.index; // plain, owner only: the shift takes the index modulo 64
            idle.foundWork(victim.index);
        }
        return job;
    }

    private Job stealFromOthers() {
        WorkerThread[] all = registry.workers();
        int n = all.length;
        if (n == 1) {
            return stealFromDetached(); // B3: a stand-in's only victims are the threads it stands in for
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
        return stealFromDetached();
    }

    /** B3: what detached threads left stealable (their own frames' halves, while they block or finish). */
    private Job stealFromDetached() {
        for (Thread t : registry.standIns().detached()) { // volatile read; an empty table when none
            if (t != null && t != this) {
                Job job = stealFrom((WorkerThread) t);
                if (job != null) {
                    return job;
                }
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

    // --- what this worker shows its sleep protocol (IdleState.WorkView) ---------------------------------------------

    /**
     * The final check before blocking (J5): is there injected work, a broadcast copy for this worker, or (lazy joins,
     * LZ6) a promoted join half in any worker's slots?
     */
    @Override
    public boolean hasInjectedOrPrivateWork() {
        return registry.hasInjectedJobs() || !broadcasts.isEmpty() || anyPromotedFrame();
    }

    /**
     * LZ6: any worker's promoted frame. Part of the final check: a promoter publishes, fences and reads the sleep
     * counters, so a sleeper that registered and fenced before this check either sees the frame here or is seen.
     */
    private boolean anyPromotedFrame() {
        if (lazy == null) {
            return false;
        }
        for (WorkerThread w : registry.workers()) {
            if (!w.lazy.slots().isEmpty()) {
                return true;
            }
        }
        for (Thread d : registry.standIns().detached()) { // B3
            if (d != null && !((WorkerThread) d).lazy.slots().isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** A2: more work where the last job came from: this worker's queues, a victim's deque, or the injector. */
    @Override
    public boolean moreWorkAt(int source) {
        if (source == IdleState.FOUND_IN_INJECTOR) {
            return registry.hasInjectedJobs();
        }
        if (source == index || source == IdleState.FOUND_OWN_IO) { // IO completions beyond the first go to our deque
            return !deque.isEmpty() || !broadcasts.isEmpty() || (lazy != null && !lazy.slots().isEmpty());
        }
        return registry.workers()[source].hasStealableWork();
    }

    /** A4: any work a sleeper could find: the injector, this worker's private queue, any deque (ours included). */
    @Override
    public boolean anyWorkVisible() {
        if (hasInjectedOrPrivateWork()) {
            return true;
        }
        for (WorkerThread w : registry.workers()) {
            if (w.hasStealableWork()) {
                return true;
            }
        }
        for (Thread d : registry.standIns().detached()) { // B3
            if (d != null && ((WorkerThread) d).hasStealableWork()) {
                return true;
            }
        }
        return false;
    }

    /** Jobs a thief could take from this worker: its deque, or a promoted frame (LZ4). */
    private boolean hasStealableWork() {
        return !deque.isEmpty() || (lazy != null && !lazy.slots().isEmpty());
    }

    /**
     * Runs one job on this worker. Jobs do not throw; the interrupt status is cleared after each
     * (docs/DESIGN.md §1.11).
     */
    public void execute(Job job) {
        JOBS_EXECUTED.setOpaque(this, jobsExecuted + 1); // opaque: single writer, statistics only
        int depth = runningDepth; // plain: the owner reads its own writes
        boolean holdsIndex = !detached; // B3: a detached thread's poller is the stand-in's
        if (depth == 0 && holdsIndex) {
            poller.topLevelJobStarting(); // IO12: a new budget of direct IO completions, only at the top level
        }
        RUNNING_DEPTH.setOpaque(this, depth + 1);
        int frameDepth = lazy != null ? lazy.jobStarting() : 0; // LZ8: the job's first join checks for a beat at once
        try {
            if (holdsIndex) {
                poller.jobStarting(); // IO7: a worker that holds IO and starts a job wakes the watchdog if it parked
            }
            job.execute();
        } catch (Throwable unexpected) {
            registry.jobEscaped(unexpected); // a bug in a job class: report it, keep the worker alive
        } finally {
            if (lazy != null) {
                lazy.jobEnded(frameDepth); // LZ9: the job's frames are gone, whatever its joins left
            }
            RUNNING_DEPTH.setOpaque(this, runningDepth - 1);
            Thread.interrupted(); // a task may leave the flag set (e.g. Future.cancel(true)); it must not leak
        }
        if (!detached) { // B3: the job may have handed this thread's index away
            pollIoIfDue();
        }
    }

    /**
     * Every {@link IoPoller#JOBS_PER_BUSY_POLL} jobs a busy worker looks beyond its own deque: it polls its selector
     * if it holds IO (IO7), and runs one job from the injector if any waits there. Without the second, a worker whose
     * deque never empties (a chain of spawns) would leave injected jobs to idle workers, and with none idle, for ever:
     * the IO completions the watchdog hands over go through the injector (IO1, IO7). Cats Effect checks its external
     * queue on the same kind of tick. A failure of the poll is reported; the idle loop's poll will meet it again.
     */
    private void pollIoIfDue() {
        if (!poller.busyTick()) {
            return;
        }
        try {
            poller.pollIfHoldingIo(this);
        } catch (RuntimeException failure) {
            reportRuntimeFailure(failure);
        }
        // Only between top-level jobs (no job on this worker's stack): inside a join's or scope's wait, an injected
        // job that waits in turn would nest the next one, one level per tick, without bound.
        // runningDepth plain: only the owner writes it, and this is the owner. Not a VarHandle read either (E6): this
        // branch first runs after JOBS_PER_BUSY_POLL jobs, maybe with the heap full, and its link would allocate.
        if (runningDepth == 0 && registry.hasInjectedJobs()) {
            Job injected = registry.pollInjected();
            if (injected != null) {
                execute(injected);
            }
        }
    }

    // --- statistics and diagnostics ---------------------------------------------------------------------------------

    long jobsExecuted() {
        return (long) JOBS_EXECUTED.getOpaque(this);
    }

    long steals() {
        return (long) STEALS.getOpaque(this);
    }

    long promotions() {
        return lazy != null ? lazy.promotions() : 0L;
    }

    /** As {@link #queuedEstimate} without the index's broadcast queue: a detached thread's own (statistics). */
    int ownQueuedEstimate() {
        return deque.sizeEstimate() + (lazy != null ? lazy.slots().sizeEstimate() : 0);
    }

    /** A racy snapshot of the jobs waiting in this worker's deque, broadcast queue and promotion slots (statistics). */
    int queuedEstimate() {
        return deque.sizeEstimate() + broadcasts.size() + (lazy != null ? lazy.slots().sizeEstimate() : 0);
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

    /** IO7: whether the worker runs a job (opaque: the watchdog's estimate; a stale answer is corrected next tick). */
    public boolean isBusy() {
        return isRunningJob();
    }

    void setTerminateLatch() {
        terminateLatch.set();
    }
}
