package io.spindle.internal.sleep;

import io.spindle.internal.event.PoolEvents;
import io.spindle.internal.event.WakeReason;
import io.spindle.internal.job.Failures;
import io.spindle.internal.latch.CoreLatch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntFunction;

/**
 * The SLEEPY_WORKER sleep protocol: rayon-core's legacy sleep module (docs/DESIGN.md §3). At
 * most one worker at a time is sleepy; any new work or latch set wakes every sleeping worker. The prose description,
 * with the invariants S1..S6 cited below, is in this package's {@code package-info.java}, "SLEEPY_WORKER".
 *
 * <pre>
 *   state word:  bits 63..1  (index + 1) of the one sleepy worker, 0 = none
 *                bit  0      some worker is asleep (blocked on {@link #tickled}, or holding {@link #lock} to block)
 * </pre>
 */
public final class SleepyWorkerSleep implements SleepProtocol {
    /**
     * Yielding rounds before a worker tries to become the sleepy one. Benchmarks may vary it with the system property
     * {@code spindle.sleepy.roundsUntilSleepy}.
     */
    public static final int ROUNDS_UNTIL_SLEEPY = Integer.getInteger("spindle.sleepy.roundsUntilSleepy", 32);
    /**
     * The round at which the sleepy worker tries to fall asleep (property {@code spindle.sleepy.roundsUntilAsleep},
     * default twice {@link #ROUNDS_UNTIL_SLEEPY}); at least one round after getting sleepy, so that the sleepy worker
     * searches at least once more (S3).
     */
    public static final int ROUNDS_UNTIL_ASLEEP = Math.max(ROUNDS_UNTIL_SLEEPY + 1,
            Integer.getInteger("spindle.sleepy.roundsUntilAsleep", 2 * ROUNDS_UNTIL_SLEEPY));
    /**
     * The fewest yielding rounds of the adaptive limit (A1 in package-info, as for JOBS_EVENT_COUNTER; property
     * {@code spindle.sleepy.minRoundsUntilSleepy}, default 0; equal to {@link #ROUNDS_UNTIL_SLEEPY} for the seed's
     * fixed counts). The rounds the sleepy worker searches before falling asleep scale with the limit, at least one.
     */
    public static final int MIN_ROUNDS_UNTIL_SLEEPY = Math.min(ROUNDS_UNTIL_SLEEPY,
            Math.max(0, Integer.getInteger("spindle.sleepy.minRoundsUntilSleepy", 0)));

    /** Everyone awake, nobody sleepy. */
    static final long AWAKE = 0L;
    /** Bit 0: some worker is asleep. */
    static final long SLEEPING = 1L;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(SleepyWorkerSleep.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // Padded: every push of every worker reads this word (tickle).
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    private volatile long state; // AWAKE
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;

    /** The pool's one lock: held to fall asleep (S4) and to wake the sleepers. */
    private final ReentrantLock lock = new ReentrantLock();
    /** Sleepers wait here; a tickle that clears the sleeping bit signals all of them. */
    private final Condition tickled = lock.newCondition();
    /** Guarded by {@link #lock}: moves once per tickle that woke sleepers; a sleeper waits until it moved (S4). */
    private int generation;
    /** Guarded by {@link #lock}, for the woken sleepers' WorkerWoken events: the last tickle that moved generation. */
    private WakeReason lastTickleReason;
    private Thread lastTickler;
    private final SleepCounts[] counts;
    private final PoolEvents events;
    /**
     * Each worker's blocker when the pool gives them (its IO poller, docs/DESIGN.md §6), else null: sleepers then wait
     * on {@link #tickled}. S7: with blockers, a sleeper marks itself in {@link #blockedOnBlocker} under the lock,
     * unlocks and blocks; a tickle moves the generation and unblocks every marked sleeper under the lock. An unblock
     * that comes between the unlock and the block is kept by the blocker (its contract), so this is the condition's
     * wait, spelled out; and a sleeper whose own IO became ready leaves by itself (the word may keep its sleeping bit:
     * the next tickle then wakes the others for nothing, which the legacy protocol allows).
     */
    private final Blocker[] blockers;
    /** Guarded by {@link #lock}: sleepers blocked on their blocker (S7). */
    private final boolean[] blockedOnBlocker;
    private int blockedOnBlockers; // guarded by lock: how many of blockedOnBlocker are set

    public SleepyWorkerSleep(int threads) {
        this(threads, PoolEvents.NONE);
    }

    public SleepyWorkerSleep(int threads, PoolEvents events) {
        this(threads, events, null);
    }

    /** @param blockers each worker's blocker (its IO poller, docs/DESIGN.md §6), or null to wait on one condition */
    public SleepyWorkerSleep(int threads, PoolEvents events, IntFunction<? extends Blocker> blockers) {
        this.events = events;
        SleepProtocols.checkThreads(threads);
        counts = SleepCounts.forWorkers(threads);
        this.blockers = blockers == null ? null : new Blocker[threads];
        this.blockedOnBlocker = new boolean[threads];
        for (int i = 0; blockers != null && i < threads; i++) {
            this.blockers[i] = blockers.apply(i);
        }
        restoreSleepingBit(); // links its call site now (see there); nobody else can see this object yet
        STATE.setVolatile(this, AWAKE);
    }

    /**
     * tickleCold's rollback (volatile RMW; a sleepy id set meanwhile is kept). Runs only after a failure, when memory
     * may be exhausted, and a VarHandle call site allocates when it is linked on its first execution: the constructor
     * runs it once on the fresh word (setting and clearing the bit) so that it is linked before it is needed.
     */
    private void restoreSleepingBit() {
        STATE.getAndBitwiseOr(this, SLEEPING);
    }

    // --- the state word ---------------------------------------------------------------------------------------------

    /** The word value naming {@code workerIndex} as the sleepy worker. */
    static long sleepyId(int workerIndex) {
        return (workerIndex + 1L) << 1;
    }

    static boolean anyoneSleeping(long word) {
        return (word & SLEEPING) != 0;
    }

    static boolean anyWorkerSleepy(long word) {
        return (word >>> 1) != 0;
    }

    static boolean workerIsSleepy(long word, int workerIndex) {
        return (word >>> 1) == workerIndex + 1L;
    }

    /** For tests and diagnostics. */
    long loadState() {
        return (long) STATE.getVolatile(this); // volatile: like every access to the word (S2)
    }

    @Override
    public int maxRoundsUntilSleepy() {
        return ROUNDS_UNTIL_SLEEPY;
    }

    // --- the sleeping side ------------------------------------------------------------------------------------------

    @Override
    public void startLooking(IdleState idle) {
        idle.reset(); // awake, with a yield counter of zero
    }

    @Override
    public void leaveIdle(IdleState idle, boolean foundWork) {
        // S6: a worker that may be the sleepy one stops being sleepy ("work_found" in the seed), else no other worker
        // could ever get sleepy and fall asleep. Only a worker that tried to get sleepy in this idle period can hold
        // the id (the flag is set before getSleepy's CAS, so a step that threw after it (E1 in the registry's
        // package-info) leaves the flag set too; a worker left sleepy would stop every worker, itself included, from
        // ever sleeping); the others leave touching no shared state. Cleared only once the role is given up: if that
        // throws, the next leaveIdle tries again. Leaving through the latch owes nothing more: every tickle wakes
        // every sleeper (S5), so no poster counted on this worker alone.
        if (idle.mayHoldSleepyRole) {
            stopBeingSleepyOwed(idle.workerIndex());
            idle.mayHoldSleepyRole = false;
        }
        if (foundWork && idle.foundBySearching()) {
            idle.adaptRoundsAfterFinding(ROUNDS_UNTIL_SLEEPY); // A1 (our own IO says nothing about spinning)
        }
        idle.reset();
    }

    @Override
    public void noWorkFound(IdleState idle, CoreLatch latch) {
        int rounds = idle.rounds;
        int untilSleepy = idle.roundsUntilSleepy(ROUNDS_UNTIL_SLEEPY); // adaptive (A1)
        if (rounds < untilSleepy) {
            Thread.yield();
            idle.rounds = rounds + 1;
        } else if (rounds == untilSleepy) {
            if (untilSleepy > 0) {
                Thread.yield(); // A1: at the floor (0) the sleepy round follows the failed search at once
            }
            idle.mayHoldSleepyRole = true; // S6: before the CAS, so leaveIdle gives the role up whatever happens next
            if (getSleepy(idle.workerIndex())) {
                idle.rounds = rounds + 1; // S3: search at least once more before falling asleep
            } else if (untilSleepy == 0) {
                Thread.yield(); // another worker is sleepy: keep trying (yielding) until it is not, or we find work
            }
        } else if (rounds < roundsUntilAsleep(untilSleepy)) {
            Thread.yield();
            if (stillSleepy(idle.workerIndex())) {
                idle.rounds = rounds + 1;
            } else {
                idle.rounds = 0; // tickled while sleepy (scenario 2): awake again, start over
            }
        } else {
            sleep(idle, latch);
        }
    }

    /**
     * A1: the round at which the sleepy worker falls asleep, for a limit of {@code untilSleepy} yielding rounds: the
     * seed's gap (ROUNDS_UNTIL_ASLEEP - ROUNDS_UNTIL_SLEEPY) scaled with the limit, at least one round (S3).
     */
    static int roundsUntilAsleep(int untilSleepy) {
        if (untilSleepy >= ROUNDS_UNTIL_SLEEPY) {
            return ROUNDS_UNTIL_ASLEEP;
        }
        int gap = ROUNDS_UNTIL_ASLEEP - ROUNDS_UNTIL_SLEEPY; // ROUNDS_UNTIL_SLEEPY > untilSleepy >= 0 here
        return untilSleepy + Math.max(1, (int) ((long) gap * untilSleepy / ROUNDS_UNTIL_SLEEPY));
    }

    /** Tries to become the one sleepy worker (S1). */
    private boolean getSleepy(int workerIndex) {
        while (true) {
            // volatile: a stale "somebody is sleepy" only makes us try again next round; the CAS below decides.
            long word = (long) STATE.getVolatile(this);
            if (workerIsSleepy(word, workerIndex)) {
                // Still ours: a failed fall-asleep CAS left it (tickleCold's rollback ORs the asleep bit back into a
                // word that may name us already), so taking it again is taking what we hold.
                return true;
            }
            if (anyWorkerSleepy(word)) {
                return false; // somebody else is sleepy: wait our turn (S1)
            }
            // Scenario 1 (tickle-then-get-sleepy), S2: this CAS is sequentially consistent, like the tickle's load. If
            // a tickle's load came before it and saw no sleepy worker, then what the tickler did before tickling (push
            // a job, inject one) is visible to the searches we make after this CAS (S3). If the load comes after, it
            // sees our id: scenario 2.
            if (STATE.compareAndSet(this, word, word | sleepyId(workerIndex))) {
                return true;
            }
        }
    }

    private boolean stillSleepy(int workerIndex) {
        // volatile: scenario 2 (get-sleepy-then-get-tickled): a tickle after our CAS swapped the word to AWAKE, and a
        // sequentially consistent load sees that now, not eventually (S2).
        return workerIsSleepy((long) STATE.getVolatile(this), workerIndex);
    }

    /**
     * S6 on leaving the idle state, retried until done (E4 in the registry's package-info): the caller runs a job next,
     * and a sleepy id left behind for that job's length would keep every other idle worker from sleeping.
     */
    private void stopBeingSleepyOwed(int workerIndex) {
        // E4: exhaustion is retried until done, after a pause made inside the try: a catch block makes no call
        boolean retrying = false;
        while (true) {
            try {
                if (retrying) {
                    Failures.pauseAfterRuntimeFailure(Failures.RUNTIME_FAILURE_BACKOFF_NANOS);
                }
                stopBeingSleepy(workerIndex);
                return;
            } catch (VirtualMachineError exhaustion) { // only exhaustion is retried: a bug's exception is thrown
                retrying = true;
            }
        }
    }

    /** Gives up the sleepy role if we still hold it (S6). */
    private void stopBeingSleepy(int workerIndex) {
        long word = (long) STATE.getVolatile(this); // volatile: the CAS below needs the current word
        while (workerIsSleepy(word, workerIndex)) {
            // volatile CAS keeping the sleeping bit. While we are sleepy a tickle removes our id for good (S1); the
            // one other change, tickleCold's rollback setting the asleep bit after a failure, keeps it: try again.
            if (STATE.compareAndSet(this, word, word & SLEEPING)) {
                return;
            }
            word = (long) STATE.getVolatile(this); // volatile: the CAS lost; the word as it is now
        }
    }

    /**
     * S7, under the lock: blocks on this worker's blocker until a tickle moves the generation or its own IO is ready.
     * The lock is released while blocked and held again on return. Interrupts are cleared while waiting (a blocker
     * returns at once while interrupted) and restored after, as awaitUninterruptibly does.
     *
     * @return true if a tickle ended the wait, false if our own events did
     */
    private boolean blockUntilTickledOrOwnEvents(int me, int ourGeneration) {
        Blocker blocker = blockers[me];
        boolean interrupted = false;
        blockedOnBlocker[me] = true; // plain, under the lock: a tickle reads it under the lock
        blockedOnBlockers++;
        try {
            while (generation == ourGeneration) {
                lock.unlock();
                try {
                    blocker.block(); // an unblock since our mark is kept by the blocker (its contract)
                    interrupted |= Thread.interrupted();
                } finally {
                    lock.lock();
                }
                if (generation == ourGeneration && blocker.ownEventsReady()) {
                    try {
                        blocker.ownEventsEndedSleep(); // statistics: this sleep is no tickle's wake-up
                    } catch (VirtualMachineError statisticsOnly) {
                        // a count skipped: the outcome stands
                    }
                    return false;
                }
            }
            return true;
        } finally {
            blockedOnBlocker[me] = false;
            blockedOnBlockers--;
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Round roundsUntilAsleep: the sleepy worker falls asleep unless it was tickled or its latch was set. */
    private void sleep(IdleState idle, CoreLatch latch) {
        int me = idle.workerIndex();
        // E3, as JOBS_EVENT_COUNTER does: a sleep that threw after announcing on this wait's latch (the JFR report,
        // a stack overflow entering the lock) may have left it SLEEPY or SLEEPING, and every later getSleepy would then
        // fail: the worker would never block again (at A1's floor, a loop without a single yield). A volatile read
        // when there is nothing to repair.
        latch.wakeUp();
        Object sleepEvent = events.sleepBegin(me); // JFR (null unless recording): before the sequence, by its rule
        // L1: announce on the latch first; a set() from now on either fails our latch CASes or sees SLEEPING and calls
        // notifyWorkerLatchIsSet, which tickles.
        if (!latch.getSleepy()) {
            stopBeingSleepy(me); // S6: the latch is set, the caller's probe will see it and leave
            idle.wakeFully();
            return;
        }
        SleepCounts count = counts[me];
        WakeReason wokenFor = null;                // set only if we blocked
        Thread wokenBy = null;
        try {
            lock.lock();
            try {
                if (!latch.fallAsleep()) {
                    stopBeingSleepy(me); // S6: set between getSleepy and now
                    idle.wakeFully();
                    return;
                }
                long word = (long) STATE.getVolatile(this); // volatile: we CAS from exactly this value below
                if (!workerIsSleepy(word, me)) {
                    // Scenario 2 (get-sleepy-then-get-tickled): a tickle after we got sleepy cleared our id; it may
                    // have posted work our searches missed, so we do not sleep.
                    latch.wakeUp();
                    idle.wakeFully();
                    return;
                }
                int ourGeneration = generation;
                // Scenario 3 (fall-asleep-then-get-tickled), S4: the CAS removes us as the sleepy one and sets the
                // sleeping bit in one step, and it succeeds only if no tickle came since we got sleepy (S1: only a
                // tickle changes the word while we are sleepy). It is sequentially consistent (S2): a later tickle's
                // load sees the bit and takes the lock to signal, which it can only get once tickled.await below has
                // released it.
                if (STATE.compareAndSet(this, word, SLEEPING)) {
                    count.countSleep();
                    long sleepStart = System.nanoTime(); // A1: how long the sleep lasted decides the next limit
                    // S4: wait until a tickle moves the generation. A spurious return re-waits; an interrupt does not
                    // end the wait (awaitUninterruptibly keeps the interrupt status for the caller). A tickle that
                    // cleared the bit between our CAS and now cannot have signalled yet: it needs the lock we hold.
                    boolean endedByOwnIo = false;
                    if (blockers == null) {
                        do {
                            tickled.awaitUninterruptibly();
                        } while (generation == ourGeneration);
                    } else if (!blockUntilTickledOrOwnEvents(me, ourGeneration)) {
                        endedByOwnIo = true;
                        events.sleepEnded(sleepEvent, me, WakeReason.IO_READY, PoolEvents.NOT_A_WORKER);
                        sleepEvent = null; // reported: S7, our own IO ended the sleep
                    }
                    idle.adaptRoundsAfterSleep(MIN_ROUNDS_UNTIL_SLEEPY, ROUNDS_UNTIL_SLEEPY,
                            System.nanoTime() - sleepStart, endedByOwnIo);
                    if (generation != ourGeneration) {
                        count.countWakeup();
                        wokenFor = lastTickleReason; // plain reads under the lock: the tickle that woke us, or later
                        wokenBy = lastTickler;
                    }
                }
                // A failed CAS: a tickle cleared our id just now (scenario 2 again); search again instead of sleeping.
            } finally {
                if (lock.isHeldByCurrentThread()) { // an Error inside the wait may leave it released
                    lock.unlock();
                }
            }
        } catch (Throwable failure) {
            // An Error inside the lock or its wait: give up the sleepy role (S6) and the latch announcement (L1), so
            // that the next search can get sleepy again; the sleeping bit, if we set it, is cleared by the next tickle.
            stopBeingSleepy(me);
            latch.wakeUp();
            throw failure;
        }
        if (wokenFor != null) {
            events.sleepEnded(sleepEvent, me, wokenFor, wokenBy);
        }
        latch.wakeUp();
        idle.wakeFully();
    }

    // --- the posting side: tickle -----------------------------------------------------------------------------------

    /**
     * New work or a set latch: wakes the sleepy worker and every sleeping one (S5). The hot path, nobody sleepy or
     * asleep, is one load.
     */
    private void tickle(WakeReason why) {
        // volatile (SeqCst) load, S2: an acquire load would not do. If somebody got sleepy or fell asleep, we must see
        // it now (scenarios 2 and 3); if somebody gets sleepy after this load, its CAS is ordered after it and it sees
        // what we did before tickling (scenario 1).
        if ((long) STATE.getVolatile(this) != AWAKE) {
            tickleCold(why);
        }
    }

    private void tickleCold(WakeReason why) {
        // volatile swap: the word's own total order places every sleepy/asleep CAS before or after it; one after it
        // fails if it expected the id we remove (scenario 2), one before it is seen here (scenario 3).
        long old = (long) STATE.getAndSet(this, AWAKE);
        if (anyoneSleeping(old)) {
            // Scenario 3, S4: a sleeper holds the lock from its CAS until it waits, so we signal only waiting sleepers;
            // moving the generation under the lock tells each of them this is a real wake-up.
            try {
                lock.lock();
                try {
                    generation++;
                    lastTickleReason = why; // plain, under the lock: for the sleepers' WorkerWoken events (JFR)
                    lastTickler = Thread.currentThread();
                    tickled.signalAll();
                    unblockMarkedSleepers(); // S7
                } finally {
                    lock.unlock();
                }
            } catch (Throwable failure) {
                // The lock or the signal threw (out of memory for a wait node): sleepers may not have been woken, yet
                // we cleared their bit, so no later tickle would look. Put the bit back (volatile RMW; a sleepy id set
                // since is kept) and rethrow: the caller withdraws its job or retries (E1, E4 in the registry's
                // package-info), and the next tickle wakes them.
                restoreSleepingBit();
                throw failure;
            }
        }
    }

    /** S7, under the lock: the tickle's signal for sleepers that block on their blocker. */
    private void unblockMarkedSleepers() {
        if (blockers == null || blockedOnBlockers == 0) {
            return;
        }
        for (int i = 0; i < blockers.length; i++) {
            if (blockedOnBlocker[i]) {
                blockers[i].unblock();
            }
        }
    }

    @Override
    public void newInternalJobs(int pusherIndex, int numJobs, boolean queueWasEmpty) {
        // S5. The push published the job with a release store before this load; a sleepy worker that misses it in
        // one search finds it in the next (S3 gives it at least one more), and should
        // every searcher miss it, the pusher finds it when its job returns to the worker loop (package-info, "Internal
        // pushes").
        tickle(WakeReason.NEW_INTERNAL_JOB);
    }

    @Override
    public void newInjectedJobs(int numJobs, boolean queueWasEmpty) {
        // S5. The injector's append is a volatile CAS, so scenario 1's argument holds exactly (S2): no final check of
        // the injector before blocking is needed.
        tickle(WakeReason.NEW_INJECTED_JOB);
    }

    @Override
    public void newBroadcastJobs() {
        tickle(WakeReason.BROADCAST); // S5: wakes every sleeper, which is what a broadcast needs
    }

    @Override
    public void notifyWorkerLatchIsSet(int workerIndex) {
        // S5 and L1: the owner was SLEEPING on the latch, so it is sleepy (its id is in the word) or asleep (the bit
        // is set), or was woken already; tickling wakes it, and, as the seed says, everyone else too.
        tickle(WakeReason.LATCH_SET);
    }

    @Override
    public void terminate() {
        tickle(WakeReason.TERMINATE); // every terminate latch is set; wake whoever still sleeps
    }

    @Override
    public long sleeps(int workerIndex) {
        return counts[workerIndex].sleeps();
    }

    @Override
    public long wakeups(int workerIndex) {
        return counts[workerIndex].wakeups();
    }

    @Override
    public int idleWorkersEstimate() {
        // The word shows one sleepy worker and whether any sleep, not how many: any sleeper counts as all the others.
        long s = state;
        return s == 0L ? 0 : (s & 1L) != 0L ? counts.length - 1 : 1;
    }

    @Override
    public boolean isAtRest() {
        lock.lock(); // the condition's wait queue may only be read under its lock
        try {
            return loadState() == SLEEPING
                    && lock.getWaitQueueLength(tickled) + blockedOnBlockers == counts.length;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        long word = loadState();
        return "state=" + word + " (sleepy=" + ((word >>> 1) - 1) + ", anyoneSleeping=" + anyoneSleeping(word) + ")";
    }
}
