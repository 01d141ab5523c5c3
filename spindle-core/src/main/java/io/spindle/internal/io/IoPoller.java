package io.spindle.internal.io;

import io.spindle.internal.job.Job;
import io.spindle.internal.registry.OwedLatchWakes;
import io.spindle.internal.registry.WorkerThread;
import io.spindle.internal.sleep.Blocker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * One worker's poller (EMPER's per-worker IoContext, IO2): a {@link Selector} opened on first use, the channels whose
 * home it is, and the worker's {@link Blocker}. A worker that holds IO blocks in its selector, so that one wait
 * returns on its own IO or on a wake-up (IO5); one that holds none parks, as before. The invariants IO1..IO13 cited
 * here are in this package's {@code package-info.java}.
 */
public final class IoPoller implements Blocker {
    /** {@link #mode}: the owner is not inside {@link #block()}. */
    private static final int RUNNING = 0;
    /** {@link #mode}: the owner parks (it holds no IO). */
    private static final int PARKED = 1;
    /** {@link #mode}: the owner blocks in its selector. */
    private static final int SELECTING = 2;

    private static final VarHandle PENDING_OPS;
    private static final VarHandle LAST_POLL;
    private static final VarHandle POLLS;
    private static final VarHandle READY_EVENTS;
    private static final VarHandle IO_WAKEUPS;
    private static final VarHandle HAND_BACKS_QUEUED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PENDING_OPS = l.findVarHandle(IoPoller.class, "pendingOps", int.class);
            LAST_POLL = l.findVarHandle(IoPoller.class, "lastPollNanos", long.class);
            POLLS = l.findVarHandle(IoPoller.class, "polls", long.class);
            READY_EVENTS = l.findVarHandle(IoPoller.class, "readyEvents", long.class);
            IO_WAKEUPS = l.findVarHandle(IoPoller.class, "ioWakeups", long.class);
            HAND_BACKS_QUEUED = l.findVarHandle(IoPoller.class, "handBacksQueued", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** How long after its last poll an idle search polls again (IO7): a syscall per search round would cost more. */
    static final long IDLE_POLL_INTERVAL_NANOS = 50_000L;
    /**
     * IO4: the first bounded wait of an owner whose flush left a channel's key in its selector (see
     * noteKeysLeftBehind); each further one doubles, up to the sweep interval.
     */
    static final long KEY_LEFT_BEHIND_FIRST_WAIT_NANOS = 1_000_000L;

    /** Jobs between two non-blocking polls of a busy worker that holds IO (IO7; Cats Effect 64, Tokio 61). */
    public static final int JOBS_PER_BUSY_POLL = 64;

    final PoolIoImpl io;
    final int index;

    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    /** IO10, guarded by this poller's monitor: RUNNING, PARKED or SELECTING, written by the owner around each block. */
    private int mode = RUNNING;
    /** IO10, guarded by this poller's monitor: an unblock() not yet consumed by a block(). */
    private boolean wakePending;
    /** IO5: operations pending on channels whose home this is; any thread that places or finishes one. */
    private volatile int pendingOps;
    /** When the owner (or the watchdog for it) last polled: the watchdog's measure of starvation (IO7). */
    private volatile long lastPollNanos;
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;

    private volatile Thread owner;     // bound as the worker is built (bindOwner)
    private volatile Selector selector; // opened by the first registration (IO2), closed with the pool
    /** Channels other threads gave this home: the owner registers them (IO2), or the watchdog for a busy owner. */
    private final ConcurrentLinkedQueue<ChannelState> interestRequests = new ConcurrentLinkedQueue<>();
    /** Held by whoever selects: the owner's blocking or busy poll, or the watchdog's poll for a busy owner (IO7). */
    private final ReentrantLock pollLock = new ReentrantLock();
    /**
     * IO13: hand-backs whose cancelled key this selector still holds. Any thread adds one (queueHandBack), then
     * drains (drainHandBacks): a pass under the poll lock if it is free, else a wakeup, and the holder's release
     * drains in turn. Waits leave only in a pass, under the lock.
     */
    private final ConcurrentLinkedQueue<Deregistration.Wait> deregistrations = new ConcurrentLinkedQueue<>();
    /** IO13: waits ever added to {@link #deregistrations}; a volatile RMW after each add (queueHandBack). */
    private volatile long handBacksQueued;
    /**
     * IO13, written by the poll-lock holder only (volatile: drainers read it after their unlock): how many of the
     * waits ever added a finished pass covered, i.e. were added before that pass's selectNow, which deregistered
     * their keys or left them lost (the pass judged those: Deregistration.Wait.lost); only waits added since need a
     * pass.
     */
    private volatile long handBacksCovered;
    /** Owner only: keys its blocking select reported, handled once it left its sleep ({@link #processReady}). */
    private final ArrayList<SelectionKey> readyKeys = new ArrayList<>();
    private final Consumer<SelectionKey> collectReady = this::collect;
    /** Owner only: HINT_PIPE's pipe is part of this worker's wait (H9); its key here, registered on first watch. */
    private boolean watchingPipe;
    private SelectionKey pipeKey;
    /**
     * IO8: a channel homed here was closed directly; the owner's next processReady sweeps. Set by the watchdog (or,
     * with the watchdog off, by the owner's timed select) before it wakes the owner; cleared by the owner.
     */
    private volatile boolean sweepRequested;
    private int jobsSincePoll; // owner only (IO7)
    /**
     * IO12: operations finished at their call that the owner's current top-level job completed on its own stack. A
     * plain int: only the owner reads and writes it (at the call, and when it starts a top-level job), so no other
     * thread ever sees it and it needs no ordering.
     */
    int directCompletions;
    private long nextSweepNanos; // poll-lock holder: when the next look for channels closed directly is due (IO8)
    private long polls;        // lock holder writes (opaque), statistics read
    private long readyEvents;  // likewise
    private long ioWakeups;    // owner writes (opaque): sleeps its own events ended, no waker (ownEventsEndedSleep)
    /**
     * Owner only (IO4): how long its next block waits at most because its last flush left a channel's key in its
     * selector; 0 when it left none. Plain: only the owner reads and writes it.
     */
    private long keyLeftBehindWaitNanos;

    /** IO10: where a wake-up of the owner whose delivery threw is owed (null for a white-box poller with no pool). */
    private final OwedLatchWakes owedWakes;
    /** The worker this poller belongs to, bound as it is built: requestInterest compares the caller with it. */
    public void bindOwner(Thread worker) {
        owner = worker;
    }

    IoPoller(PoolIoImpl io, int index) {
        this.io = io;
        this.index = index;
        this.owedWakes = io != null ? io.owedWakes() : null;
        if (owedWakes != null) {
            // resolves the field references unblock's failure path stores through, while the stack has room (E4)
            owedWakes.pollerFlags[index].owed = false;
            owedWakes.any = false;
            // and those through which a hand-out that overflowed owes its list (IO6, FinishedOps): nothing is linked
            FinishedOps none = new FinishedOps(io);
            synchronized (none.owes) {
                none.nextOwed = none.owes.owedJobs;
                none.owes.owedJobs = none.nextOwed;
            }
        }
        this.nextSweepNanos = System.nanoTime(); // nanoTime's origin is arbitrary: deadlines are relative to it
    }

    // --- the Blocker: how the owner sleeps (IO5, IO10) --------------------------------------------------------------

    @Override
    public void block() {
        boolean holdsIo = holdsIo();
        boolean select = watchingPipe || holdsIo;
        Selector sel = select ? ownSelector() : null; // open before SELECTING is visible: a waker wakes it
        // IO4: an owner that blocks holding no pending operation (it parks, or selects only for HINT_PIPE's pipe)
        // deregisters its idle keys first: a channel closed directly keeps its descriptor while its key is registered,
        // and nothing would make such a select deregister it (IO8: it has no timeout, and the watchdog wakes only
        // homes with operations pending). Before IO10's position: the flush may wait for the poll lock (a closer's
        // flush, the watchdog), and that wait parks in the lock, which would swallow the unpark of a waker that saw us
        // PARKED: the park below would then wait for ever, with wakePending left set so that no later waker unparks us.
        if (!holdsIo && flushCancelledKeys()) {
            return; // own events: the owner does not block
        }
        long boundNanos = holdsIo ? 0L : keyLeftBehindWaitNanos; // IO4: nonzero while the flush left a key behind
        // IO10: the mode and the wake flag change together under this poller's monitor, so a waker either sees the mode
        // we block in and wakes that wait, or we see its flag here and do not wait at all. A monitor, not VarHandles:
        // it takes no call, so a waker at the stack's edge (E4: it retries its unblock until done, at that depth) needs
        // no deeper stack than the unpark it replaced.
        synchronized (this) {
            if (wakePending) {
                wakePending = false; // consumed: an unblock since our last block
                return;
            }
            mode = select ? SELECTING : PARKED;
        }
        try {
            if (select) {
                selectUntilWoken(sel, boundNanos);
            } else if (boundNanos > 0) {
                LockSupport.parkNanos(this, boundNanos); // IO4: back to flush again; a wake-up still ends it (IO10)
            } else {
                LockSupport.park(this); // nothing between our PARKED and this park waits in a lock (see above)
            }
        } finally {
            synchronized (this) {
                mode = RUNNING; // wakers from now on leave the flag for our next block and make no syscall
            }
        }
    }

    @Override
    public void unblock() {
        wake(false);
    }

    /**
     * IO10, E4: makes a wake-up this poller owed ({@code OwedLatchWakes.pollerFlags}) because a delivery threw. It
     * wakes whatever the mode names even if the wake flag is set: the failed delivery's reset of the flag runs under
     * this monitor, which can itself overflow, and a plain {@link #unblock} would then find the flag set and make no
     * wake-up, with the wakers it coalesced still counting on one. The flag is checked and set in one critical
     * section, so a call that overflows on entry changes nothing (the owe is kept by the delivery); a wake-up made
     * while another is in flight costs at most a spurious return of the owner's wait.
     */
    public void unblockOwed() {
        wake(true);
    }

    private void wake(boolean owedWakeUp) {
        int m;
        synchronized (this) { // IO10: one wake-up per sleep; while the flag is set, later wakers make no syscall
            if (wakePending && !owedWakeUp) {
                return;
            }
            wakePending = true;
            m = mode;
        }
        boolean delivered = false;
        try {
            if (m == SELECTING) {
                selector.wakeup(); // sticky: a select that has not started yet returns at once (set before SELECTING)
            } else if (m == PARKED) {
                LockSupport.unpark(owner); // a permit: a park that has not started yet returns at once
            }
            delivered = true;
        } finally {
            if (!delivered) {
                // IO10 when a delivery threw, inline (no call: this may be the depth that overflowed). The flag goes
                // back, so that a retry delivers instead of finding it set, and the wake-up is owed as well, to be
                // made by this poller's own unblock from a worker's next wait round or idle search, or the watchdog's
                // next step (E4's owed wake-ups; the flag is back by then): callers that came while the flag was set
                // returned counting on this delivery, among them a sleep protocol's waker that already marked the
                // owner woken (a wake-up through the protocol would then do nothing), and two callers never retry
                // (requestInterest, whose own operation fails instead, and wakeIfLastOperationLeftElsewhere). The
                // throwable still goes to the caller, which may retry (a wake-up made twice costs a spurious return).
                try {
                    synchronized (this) {
                        wakePending = false;
                    }
                } finally {
                    OwedLatchWakes owed = owedWakes;
                    if (owed != null) { // null only for a white-box poller with no pool
                        owed.pollerFlags[index].owed = true; // volatile stores, flag then any; resolved when built
                        owed.any = true;
                    }
                }
            }
        }
    }

    /**
     * IO5's third leg: the owner's own IO (ready keys, a registration another thread handed it, a channel closed
     * directly) ends its sleep without a waker. The sleep protocol then takes its own registration back.
     */
    @Override
    public boolean ownEventsReady() {
        return !readyKeys.isEmpty() || sweepRequested || !interestRequests.isEmpty();
    }

    /**
     * IO4, IO8: an owner that blocks holding no pending operation deregisters its channels first: registrations
     * persist only while operations are pending, and a channel closed directly later must not keep its descriptor
     * open (the JDK closes a registered channel's descriptor only once its selector deregisters the key, and a parked
     * owner never selects, nor does a HINT_PIPE watcher's select end for it: its peer would never see the end of the
     * stream). One selectNow deregisters them and any key cancelled before; readiness found meanwhile (an operation
     * placed since) is the owner's own event.
     *
     * @return whether own events were found (then the owner does not block)
     */
    private boolean flushCancelledKeys() {
        Selector s = selector;
        if (s == null || s.keys().size() <= (pipeKey != null ? 1 : 0)) {
            keyLeftBehindWaitNanos = 0L;
            return false; // no channel's key (HINT_PIPE's pipe key stays: it is the protocol's)
        }
        pollLock.lock();
        try {
            for (SelectionKey key : s.keys()) {
                Object state = key.attachment();
                if (state instanceof ChannelState) {
                    ((ChannelState) state).dropRegistrationIfIdle(key); // keeps one an operation was placed on since
                }
            }
            s.selectNow(collectReady);
            countPoll();
            noteKeysLeftBehind(s);
        } catch (IOException e) {
            throw new UncheckedIOException("selector failed", e);
        } finally {
            pollLock.unlock(); // IO13: directly, no frame of ours between the lock and its release
            if (!deregistrations.isEmpty()) { // IO13: every holder drains after its unlock (the Dekker's second side)
                drainHandBacks(s, collectReady);
            }
        }
        return !readyKeys.isEmpty();
    }

    /**
     * IO4, poll-lock holder, after the flush's selectNow: a channel's key still in the selector is one the flush could
     * not deregister. Invalid, it is one whose cancel another thread began and has not queued yet: a direct close
     * cancels its channel's keys in two steps, the key's invalidation and then its queueing for the selector, outside
     * every monitor of ours, so our own cancel of that key did nothing and the selectNow found nothing queued (or a
     * cancel that threw between its two steps left it so for good: IO13's lost key). Valid while nothing is pending
     * here, it is one the flush kept because another thread had just placed an operation on it, which then finished
     * at its call. Parked without a bound, nothing would ever select again (nothing pending: no sweep, no watchdog),
     * and the JDK would keep the channel's descriptor open for ever once it is closed directly (IO8: the peer never
     * sees the end of the stream). So the owner's next block is bounded, 1 ms first and doubling up to the sweep
     * interval, and flushes again until the key is gone (a lost key: one look per sweep interval, for ever).
     * Selector.keys() is a concurrent set's view since JDK 11: iterating it is safe whoever registers or deregisters
     * meanwhile.
     */
    private void noteKeysLeftBehind(Selector s) {
        for (SelectionKey key : s.keys()) {
            if (key != pipeKey && (!key.isValid() || pendingOps == 0)) { // volatile read of pendingOps
                long last = keyLeftBehindWaitNanos;
                keyLeftBehindWaitNanos = last == 0 ? KEY_LEFT_BEHIND_FIRST_WAIT_NANOS
                        : Math.min(last * 2, io.sweepMillis() * 1_000_000L);
                return;
            }
        }
        keyLeftBehindWaitNanos = 0L;
    }

    /**
     * IO8, any thread, after cancelling a key of this home (PoolIO.close): makes the selector deregister it now, so
     * that the channel's close takes effect at once (the JDK defers closing a registered channel's descriptor until
     * its selector deregisters the key). If someone is selecting, a wakeup ends that select, which deregisters it;
     * else the caller selects once itself and hands out what it found.
     */
    void flushAfterCancel(WorkerThread caller) {
        Selector s = selector;
        if (s == null) {
            return;
        }
        selectNowOrWake(s, caller);
    }

    /**
     * IO8, IO13 (flushAfterCancel, and a hand-back's caller): one selectNow under the poll lock if it is free, which
     * deregisters every key cancelled before it, else a wakeup: the holder may be the owner in a select without a
     * timeout that began before the caller's cancel (it deregisters on its way out; the wakeup is sticky if that
     * select has just ended). What the select finished is handed out (IO6).
     */
    private void selectNowOrWake(Selector s, WorkerThread caller) {
        // allocated before the lock: nothing that can throw (a caller at the edge of its stack) may come between the
        // lock and the try whose finally unlocks, or the lock stays held by a thread that went on, and the owner's
        // next select waits for it for ever
        FinishedOps finished = new FinishedOps(io);
        Consumer<SelectionKey> handle = key -> handleReadyKey(key, finished);
        if (!pollLock.tryLock()) {
            s.wakeup(); // IO13: the holder drains after its unlock; this ends its select if it is the owner's
            return;
        }
        try {
            handBackPass(s, handle); // IO13: a pass, so a hand-back's own wait needs no second select
        } catch (IOException e) {
            throw new UncheckedIOException("selector failed", e);
        } finally {
            pollLock.unlock(); // IO13: directly, no frame of ours between the tryLock and the release
            try {
                if (!deregistrations.isEmpty()) {
                    drainHandBacks(s, handle); // IO13: waits queued while we held the lock
                }
            } finally {
                try {
                    io.queueFinished(finished, caller); // IO6: what finished runs, even after a failure
                } catch (Throwable overflowed) {
                    // IO6: the hand-out's call overflowed (a stack's edge): the rest is owed whole (FinishedOps.owe,
                    // written out inline: a call here could overflow again)
                    OwedLatchWakes owes = finished.owes;
                    if (owes != null) {
                        synchronized (owes) {
                            finished.nextOwed = owes.owedJobs;
                            owes.owedJobs = finished;
                        }
                        owes.any = true; // volatile, after the link: a delivery that takes `any` sees the list
                    }
                    throw overflowed;
                }
            }
        }
        wakeIfLastOperationLeftElsewhere(); // our selectNow may have finished the owner's last operation
    }

    /**
     * IO13, any thread, for PoolIO.deregister: queues {@code wait}, whose key was cancelled before this call, and
     * counts it. Only queues and counts: the caller arms its hand-back once every wait is queued and counted, then
     * drains ({@link #drainHandBacks(WorkerThread)}). An Error part of the way (a stack's edge) leaves the hand-back
     * unarmed, so its job can never run and the count is still the caller's to owe back (PoolIoImpl.deregister); a
     * wait queued but not counted is then harmless: a later pass steps it (its decrement cannot reach zero) and
     * removes it.
     */
    void queueHandBack(Deregistration.Wait wait) {
        deregistrations.add(wait); // the queue's volatile CAS: the Dekker's first write (see drainHandBacks)
        // volatile RMW after the add and before the caller's tryLock (drainHandBacks(WorkerThread): the Dekker's
        // first side): a pass whose count includes it selected after our cancel, and a drain after an unlock that our
        // failed tryLock preceded sees it uncovered
        HAND_BACKS_QUEUED.getAndAdd(this, 1L);
    }

    /**
     * IO13, any thread, for PoolIO.deregister, after queueHandBack and the hand-back's arming: its wait completes once
     * a select that ended after its cancel deregistered the key. The caller selects once itself if it gets the poll
     * lock; otherwise the holder's release drains (it unlocks after our add and count, so its drain sees the wait
     * uncovered), and a wakeup ends the holder's select in case it is the owner's, which has no timeout. An Error
     * here leaves a counted wait that no pass covered: the next release of this poll lock drains it (the owner's
     * select ends at the latest when its pending operations end, as at shutdown: IO4, IO9).
     */
    void drainHandBacks(WorkerThread caller) {
        selectNowOrWake(selector, caller); // selector not null: the key is of this selector
    }

    /**
     * IO13, after every release of the poll lock that found the queue not empty (out of line: the release's own
     * check is the hot path). Loops only while a wait was added that no finished pass covered: a pass covers every
     * wait added before its selectNow, completing it or judging it lost (a wait whose step threw stays for the next
     * pass), and looping for a wait no select completes spun for ever. Never waits for the lock
     * (IO10's parking path): if another thread holds it, that holder drains after its unlock, which comes after our
     * failed tryLock and so after every add we were to drain for (the Dekker pair: add, then the tryLock's volatile
     * read of the lock; the unlock's volatile write, then the volatile reads here), and a wakeup ends its select if
     * it is the owner's (the wakeup stays pending for it: nobody else selects while it holds the lock).
     */
    private void drainHandBacks(Selector s, Consumer<SelectionKey> onReady) {
        // volatile reads after our unlock: every wait whose adder's tryLock failed on our hold is counted here
        while (!deregistrations.isEmpty() && handBacksQueued != handBacksCovered) {
            if (!pollLock.tryLock()) {
                s.wakeup(); // the holder drains after its unlock
                return;
            }
            try {
                handBackPass(s, onReady);
            } catch (IOException e) {
                throw new UncheckedIOException("selector failed", e);
            } finally {
                pollLock.unlock(); // directly: no frame of ours between the tryLock and the release
            }
        }
    }

    /**
     * IO13, the poll-lock holder: one selectNow, which deregisters every key cancelled before it, then completes the
     * waits whose key is gone. Covers the waits counted before the select: only a later add needs another pass.
     * The count is stored last, so a pass that throws part of the way covers nothing and the next drain passes again.
     * The waits queued before the select are marked first: a key of theirs that this select (or a later one) leaves
     * in its channel was lost by the JDK, and their hand-back fails rather than holding the pool's count for ever.
     */
    private void handBackPass(Selector s, Consumer<SelectionKey> onReady) throws IOException {
        long queued = handBacksQueued; // volatile read before the select: each wait counted here was added before
        for (Deregistration.Wait w : deregistrations) { // the queue's volatile reads: each add happened-before
            w.queuedBeforeASelect = true; // plain, lock holder only: the poll lock orders it for the next holder
        }
        s.selectNow(onReady);
        countPoll();
        completeDeregistered();
        handBacksCovered = queued; // volatile write, by the lock holder only; read by drainers after their unlock
    }

    /**
     * IO13, the poll-lock holder, after a select that returned: hand-backs whose key this selector deregistered are
     * done, and so are those whose key a select that began after their add did not deregister (lost: the JDK's
     * cancel or selection overflowed part of the way, between taking the key off its cancelled set and out of the
     * channel, or between invalidating the key and queueing it there; no later select would deregister it). A wait
     * leaves the queue only after its step is done, so a step that throws (a stack's edge) leaves it for the next
     * pass; only the lock holder runs a step, so no wait is stepped twice at once, and a second step does nothing.
     */
    private void completeDeregistered() {
        for (Deregistration.Wait w : deregistrations) {
            // done(): the channel's key lock orders it after the select's deregistration
            if (w.done()) {
                w.deregistered();
                deregistrations.remove(w); // the queue's CAS; only a lock holder removes
            } else if (w.queuedBeforeASelect) {
                w.lost(); // IO13: its job fails the future and gives the count back (IO6)
                deregistrations.remove(w);
            }
        }
    }

    private void collect(SelectionKey key) {
        if (key.attachment() instanceof ChannelState) {
            readyKeys.add(key); // the hint pipe's key is the protocol's to read (H9): its readiness just ends select
        }
    }

    /** HINT_PIPE (H9): the hint pipe joins this worker's wait, or leaves it. Owner only. */
    @Override
    public void watch(java.nio.channels.SelectableChannel source, boolean on) {
        if (on == watchingPipe) {
            return;
        }
        try {
            if (pipeKey == null) {
                pipeKey = source.register(ownSelector(), on ? SelectionKey.OP_READ : 0); // no attachment: not IO
            } else {
                pipeKey.interestOps(on ? SelectionKey.OP_READ : 0);
            }
        } catch (java.nio.channels.ClosedChannelException e) {
            throw new IllegalStateException("the hint pipe is closed", e); // only after every worker exited
        }
        watchingPipe = on;
    }

    /** Whether this worker holds IO: it then blocks in its selector, and polls while busy (IO5, IO7). */
    public boolean holdsIo() {
        return pendingOps > 0 || !interestRequests.isEmpty();
    }

    /** @param boundNanos IO4: at most this long while a flush left a key behind (0: until woken, or the next sweep). */
    private void selectUntilWoken(Selector sel, long boundNanos) {
        if (!interestRequests.isEmpty()) {
            return; // own events: the owner leaves its sleep and registers them in processReady, outside the protocol
        }
        pollLock.lock(); // the watchdog holds it only for a selectNow (IO7)
        try {
            synchronized (this) {
                if (wakePending) {
                    // IO10: a selectNow by another lock holder (the watchdog, a closer's flush) may have consumed the
                    // wakeup() meant for us while we waited for the lock. Holding the lock now, nobody else can
                    // select, so a wake-up from here on stays sticky; one from before is this flag.
                    return;
                }
            }
            // An interrupt ends the select at once and stays set: the sleep protocol's loop clears and restores it
            // (docs/DESIGN.md §1.11). IO8: the watchdog looks for channels closed directly and wakes us (requestSweep),
            // so we wait without a timeout: an idle owner with idle connections takes no CPU. Without a watchdog we
            // wake by the next sweep at the latest and look ourselves; and while a flush left a key behind, by the
            // bound it set (IO4).
            long timeoutMillis = IoWatchdog.ENABLED ? 0L
                    : Math.max(1L, (nextSweepNanos - System.nanoTime()) / 1_000_000L);
            if (boundNanos > 0) {
                long bound = Math.max(1L, boundNanos / 1_000_000L);
                timeoutMillis = timeoutMillis == 0 ? bound : Math.min(timeoutMillis, bound);
            }
            sel.select(collectReady, timeoutMillis); // 0: no timeout
            countPoll();
            if (!IoWatchdog.ENABLED && sweepIsDue() && io.anyClosedDirectly(this)) {
                sweepRequested = true; // volatile; the owner's own flag here
            }
        } catch (IOException e) {
            throw new UncheckedIOException("selector failed", e);
        } finally {
            pollLock.unlock(); // IO13: directly in finally
            if (!deregistrations.isEmpty()) { // IO13: a hand-back's wakeup may be what ended this select
                drainHandBacks(sel, collectReady);
            }
        }
    }

    /**
     * The owner's protocol ended a sleep for its own events, with no waker (counted once: IO10). Statistics, and one of
     * the watchdog's two signals of new IO (IO7, IoWatchdog.newIoClaimedWhileTicking): a count that misses one moves
     * the watchdog's park by a tick, no more.
     */
    @Override
    public void ownEventsEndedSleep() {
        IO_WAKEUPS.setOpaque(this, ioWakeups + 1); // opaque: owner-only counter, read by statistics and the watchdog
    }

    // --- the owner's side: handling what is ready -------------------------------------------------------------------

    /**
     * Owner, in its idle search (outside every sleep step): registers what other threads handed it, steps the
     * operations its last blocking select found ready and sweeps closed channels. One finished operation is returned
     * for the caller to run at once; the others go onto its deque, where others can steal them (IO1). Returning one
     * instead of pushing it spares a protocol notification per completion: a worker woken by its own IO would
     * otherwise wake a second worker for the very job it is about to pop.
     *
     * @return a finished operation's job to run now, or null
     */
    public Job processReady(WorkerThread worker) {
        // volatile reads, and an opaque one of the last poll: a select that returned just now needs no second look
        boolean poll = selector != null && pendingOps > 0
                && System.nanoTime() - lastPollNanos() > IDLE_POLL_INTERVAL_NANOS;
        if (!poll && readyKeys.isEmpty() && !sweepRequested && interestRequests.isEmpty()) {
            return null;
        }
        FinishedOps finished = new FinishedOps(io);
        Consumer<SelectionKey> handle = key -> handleReadyKey(key, finished);
        boolean handedOut = false;
        try {
            applyInterestRequests(ownSelector(), finished);
            for (int i = 0; i < readyKeys.size(); i++) {
                handleReadyKey(readyKeys.get(i), finished);
            }
            readyKeys.clear();
            if (poll && finished.isEmpty() && pollLock.tryLock()) {
                // IO7: an idle search polls too, so IO that became ready while this worker searched (its rounds of
                // yielding can be long on an oversubscribed machine) is not left until it blocks. Skipped if someone
                // else polls right now: they hand out what they find.
                try {
                    selector.selectNow(handle);
                    countPoll();
                } finally {
                    pollLock.unlock(); // IO13: directly in finally
                    if (!deregistrations.isEmpty()) {
                        drainHandBacks(selector, handle); // IO13: after the unlock
                    }
                }
            }
            if (sweepRequested) {
                sweepRequested = false; // volatile, before the sweep: a request from now on is seen by the next search
                io.sweepClosed(this, finished);
            }
            if (finished.isEmpty()) {
                handedOut = true;
                return null;
            }
            IoOp<?> first = finished.get(0); // kept in the list until the others are out: a throw leaves it to finally
            io.queueFinished(finished, worker, 1);
            finished.clear();
            handedOut = true;
            return first;
        } catch (IOException e) {
            throw new UncheckedIOException("selector failed", e);
        } finally {
            if (!handedOut) {
                try {
                    io.queueFinished(finished, worker); // IO6: what was not handed out yet, each once
                } catch (Throwable overflowed) {
                    // IO6: the hand-out's call overflowed (a stack's edge): the rest is owed whole (FinishedOps.owe,
                    // written out inline: a call here could overflow again)
                    OwedLatchWakes owes = finished.owes;
                    if (owes != null) {
                        synchronized (owes) {
                            finished.nextOwed = owes.owedJobs;
                            owes.owedJobs = finished;
                        }
                        owes.any = true; // volatile, after the link: a delivery that takes `any` sees the list
                    }
                    throw overflowed;
                }
            }
        }
    }

    /** Owner, after each job: whether JOBS_PER_BUSY_POLL jobs ran since the last tick (IO7). */
    public boolean busyTick() {
        if (++jobsSincePoll < JOBS_PER_BUSY_POLL) {
            return false;
        }
        jobsSincePoll = 0;
        return true;
    }

    /** Owner, at a busy tick: a worker that holds IO polls without blocking (IO7). */
    public void pollIfHoldingIo(WorkerThread worker) {
        if (holdsIo()) {
            pollNow(worker);
        }
    }

    /**
     * IO12: the owner starts a top-level job (none of its jobs is on its stack, so nothing a direct completion ran is
     * either): the job gets the whole budget of direct completions. A job run inside a join's wait is nested and
     * keeps its caller's count, or a loop that waits in a join would start over at every turn.
     */
    public void topLevelJobStarting() {
        directCompletions = 0; // plain: owner only
    }

    /** A job starts on the owner: if it holds IO, the watchdog must be awake to poll for it if the job runs long. */
    public void jobStarting() {
        if (io.inUse()) { // one volatile load per job; a pool that never waited for IO goes no further
            // IO7's Dekker: our running depth (stored by the caller) before the load of pendingOps, against a
            // placer's increment before its load of our running depth (PoolIoImpl.start)
            VarHandle.fullFence();
            if (pendingOps > 0) {
                io.watchdog().ownerBusy();
            }
        }
    }

    /**
     * A non-blocking poll: by the owner while busy, or by the watchdog for a busy owner (IO7). Skipped if someone
     * else is polling (a failed try is not lost: the watchdog tries again at its next tick while the owner stays busy).
     *
     * @param worker the polling worker, whose deque gets the finished operations; null for the watchdog (injector)
     */
    void pollNow(WorkerThread worker) {
        if (selector == null && interestRequests.isEmpty()) {
            return;
        }
        FinishedOps finished = new FinishedOps(io); // before the lock, as in flushAfterCancel
        Consumer<SelectionKey> handle = key -> handleReadyKey(key, finished);
        if (!pollLock.tryLock()) {
            return;
        }
        try {
            Selector sel = ownSelector();
            applyInterestRequests(sel, finished);
            sel.selectNow(handle);
            countPoll();
            if (sweepIsDue()) {
                io.sweepClosed(this, finished); // IO8
            }
        } catch (IOException e) {
            throw new UncheckedIOException("selector failed", e);
        } finally {
            pollLock.unlock(); // IO13: directly in finally
            try {
                if (!deregistrations.isEmpty()) {
                    drainHandBacks(selector, handle); // IO13: after the unlock
                }
            } finally {
                try {
                    io.queueFinished(finished, worker); // IO6: what finished runs, even after a failure
                } catch (Throwable overflowed) {
                    // IO6: the hand-out's call overflowed (a stack's edge): the rest is owed whole (FinishedOps.owe,
                    // written out inline: a call here could overflow again)
                    OwedLatchWakes owes = finished.owes;
                    if (owes != null) {
                        synchronized (owes) {
                            finished.nextOwed = owes.owedJobs;
                            owes.owedJobs = finished;
                        }
                        owes.any = true; // volatile, after the link: a delivery that takes `any` sees the list
                    }
                    throw overflowed;
                }
            }
        }
        wakeIfLastOperationLeftElsewhere(); // the watchdog's poll may have finished the owner's last operation
    }

    private void handleReadyKey(SelectionKey key, FinishedOps finished) {
        READY_EVENTS.setOpaque(this, readyEvents + 1); // opaque: written by the lock holder or the owner; statistics
        Object state = key.attachment();
        if (!(state instanceof ChannelState)) {
            return; // a key of the sleep protocol's own (HINT_PIPE's hint pipe), read by the protocol itself
        }
        int ready;
        try {
            ready = key.readyOps();
        } catch (java.nio.channels.CancelledKeyException e) {
            return; // closed directly or detached: the sweep or the detacher finished its operations
        }
        ((ChannelState) state).onReady(ready, finished);
    }

    private void applyInterestRequests(Selector sel, FinishedOps finished) {
        for (ChannelState s; (s = interestRequests.poll()) != null; ) {
            applyInterest(s, sel, finished);
        }
    }

    /**
     * IO2, the owner or the poll-lock holder: applies a channel's interest. A hand-back's cancelled key of the channel
     * may still be in the selector (the hand-back's caller found the poll lock taken, and the holder has not selected
     * since): the registration then fails with nothing changed, and a selectNow deregisters that key before the
     * retry (IO13). Each retry follows a select made after the cancel of the key it met, which deregistered it; only
     * a new registration cancelled again (another hand-back, which needs no operation pending, so none wants this
     * interest then) could make it meet another.
     */
    private void applyInterest(ChannelState state, Selector sel, FinishedOps finished) {
        while (state.applyInterest(sel, finished)) {
            flushCancelledKey(sel, finished);
        }
    }

    /**
     * IO13, out of line (rare): one selectNow for applyInterest, which deregisters the cancelled key it met. Waits for
     * the poll lock: the caller is the owner outside its sleep steps (requestInterest, processReady: IO10's parking
     * path is not here), and every other holder only selects without blocking; or it holds the lock already
     * (pollNow, the owner's or the watchdog's), and takes it again. What the select finds ready goes into
     * {@code finished}, as the caller's own select would.
     */
    private void flushCancelledKey(Selector sel, FinishedOps finished) {
        Consumer<SelectionKey> handle = key -> handleReadyKey(key, finished); // before the lock, as in selectNowOrWake
        pollLock.lock();
        try {
            sel.selectNow(handle);
            countPoll();
        } catch (IOException e) {
            throw new UncheckedIOException("selector failed", e);
        } finally {
            pollLock.unlock(); // IO13: directly in finally
            if (!deregistrations.isEmpty()) {
                drainHandBacks(sel, handle); // IO13: after the unlock
            }
        }
    }

    /** IO8, poll-lock holder: at most one look for channels closed directly per DIRECT_CLOSE_NOTICE_MILLIS. */
    private boolean sweepIsDue() {
        long now = System.nanoTime();
        if (now - nextSweepNanos < 0) {
            return false;
        }
        nextSweepNanos = now + io.sweepMillis() * 1_000_000L;
        return true;
    }

    private void countPoll() {
        LAST_POLL.setOpaque(this, System.nanoTime()); // opaque: the watchdog's estimate, no ordering needed
        POLLS.setOpaque(this, polls + 1);
    }

    // --- other threads ----------------------------------------------------------------------------------------------

    /**
     * A channel homed here needs interest: the owner registers it at once if it is the caller; otherwise the request
     * is queued and the owner woken, wherever it sleeps (IO2, IO10).
     */
    void requestInterest(ChannelState state) {
        if (Thread.currentThread() == owner && !pollLock.isHeldByCurrentThread()) {
            FinishedOps failures = new FinishedOps(io);
            try {
                // what a flush of a cancelled key finished on the way, for other channels too, is in the list
                applyInterest(state, ownSelector(), failures);
            } finally {
                try {
                    io.queueFinished(failures, WorkerThread.current());
                } catch (Throwable overflowed) {
                    // IO6: the hand-out's call overflowed (a stack's edge): the rest is owed whole (FinishedOps.owe,
                    // written out inline: a call here could overflow again)
                    OwedLatchWakes owes = failures.owes;
                    if (owes != null) {
                        synchronized (owes) {
                            failures.nextOwed = owes.owedJobs;
                            owes.owedJobs = failures;
                        }
                        owes.any = true; // volatile, after the link: a delivery that takes `any` sees the list
                    }
                    throw overflowed;
                }
            }
            return;
        }
        interestRequests.add(state); // the queue's own publication (a volatile CAS), before unblock's RMW (IO10)
        unblock();
    }

    /**
     * IO8, the watchdog: a channel homed here was closed directly. The owner sweeps in its next idle search: woken if
     * it sleeps (an own event, as an interest request), or at once if it is searching; a busy owner's own busy polls
     * sweep too.
     */
    void requestSweep() {
        if (sweepRequested) {
            return; // volatile read: requested and delivered, not yet swept
        }
        sweepRequested = true; // volatile store before unblock's monitor: the woken owner's ownEventsReady sees it
        boolean delivered = false;
        try {
            unblock();
            delivered = true;
        } finally {
            if (!delivered) {
                sweepRequested = false; // the watchdog's next look asks again, and this time wakes the owner
            }
        }
    }

    /**
     * IO4: a thread other than the owner took this home's last pending operation away (a cancel, a poll for a busy
     * owner, a closer's flush). The owner may be selecting with idle keys still registered, which a later direct close
     * would leave holding the channel's descriptor (IO8: its select has no timeout, and the watchdog wakes only homes
     * with operations pending): wake it, so that it blocks again, now holding nothing, and deregisters them first.
     */
    void wakeIfLastOperationLeftElsewhere() {
        if (pendingOps == 0 && Thread.currentThread() != owner) { // volatile reads
            unblock(); // IO10: a flag, and at most one syscall per sleep
        }
    }

    void operationPlaced() {
        PENDING_OPS.getAndAdd(this, 1); // volatile RMW: read by the owner's holdsIo and the watchdog
    }

    void operationLeft() {
        PENDING_OPS.getAndAdd(this, -1); // volatile RMW
    }

    int pendingOps() {
        return pendingOps;
    }

    long lastPollNanos() {
        return (long) LAST_POLL.getOpaque(this);
    }

    /** The selector, opened on first use by whichever thread first needs it (IO2: one per worker, for ever). */
    private Selector ownSelector() {
        Selector s = selector;
        if (s == null) {
            synchronized (this) {
                s = selector;
                if (s == null) {
                    try {
                        s = Selector.open();
                    } catch (IOException e) {
                        throw new UncheckedIOException("cannot open a selector for worker " + index, e);
                    }
                    selector = s; // volatile: wakers read it after the mode
                }
            }
        }
        return s;
    }

    /** IO13: the channel's key in this poller's selector, cancelled or not, until the selector deregisters it. */
    SelectionKey keyFor(java.nio.channels.SelectableChannel channel) {
        Selector s = selector; // volatile
        return s == null ? null : channel.keyFor(s);
    }

    /** For HINT_PIPE: the selector the owner blocks in, so that the hint pipe can be watched there too. */
    public Selector selectorForHints() {
        return ownSelector();
    }

    /** The pool terminated: the selector is released (its channels are the callers'; their keys go with it). */
    void close() {
        Selector s = selector;
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // the descriptor is released either way
            }
        }
    }

    // --- statistics -------------------------------------------------------------------------------------------------

    long polls() {
        return (long) POLLS.getOpaque(this);
    }

    long readyEvents() {
        return (long) READY_EVENTS.getOpaque(this);
    }

    long ioWakeups() {
        return (long) IO_WAKEUPS.getOpaque(this);
    }

    /**
     * E6 (registry package-info): runs {@link #unblock()}'s two deliveries once, on a throwaway poller, so that their
     * call sites and the JDK's under them are linked before a pool accepts work: a selector's wake-up (its first call
     * links a native method, which allocates) and the select that consumes it, and the unpark of a parked owner. The
     * throwaway's owner is the calling thread, which may so find a spare permit: a later park of it returns once
     * spuriously, which every park's caller re-checks (LockSupport's contract).
     *
     * @throws UncheckedIOException if no selector can be opened (out of descriptors): the parking path is linked then
     */
    public static void linkWakePaths() {
        IoPoller p = new IoPoller(null, -1);
        p.bindOwner(Thread.currentThread());
        synchronized (p) {
            p.mode = PARKED;
        }
        p.unblock(); // the unpark
        Selector s;
        try {
            s = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector to link its wake-up", e);
        }
        try {
            p.selector = s;
            synchronized (p) {
                p.wakePending = false; // as the owner's block() consumes it (IO10), so that this unblock delivers
                p.mode = SELECTING;
            }
            p.unblock(); // selector.wakeup()
            s.select(); // returns at once (the wake-up is sticky) and consumes it, as the owner's select does
            s.wakeup();
            s.selectNow();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot link a selector's wake-up", e);
        } finally {
            try {
                s.close();
            } catch (IOException ignored) {
                // the descriptor is released either way
            }
        }
    }
}
