package io.spindle.internal.sleep;

import io.spindle.internal.event.PoolEvents;
import io.spindle.internal.event.WakeReason;
import io.spindle.internal.job.Failures;
import io.spindle.internal.latch.CoreLatch;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The HINT_PIPE sleep protocol: EMPER's pipe sleep strategy (docs/DESIGN.md §3). Sleeping
 * workers wait for a hint in a real OS pipe; a notifier decrements the sleepers count and writes one hint per worker it
 * wakes, saying where the new work is. The prose description, with the invariants H1..H8 cited below, is in this
 * package's {@code package-info.java}, "HINT_PIPE".
 *
 * <p>A hint is two bytes: the index of the worker whose deque got the job, or {@link #INJECTOR_CODE}.
 *
 * <p>Resources: one pipe and one selector per pool, released by {@link #close()} once every worker has exited (or
 * never started, in a failed build).
 */
public final class HintPipeSleep implements SleepProtocol {
    /**
     * Yielding rounds before a worker registers as a sleeper; it searches once more, then blocks (H4). Benchmarks
     * may vary it with the system property {@code spindle.hintPipe.roundsUntilSleepy}.
     */
    public static final int ROUNDS_UNTIL_SLEEPY = Integer.getInteger("spindle.hintPipe.roundsUntilSleepy", 32);
    /**
     * The fewest yielding rounds of the adaptive limit (A1 in package-info, as for JOBS_EVENT_COUNTER; property
     * {@code spindle.hintPipe.minRoundsUntilSleepy}, default 0; equal to {@link #ROUNDS_UNTIL_SLEEPY} for a fixed
     * count).
     */
    public static final int MIN_ROUNDS_UNTIL_SLEEPY = Math.min(ROUNDS_UNTIL_SLEEPY,
            Math.max(0, Integer.getInteger("spindle.hintPipe.minRoundsUntilSleepy", 0)));

    /** Bytes per hint in the pipe. */
    static final int HINT_BYTES = 2;
    /** The hint "the new work is in the injector" (worker indices are at most 0xFFFE). */
    static final int INJECTOR_CODE = 0xFFFF;
    /** No hint was read. */
    static final int NO_CODE = -1;
    /** No hint was read: the worker's own IO ended its sleep (H9). */
    static final int OWN_EVENTS_CODE = -2;
    /** {@link #watcher}: nobody watches the pipe. */
    static final int NO_WATCHER = -1;
    /**
     * Hints per write(): 512 bytes, the smallest PIPE_BUF POSIX allows, so one write to the non-blocking sink is
     * atomic (all or nothing) and never interleaves with another notifier's.
     */
    static final int HINTS_PER_WRITE = 256;

    private static final VarHandle SLEEPERS;
    private static final VarHandle WATCHER;
    private static final VarHandle HINTS_WRITTEN;
    private static final VarHandle HINTS_READ;
    private static final Consumer<SelectionKey> IGNORE_READY_KEY = key -> { };

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SLEEPERS = l.findVarHandle(HintPipeSleep.class, "sleepers", int.class);
            WATCHER = l.findVarHandle(HintPipeSleep.class, "watcher", int.class);
            HINTS_WRITTEN = l.findVarHandle(HintPipeSleep.class, "hintsWritten", long.class);
            HINTS_READ = l.findVarHandle(HintPipeSleep.class, "hintsRead", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static {
        // Link the failure paths' pause now: its call sites' first execution resolves them, which with the stack
        // exhausted would itself throw (see Failures.pauseAfterRuntimeFailure).
        Failures.pauseAfterRuntimeFailure(0);
    }

    // Padded: every push of every worker reads sleepers.
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    /** Registered sleepers not yet taken by a notifier; negative = credit left by notifyAnywhere (H1, H3). */
    private volatile int sleepers;
    /** The one blocked worker that selects on the pipe, or NO_WATCHER (H6). */
    private volatile int watcher = NO_WATCHER;
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;

    private final PipeSleeper[] workers;
    /**
     * Each worker's blocker when the pool gives them (its IO poller, docs/DESIGN.md §6), else null. H9: with blockers,
     * every worker blocks through its own, and the watcher watches the hint pipe inside that same wait (the pipe's
     * source is registered in its poller's selector too), so one wait returns on a hint, a wake request or its own IO.
     */
    private final Blocker[] blockers;
    private final Pipe.SourceChannel source;
    private final Pipe.SinkChannel sink;
    private final Selector selector;
    /** The watcher's buffer (H6: one reader at a time; the watcher hand-over orders its uses). */
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(HINT_BYTES);
    /** Serializes notifiers' writes, so that a partial write (non-POSIX pipes) never splits a hint. */
    private final ReentrantLock writeLock = new ReentrantLock();
    private final ByteBuffer writeBuffer = ByteBuffer.allocateDirect(HINTS_PER_WRITE * HINT_BYTES); // writeLock
    private long hintsWritten; // written under writeLock (opaque), read by tests
    private long hintsRead;    // written by the watcher (opaque), read by tests
    private boolean closed;    // guarded by writeLock
    private final PoolEvents events;

    public HintPipeSleep(int threads) {
        this(threads, PoolEvents.NONE);
    }

    public HintPipeSleep(int threads, PoolEvents events) {
        this(threads, events, null);
    }

    /** @param blockers each worker's blocker (its IO poller, docs/DESIGN.md §6), or null to park and select here */
    public HintPipeSleep(int threads, PoolEvents events, IntFunction<? extends Blocker> blockers) {
        this.events = events;
        this.blockers = blockers == null ? null : new Blocker[threads];
        for (int i = 0; blockers != null && i < threads; i++) {
            this.blockers[i] = blockers.apply(i);
        }
        SleepProtocols.checkThreads(threads);
        workers = new PipeSleeper[threads];
        for (int i = 0; i < threads; i++) {
            workers[i] = new PipeSleeper();
        }
        Pipe pipe = null;
        Selector sel = null;
        try {
            pipe = Pipe.open();
            // H7: both ends non-blocking. A blocking channel operation that is interrupted closes the channel
            // (ClosedByInterruptException); a non-blocking one never blocks and an interrupt cannot close it. The sink
            // being non-blocking also means a notifier can never block in write (H2).
            pipe.source().configureBlocking(false);
            pipe.sink().configureBlocking(false);
            sel = Selector.open();
            pipe.source().register(sel, SelectionKey.OP_READ);
        } catch (IOException e) {
            if (pipe != null) {
                closeQuietly(pipe.source());
                closeQuietly(pipe.sink());
            }
            closeQuietly(sel);
            throw new UncheckedIOException("cannot open the hint pipe", e);
        }
        source = pipe.source();
        sink = pipe.sink();
        selector = sel;
        giveBackSleepers(0); // links its call site now (see there)
    }

    @Override
    public int maxRoundsUntilSleepy() {
        return ROUNDS_UNTIL_SLEEPY;
    }

    // --- the sleeping side ------------------------------------------------------------------------------------------

    @Override
    public void startLooking(IdleState idle) {
        idle.reset();
    }

    @Override
    public void leaveIdle(IdleState idle, boolean foundWork) {
        int hint = idle.unusedHint();
        if (hint != IdleState.NO_HINT) {
            forwardHintOwed(hint); // H8: a hint we read but did not follow (latch set, or a local job came first)
        }
        PipeSleeper me = workers[idle.workerIndex()];
        if (me.readInFlight) { // owner-only field: the hot path touches no shared state
            retract(me);
        }
        if (foundWork && idle.foundBySearching()) {
            idle.adaptRoundsAfterFinding(ROUNDS_UNTIL_SLEEPY); // A1, after the debts above (our own IO: no reward)
        }
        idle.reset();
    }

    /**
     * H8's hand-on cannot be thrown to the caller, who could not redo it (we read the hint; nobody else will): a
     * notification that throws rolled itself back (writeHints), so retry until done (E4 in the registry's
     * package-info).
     */
    private void forwardHintOwed(int hint) {
        // E4: exhaustion is retried until done, after a pause made inside the try: a catch block makes no call
        boolean retrying = false;
        while (true) {
            try {
                if (retrying) {
                    Failures.pauseAfterRuntimeFailure(Failures.RUNTIME_FAILURE_BACKOFF_NANOS);
                }
                forwardHint(hint);
                return;
            } catch (VirtualMachineError exhaustion) { // only exhaustion is retried: a bug's exception is thrown
                retrying = true;
            }
        }
    }

    /**
     * H8: a notifier woke us for a job and took our registration off the count, so nobody else was woken for it; if we
     * leave without following the hint (our latch was set: we return into a job that may now wait for that very job),
     * the wake-up is handed on, as the notifier would have sent it.
     */
    private void forwardHint(int hint) {
        if (hint == IdleState.HINT_INJECTOR) {
            notifyAnywhere(1, INJECTOR_CODE); // as an injection: a credit if nobody sleeps (H3)
        } else {
            notifyInternal(1, hint); // as a push onto the hinted deque (H4)
        }
    }

    @Override
    public void noWorkFound(IdleState idle, CoreLatch latch) {
        int rounds = idle.rounds;
        int untilSleepy = idle.roundsUntilSleepy(ROUNDS_UNTIL_SLEEPY); // adaptive (A1)
        if (rounds < untilSleepy) {
            Thread.yield();
            idle.rounds = rounds + 1;
        } else if (rounds == untilSleepy) {
            if (register(workers[idle.workerIndex()])) {
                idle.rounds = rounds + 1; // H4: registered; search once more, then block
            } else {
                Thread.yield(); // H3: we took a credit: work was posted that we may have missed; search again
            }
        } else {
            sleep(idle, latch);
        }
    }

    /**
     * The seed's "atomic increment sleep count", once per hint we owe the pipe.
     *
     * @return false if the count was negative: we took one of notifyAnywhere's credits and must not sleep (H3)
     */
    private boolean register(PipeSleeper me) {
        if (me.readInFlight) {
            return true; // H2: still counted, or a hint is on its way for us; we read it when we block
        }
        // volatile getAndAdd: H4's Dekker pair with a notifier's load of sleepers (after it published its job), and
        // H3's credit: the add is ordered with notifyAnywhere's CAS.
        int before = (int) SLEEPERS.getAndAdd(this, 1);
        if (before < 0) {
            return false; // H3: a credit; the count is back towards zero, we owe nothing
        }
        me.readInFlight = true;
        return true;
    }

    /**
     * We registered but leave without reading a hint (found work, latch set, woken for a broadcast). If the count is
     * positive, our registration is still untaken: withdraw it. Otherwise a notifier already took it and wrote (or is
     * writing) a hint for it, which we read when we next block (H2).
     */
    private void retract(PipeSleeper me) {
        int s = (int) SLEEPERS.getVolatile(this); // volatile: the CAS below decides
        while (s > 0) {
            // volatile CAS, one at a time: the only sleeper-side decrement, and only of a count no notifier has taken
            // (s > 0). It keeps H2: hints in the pipe never exceed the readers that owe a read.
            if (SLEEPERS.compareAndSet(this, s, s - 1)) {
                me.readInFlight = false;
                return;
            }
            s = (int) SLEEPERS.getVolatile(this); // volatile: the CAS lost; retry from the current count
        }
    }

    /** Registered and searched once more without finding work: block until a hint or a wake request comes. */
    private void sleep(IdleState idle, CoreLatch latch) {
        int me = idle.workerIndex();
        PipeSleeper state = workers[me];
        // E3, as JOBS_EVENT_COUNTER does: a sleep that threw after announcing on this wait's latch (setBlocked,
        // releaseWatch) may have left it SLEEPY or SLEEPING, and every later getSleepy would then fail: the worker
        // would never block again (at A1's floor, a loop without a single yield). A volatile read when all is well.
        latch.wakeUp();
        Object sleepEvent = events.sleepBegin(me); // JFR (null unless recording), before H5's sequence
        long sleepsBefore = state.counts.sleeps(); // the blocking loop counts a sleep exactly when it parks or selects
        // H5: forget wake requests about earlier sleeps before checking any reason to wake (latch, own queue).
        state.clearWakeRequest();
        state.publishThread(Thread.currentThread());
        // L1: a set() from now on either fails our latch CASes or sees SLEEPING and calls notifyWorkerLatchIsSet.
        if (!latch.getSleepy() || !latch.fallAsleep()) {
            idle.wakeFully(); // the latch is set; leaveIdle will retract our registration
            return;
        }
        int code = NO_CODE;
        long sleepStart = 0L;
        state.setBlocked(true); // H5, H6: from here a broadcast wakes us, and we may be handed the watch
        try {
            // H5's final check (and cheap insurance for injections, which H3 covers already): a broadcast job for us,
            // or an injected job, posted before we set blocked.
            if (!idle.hasInjectedOrPrivateWork()) {
                sleepStart = System.nanoTime(); // A1: how long the sleep lasted decides the next limit
                code = blockUntilHintOrWakeRequest(me, state);
            }
        } finally {
            state.setBlocked(false);
            releaseWatch(me);
            latch.wakeUp(); // L1: back to UNSET unless set, even if blocking threw (leaveIdle then retracts us)
        }
        if (code >= 0) {
            state.readInFlight = false; // H2: we read our hint
            idle.setHint(code == INJECTOR_CODE ? IdleState.HINT_INJECTOR : code);
        } else {
            retract(state);
        }
        if (state.counts.sleeps() != sleepsBefore) {
            idle.adaptRoundsAfterSleep(MIN_ROUNDS_UNTIL_SLEEPY, ROUNDS_UNTIL_SLEEPY, System.nanoTime() - sleepStart,
                    code == OWN_EVENTS_CODE);
            reportWake(sleepEvent, me, code, state);
        }
        idle.wakeFully();
    }

    /** JFR: we blocked and woke. Who and why: the hint we read (H2), else our wake request (H5). */
    private void reportWake(Object sleepEvent, int me, int code, PipeSleeper state) {
        if (code == OWN_EVENTS_CODE) {
            events.sleepEnded(sleepEvent, me, WakeReason.IO_READY, PoolEvents.NOT_A_WORKER);
        } else if (code == INJECTOR_CODE) {
            events.sleepEnded(sleepEvent, me, WakeReason.HINT_PIPE_INJECTOR, PoolEvents.NOT_A_WORKER);
        } else if (code != NO_CODE) {
            events.sleepEnded(sleepEvent, me, WakeReason.HINT_PIPE_DEQUE, code); // the hint names the pusher
        } else {
            events.sleepEnded(sleepEvent, me, state.wakeReason, state.wakeRequester);
        }
    }

    /** @return the hint read, NO_CODE if woken by a wake request, or OWN_EVENTS_CODE if by our own IO (H9) */
    private int blockUntilHintOrWakeRequest(int me, PipeSleeper state) {
        boolean interrupted = false;
        boolean blocked = false;
        boolean ownEvents = false;
        try {
            while (true) {
                boolean watching = takeWatchIfFree(me);
                if (watching) {
                    if (blockers != null) {
                        blockers[me].watch(source, true); // H9: the pipe joins our own wait (owner-only, idempotent)
                    }
                    int code = tryReadHint();
                    if (code != NO_CODE) {
                        return code;
                    }
                }
                // H5: loaded after we took our position (watcher CAS, blocked flag), so a waker either sees it and
                // wakes us there (unpark, or selector.wakeup for the watcher) or we see its request here.
                if (state.isWakeRequested()) {
                    return NO_CODE;
                }
                // H7: park and select return at once while the interrupt status is set: clear it while we wait, and
                // restore it when we return. An interrupt wakes select() or park(); it never closes anything.
                interrupted |= Thread.interrupted();
                if (!blocked) {
                    blocked = true;
                    state.counts.countSleep();
                }
                if (blockers != null) {
                    // H9: one wait for a hint (if watching), an unblock (wake request, the watch handed to us) and our
                    // own IO; an unblock since we took our position is kept by the blocker (its contract).
                    blockers[me].block();
                    if (blockers[me].ownEventsReady()) {
                        ownEvents = true; // H9: we leave with no hint: sleep() retracts or keeps our count (H2)
                        try {
                            blockers[me].ownEventsEndedSleep(); // statistics: not counted as a wake-up below
                        } catch (VirtualMachineError statisticsOnly) {
                            // a count skipped: the outcome stands
                        }
                        return OWN_EVENTS_CODE;
                    }
                } else if (watching) {
                    selectOnce(); // wakes on a hint, a wakeup() aimed at us, or an interrupt
                } else {
                    LockSupport.park(this); // wakes on an unpark (wake request, or the watch handed to us)
                }
            }
        } finally {
            if (blocked && !ownEvents) {
                state.counts.countWakeup(); // a hint or a wake request, both from other threads; spurious returns loop
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** H6: become the watcher if nobody is. */
    private boolean takeWatchIfFree(int me) {
        int w = (int) WATCHER.getVolatile(this); // volatile: H6's Dekker load (after our blocked store)
        if (w == me) {
            return true;
        }
        return w == NO_WATCHER && WATCHER.compareAndSet(this, NO_WATCHER, me); // volatile CAS: one watcher at a time
    }

    /** H6: leaving the blocking loop; give the watch up and, if nobody holds it, hand it to a blocked worker. */
    private void releaseWatch(int me) {
        if ((int) WATCHER.getVolatile(this) == me) { // volatile: only we store our own index, so this is exact
            if (blockers != null) {
                blockers[me].watch(source, false); // H9: before the watch is free, so a new watcher's pipe is its own
            }
            WATCHER.setVolatile(this, NO_WATCHER); // volatile: stored before we read the blocked flags (H6)
        }
        // Also when we never watched: a leaver may have handed the watch to us (unparked us) just as we left.
        if ((int) WATCHER.getVolatile(this) == NO_WATCHER) { // volatile: H6's Dekker, before the blocked loads
            handWatchToABlockedWorker(me);
        }
    }

    private void handWatchToABlockedWorker(int me) {
        int n = workers.length;
        for (int k = 1; k < n; k++) {
            int j = me + k;
            if (j >= n) {
                j -= n;
            }
            PipeSleeper other = workers[j];
            if (other.isBlocked()) { // volatile: H6's Dekker load, after our store of NO_WATCHER
                unblockWorker(j); // it loops, takes the watch if still free, and selects
                return;
            }
        }
    }

    /** The watcher only: one hint from the non-blocking source, or NO_CODE. */
    private int tryReadHint() {
        ByteBuffer buf = readBuffer;
        try {
            source.read(buf); // non-blocking (H7): returns 0 if the pipe is empty
        } catch (IOException e) {
            throw new UncheckedIOException("hint pipe read failed", e);
        }
        if (buf.position() < HINT_BYTES) {
            return NO_CODE; // empty (or half a hint where pipe writes are not atomic: the rest follows, select again)
        }
        buf.flip();
        int code = buf.getShort() & 0xFFFF;
        buf.clear();
        HINTS_READ.setOpaque(this, hintsRead + 1); // opaque: one watcher at a time, tests read it
        return code;
    }

    private void selectOnce() {
        try {
            selector.select(IGNORE_READY_KEY); // the key stays registered; readiness is re-checked by tryReadHint
        } catch (IOException e) {
            throw new UncheckedIOException("hint pipe select failed", e);
        }
    }

    // --- the notifying side -----------------------------------------------------------------------------------------

    /**
     * The seed's {@code NotifyEmper(n)}, from inside the pool: wakes min(sleepers, n), nothing if nobody sleeps. The
     * hot path, nobody sleeping, is one load.
     */
    void notifyInternal(int n, int code) {
        int s = (int) SLEEPERS.getVolatile(this); // volatile: H4's Dekker load, after the job was published
        if (s > 0) {
            notifyInternalCold(s, n, code);
        }
    }

    private void notifyInternalCold(int s, int n, int code) {
        while (true) {
            int toWake = Math.min(s, n);
            // H1: the notifier takes the sleepers it wakes off the count, in one CAS, before writing their hints. Had
            // the sleepers decremented on waking instead, several notifiers could observe the same sleepers, each
            // write hints for all of them, and fill the pipe with hints nobody will read until a write blocks: the
            // seed's pipe-jamming deadlock. With the CAS, hints never outnumber the readers that owe a read (H2).
            if (SLEEPERS.compareAndSet(this, s, s - toWake)) {
                writeHints(toWake, code);
                return;
            }
            s = (int) SLEEPERS.getVolatile(this); // volatile: the CAS lost; retry from the current count
            if (s <= 0) {
                return; // others took them
            }
        }
    }

    /**
     * The seed's {@code NotifyAnywhere(n)}, from outside the pool and on termination: always takes effect. The count
     * drops by n even below zero (H3: credit, so that a worker about to register does not block), but only from a
     * count above -n; concurrent notifiers can each pass that test, so the count stays above -(2n-1) for calls with
     * at most n each, not at -n (H3 states the bound).
     */
    void notifyAnywhere(int n, int code) {
        int s;
        do {
            s = (int) SLEEPERS.getVolatile(this); // volatile: ordered after the job's publication (H3)
            if (s <= -n) {
                return; // H3: n credits wait already; the next n registrations will not block
            }
        } while (!SLEEPERS.compareAndSet(this, s, s - n)); // volatile CAS, H1: the notifier decrements
        int toWake = Math.min(s, n);
        if (toWake > 0) {
            writeHints(toWake, code);
        }
    }

    /**
     * Writes {@code count} copies of hint {@code code}, for sleepers the caller took off the count (H1); never blocks
     * (H2). If it throws, the sleepers whose
     * hints were not written are still asleep, owed a hint that will not come: they go back to the count (a volatile
     * RMW, like the notifier's CAS), so that the next notifier wakes them. A failed notification thus rolls itself
     * back, which E1 and E4 (registry package-info) rely on.
     */
    private void writeHints(int count, int code) {
        int unwritten = count;
        try {
            writeLock.lock(); // may throw (out of memory for a wait node): then nothing was written
            try {
                if (closed) {
                    return; // the pool is gone; nobody is left to wake
                }
                ByteBuffer buf = writeBuffer;
                while (unwritten > 0) {
                    int batch = Math.min(unwritten, HINTS_PER_WRITE);
                    buf.clear();
                    for (int i = 0; i < batch; i++) {
                        buf.putShort((short) code);
                    }
                    buf.flip();
                    while (buf.hasRemaining()) {
                        // Non-blocking (H7: an interrupted notifier cannot close the sink). H2: the pipe holds at most
                        // one hint per worker, 2 bytes each, and a Linux pipe holds at least 4096 bytes even when the
                        // user's pipe quota is spent, so for pools up to 2048 workers this write always fits. Larger
                        // pools could in principle find it full: then we yield until readers, each of which owes a
                        // read, drain it.
                        if (sink.write(buf) == 0) {
                            Thread.yield();
                        }
                    }
                    unwritten -= batch; // a batch is one atomic write (HINTS_PER_WRITE): written whole or not at all
                    HINTS_WRITTEN.setOpaque(this, hintsWritten + batch); // opaque: under writeLock, tests read it
                }
            } finally {
                writeLock.unlock();
            }
        } catch (IOException e) {
            giveBackSleepers(unwritten);
            throw new UncheckedIOException("hint pipe write failed", e);
        } catch (Throwable failure) {
            giveBackSleepers(unwritten);
            throw failure;
        }
    }

    /**
     * writeHints' rollback (volatile RMW, like the notifier's CAS). Runs only after a failure, when memory may be
     * exhausted, and a VarHandle call site allocates when it is linked on its first execution: the constructor runs it
     * once with 0 so that it is linked before it is needed.
     */
    private void giveBackSleepers(int n) {
        SLEEPERS.getAndAdd(this, n);
    }

    /** H5: a wake-up for one specific worker, not through the pipe. */
    private void wakeWorker(int index, WakeReason why) {
        PipeSleeper target = workers[index];
        target.wakeReason = why; // plain, for the owner's WorkerWoken event: published by requestWake's volatile store
        target.wakeRequester = Thread.currentThread();
        target.requestWake(); // volatile store before the loads below (H5)
        if (target.isBlocked()) { // volatile: not blocked yet means it will see the request before it blocks
            unblockWorker(index);
        }
        if ((int) WATCHER.getVolatile(this) == index) { // volatile: H5's Dekker load against the watcher CAS
            if (blockers != null) {
                blockers[index].unblock(); // H9: the watcher waits in its own blocker
            } else {
                selector.wakeup(); // sticky: a select() that has not started yet returns at once
            }
        }
    }

    /** Unparks worker {@code index}, or unblocks its blocker (H9). */
    private void unblockWorker(int index) {
        if (blockers != null) {
            blockers[index].unblock();
            return;
        }
        Thread t = workers[index].thread();
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public void newInternalJobs(int pusherIndex, int numJobs, boolean queueWasEmpty) {
        // No fence (H4): a sleeper that misses the job leaves it to the pusher's return to the worker loop, or to a
        // later search (package-info, "Internal pushes").
        notifyInternal(numJobs, pusherIndex);
    }

    @Override
    public void newInjectedJobs(int numJobs, boolean queueWasEmpty) {
        notifyAnywhere(numJobs, INJECTOR_CODE); // injections come from threads outside the pool
    }

    @Override
    public void newBroadcastJobs() {
        // Every blocked worker must wake for its own job, which fungible pipe hints cannot promise (a worker that
        // wakes, finds nothing and blocks again may read a second hint meant for another): wake each one directly.
        // H5: the jobs were enqueued (volatile) before these loads of blocked; a worker not blocked yet finds its job
        // in its search or in its final check, which follows its store of blocked.
        for (int i = 0; i < workers.length; i++) {
            if (workers[i].isBlocked()) {
                wakeWorker(i, WakeReason.BROADCAST);
            }
        }
    }

    @Override
    public void notifyWorkerLatchIsSet(int workerIndex) {
        wakeWorker(workerIndex, WakeReason.LATCH_SET); // L1, H5: only the latch's owner
    }

    @Override
    public void terminate() {
        // Every terminate latch is set (waking owners that slept on it, H5); the seed also wakes everyone through
        // notifyAnywhere, whose credits keep a worker that is just registering from blocking (H3).
        notifyAnywhere(workers.length, INJECTOR_CODE);
    }

    /** Releases the pipe and the selector. Idempotent; call once no worker can block any more. */
    @Override
    public void close() {
        writeLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
        } finally {
            writeLock.unlock();
        }
        closeQuietly(selector);
        closeQuietly(source);
        closeQuietly(sink);
    }

    private static void closeQuietly(Closeable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (IOException ignored) {
            // nothing useful to do: the descriptor is released either way
        }
    }

    // --- statistics and diagnostics ---------------------------------------------------------------------------------

    @Override
    public long sleeps(int workerIndex) {
        return workers[workerIndex].counts.sleeps();
    }

    @Override
    public long wakeups(int workerIndex) {
        return workers[workerIndex].counts.wakeups();
    }

    /** For tests: the sleepers count. */
    int sleepersCount() {
        return (int) SLEEPERS.getVolatile(this); // volatile: a snapshot for tests and diagnostics
    }

    /** For tests: the watching worker, or NO_WATCHER. */
    int watcher() {
        return (int) WATCHER.getVolatile(this); // volatile: a snapshot for tests and diagnostics
    }

    /** For tests: hints written so far. */
    long hintsWritten() {
        return (long) HINTS_WRITTEN.getOpaque(this); // opaque: statistics, no ordering needed
    }

    /** For tests: hints read so far. */
    long hintsRead() {
        return (long) HINTS_READ.getOpaque(this); // opaque: statistics, no ordering needed
    }

    /** For tests: whether the pipe and selector are still open. */
    boolean isOpen() {
        return source.isOpen() && sink.isOpen() && selector.isOpen();
    }

    @Override
    public int idleWorkersEstimate() {
        // Registered sleepers no notifier has taken yet (a negative value is credit: nobody). Workers still searching
        // are not counted: they find work by themselves or register soon, and the next beat sees them.
        return Math.max(0, sleepers);
    }

    @Override
    public boolean isAtRest() {
        return sleepersCount() == workers.length && hintsWritten() == hintsRead();
    }

    @Override
    public String toString() {
        return "sleepers=" + sleepersCount() + ", watcher=" + watcher() + ", hintsWritten=" + hintsWritten()
                + ", hintsRead=" + hintsRead();
    }
}
