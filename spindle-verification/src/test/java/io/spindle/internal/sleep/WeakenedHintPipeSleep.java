package io.spindle.internal.sleep;

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

/**
 * TEST ONLY, NEVER IN THE LIBRARY: a mechanical copy of {@link HintPipeSleep} (same fields and methods) with one of the
 * weakenings below, to show that {@link HintInjectVsSleepTest} and {@link HintLatchExitVsInjectTest} can fail. Apart
 * from the lines marked WEAKENED it is the real algorithm.
 */
final class WeakenedHintPipeSleep implements SleepProtocol {
    /** Test only: the seed's algorithm as written, with its sleeper-side increment relaxed. */
    enum Weakening {
        /**
         * Registering is a volatile read and a release store of count + 1 (not one SC getAndAdd: the search that
         * follows may pass the store, and a notifier's decrement in between is overwritten), and the final injector
         * check before blocking is removed (the seed has none: its count alone must do).
         */
        RELAXED_REGISTER_NO_FINAL_CHECK,
        /**
         * leaveIdle as the old {@code workFound} was: a hint the worker read and did not follow (its latch was set) is
         * dropped, not forwarded (H8 removed), and left in the IdleState (the old {@code reset} did not clear it).
         */
        OLD_LATCH_EXIT
    }

    private final Weakening weakening;

    /**
     * Yielding rounds before a worker registers as a sleeper; it searches once more, then blocks (H4). Benchmarks
     * may vary it with the system property {@code spindle.hintPipe.roundsUntilSleepy}.
     */
    static final int ROUNDS_UNTIL_SLEEPY = HintPipeSleep.ROUNDS_UNTIL_SLEEPY;

    /** Bytes per hint in the pipe. */
    static final int HINT_BYTES = 2;

    static HintRig rig(HintRig.Stage stage) {
        WeakenedHintPipeSleep s = new WeakenedHintPipeSleep(1);
        return new HintRig(s, stage, null, false, s::sleepersCount, () -> s.notifyAnywhere(1, INJECTOR_CODE));
    }

    static HintLatchExitRig latchExitRig(Weakening weakening) {
        WeakenedHintPipeSleep s = new WeakenedHintPipeSleep(2, weakening);
        return new HintLatchExitRig(s, s::sleepersCount, s::watcher);
    }
    /** The hint "the new work is in the injector" (worker indices are at most 0xFFFE). */
    static final int INJECTOR_CODE = 0xFFFF;
    /** No hint was read. */
    static final int NO_CODE = -1;
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
            SLEEPERS = l.findVarHandle(WeakenedHintPipeSleep.class, "sleepers", int.class);
            WATCHER = l.findVarHandle(WeakenedHintPipeSleep.class, "watcher", int.class);
            HINTS_WRITTEN = l.findVarHandle(WeakenedHintPipeSleep.class, "hintsWritten", long.class);
            HINTS_READ = l.findVarHandle(WeakenedHintPipeSleep.class, "hintsRead", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
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

    WeakenedHintPipeSleep(int threads) {
        this(threads, Weakening.RELAXED_REGISTER_NO_FINAL_CHECK);
    }

    WeakenedHintPipeSleep(int threads, Weakening weakening) {
        this.weakening = weakening;
        if (threads < 1 || threads > JecCounters.THREADS_MAX) {
            throw new IllegalArgumentException("threads must be in 1.." + JecCounters.THREADS_MAX + ", got " + threads);
        }
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
    }

    // --- the sleeping side ------------------------------------------------------------------------------------------

    @Override
    public void startLooking(IdleState idle) {
        idle.reset();
    }

    @Override
    public void leaveIdle(IdleState idle, boolean foundWork) {
        int hint = idle.unusedHint();
        if (hint != IdleState.NO_HINT && weakening != Weakening.OLD_LATCH_EXIT) {
            forwardHint(hint); // H8; WEAKENED (OLD_LATCH_EXIT): the hint is dropped
        }
        PipeSleeper me = workers[idle.workerIndex()];
        if (me.readInFlight) { // owner-only field: the hot path touches no shared state
            retract(me);
        }
        idle.reset();
        if (weakening == Weakening.OLD_LATCH_EXIT && hint != IdleState.NO_HINT) {
            idle.setHint(hint); // WEAKENED (OLD_LATCH_EXIT): the old reset() kept a stale hint
        }
    }

    /** H8: hands on a hint read and not followed, as the notifier that wrote it would have sent it. */
    private void forwardHint(int hint) {
        if (hint == IdleState.HINT_INJECTOR) {
            notifyAnywhere(1, INJECTOR_CODE);
        } else {
            notifyInternal(1, hint);
        }
    }

    @Override
    public void noWorkFound(IdleState idle, CoreLatch latch) {
        int rounds = idle.rounds;
        if (rounds < ROUNDS_UNTIL_SLEEPY) {
            Thread.yield();
            idle.rounds = rounds + 1;
        } else if (rounds == ROUNDS_UNTIL_SLEEPY) {
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
        if (weakening != Weakening.RELAXED_REGISTER_NO_FINAL_CHECK) {
            int old = (int) SLEEPERS.getAndAdd(this, 1); // as the real class (the other weakenings keep it)
            if (old < 0) {
                return false;
            }
            me.readInFlight = true;
            return true;
        }
        int before = (int) SLEEPERS.getVolatile(this);
        if (before < 0) {
            if (!SLEEPERS.compareAndSet(this, before, before + 1)) {
                return false; // raced: search again
            }
            return false; // H3: a credit
        }
        SLEEPERS.setRelease(this, before + 1); // WEAKENED: a release store of a value read earlier, not getAndAdd
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
            s = (int) SLEEPERS.getVolatile(this);
        }
    }

    /** Registered and searched once more without finding work: block until a hint or a wake request comes. */
    private void sleep(IdleState idle, CoreLatch latch) {
        int me = idle.workerIndex();
        PipeSleeper state = workers[me];
        // H5: forget wake requests about earlier sleeps before checking any reason to wake (latch, own queue).
        state.clearWakeRequest();
        state.publishThread(Thread.currentThread());
        // L1: a set() from now on either fails our latch CASes or sees SLEEPING and calls notifyWorkerLatchIsSet.
        if (!latch.getSleepy() || !latch.fallAsleep()) {
            idle.wakeFully(); // the latch is set; leaveIdle will retract our registration
            return;
        }
        int code = NO_CODE;
        state.setBlocked(true); // H5, H6: from here a broadcast wakes us, and we may be handed the watch
        try {
            // H5's final check (and cheap insurance for injections, which H3 covers already): a broadcast job for us,
            // or an injected job, posted before we set blocked.
            if (weakening == Weakening.RELAXED_REGISTER_NO_FINAL_CHECK) {
                code = blockUntilHintOrWakeRequest(me, state); // WEAKENED: no final check of the injector
            } else if (!idle.hasInjectedOrPrivateWork()) {
                code = blockUntilHintOrWakeRequest(me, state);
            }
        } finally {
            state.setBlocked(false);
            releaseWatch(me);
        }
        latch.wakeUp();
        if (code != NO_CODE) {
            state.readInFlight = false; // H2: we read our hint
            idle.setHint(code == INJECTOR_CODE ? IdleState.HINT_INJECTOR : code);
        } else {
            retract(state);
        }
        idle.wakeFully();
    }

    /** @return the hint read, or NO_CODE if woken by a wake request */
    private int blockUntilHintOrWakeRequest(int me, PipeSleeper state) {
        boolean interrupted = false;
        boolean blocked = false;
        try {
            while (true) {
                boolean watching = takeWatchIfFree(me);
                if (watching) {
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
                if (watching) {
                    selectOnce(); // wakes on a hint, a wakeup() aimed at us, or an interrupt
                } else {
                    LockSupport.park(this); // wakes on an unpark (wake request, or the watch handed to us)
                }
            }
        } finally {
            if (blocked) {
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
        if ((int) WATCHER.getVolatile(this) == me) {
            WATCHER.setVolatile(this, NO_WATCHER); // volatile: stored before we read the blocked flags (H6)
        }
        // Also when we never watched: a leaver may have handed the watch to us (unparked us) just as we left.
        if ((int) WATCHER.getVolatile(this) == NO_WATCHER) {
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
                Thread t = other.thread();
                if (t != null) {
                    LockSupport.unpark(t); // it loops, takes the watch if still free, and selects
                }
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
     * The seed's {@code NotifyEmper(n)}, from inside the pool: wakes min(sleepers, n), nothing if nobody sleeps. The hot
     * path, nobody sleeping, is one load.
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
            s = (int) SLEEPERS.getVolatile(this);
            if (s <= 0) {
                return; // others took them
            }
        }
    }

    /**
     * The seed's {@code NotifyAnywhere(n)}, from outside the pool and on termination: always takes effect. The count
     * drops by n even below zero (H3: credit, so that a worker about to register does not block), but never below
     * -n before the drop: at most n credits wait at a time.
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

    /** Writes {@code count} copies of hint {@code code}; never blocks (H2). */
    private void writeHints(int count, int code) {
        writeLock.lock();
        try {
            if (closed) {
                return; // the pool is gone; nobody is left to wake
            }
            ByteBuffer buf = writeBuffer;
            while (count > 0) {
                int batch = Math.min(count, HINTS_PER_WRITE);
                buf.clear();
                for (int i = 0; i < batch; i++) {
                    buf.putShort((short) code);
                }
                buf.flip();
                while (buf.hasRemaining()) {
                    // Non-blocking (H7: an interrupted notifier cannot close the sink). H2: the pipe holds at most one
                    // hint per worker, 2 bytes each, and a Linux pipe holds at least 4096 bytes even when the user's
                    // pipe quota is spent, so for pools up to 2048 workers this write always fits. Larger pools could
                    // in principle find it full: then we yield until readers, each of which owes a read, drain it.
                    if (sink.write(buf) == 0) {
                        Thread.yield();
                    }
                }
                count -= batch;
                HINTS_WRITTEN.setOpaque(this, hintsWritten + batch); // opaque: under writeLock, tests read it
            }
        } catch (IOException e) {
            throw new UncheckedIOException("hint pipe write failed", e);
        } finally {
            writeLock.unlock();
        }
    }

    /** H5: a wake-up for one specific worker, not through the pipe. */
    private void wakeWorker(int index) {
        PipeSleeper target = workers[index];
        target.requestWake(); // volatile store before the loads below (H5)
        if (target.isBlocked()) { // volatile: not blocked yet means it will see the request before it blocks
            Thread t = target.thread();
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
        if ((int) WATCHER.getVolatile(this) == index) { // volatile: H5's Dekker load against the watcher CAS
            selector.wakeup(); // sticky: a select() that has not started yet returns at once
        }
    }

    @Override
    public void newInternalJobs(int pusherIndex, int numJobs, boolean queueWasEmpty) {
        // The pusher is awake: if every sleeper misses the job, the pusher runs it (only parallelism is at stake).
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
                wakeWorker(i);
            }
        }
    }

    @Override
    public void notifyWorkerLatchIsSet(int workerIndex) {
        wakeWorker(workerIndex); // L1, H5: only the latch's owner
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
    public int idleWorkersEstimate() {
        return Math.max(0, sleepers); // as HintPipeSleep: not weakened
    }

    @Override
    public boolean isAtRest() {
        throw new UnsupportedOperationException("the jcstress tests never ask a weakened protocol whether it rests");
    }

    @Override
    public long wakeups(int workerIndex) {
        return workers[workerIndex].counts.wakeups();
    }

    /** For tests: the sleepers count. */
    int sleepersCount() {
        return (int) SLEEPERS.getVolatile(this);
    }

    /** For tests: the watching worker, or NO_WATCHER. */
    int watcher() {
        return (int) WATCHER.getVolatile(this);
    }

    long hintsWritten() {
        return (long) HINTS_WRITTEN.getOpaque(this);
    }

    long hintsRead() {
        return (long) HINTS_READ.getOpaque(this);
    }

    /** For tests: whether the pipe and selector are still open. */
    boolean isOpen() {
        return source.isOpen() && sink.isOpen() && selector.isOpen();
    }

    @Override
    public String toString() {
        return "sleepers=" + sleepersCount() + ", watcher=" + watcher() + ", hintsWritten=" + hintsWritten()
                + ", hintsRead=" + hintsRead();
    }
}
