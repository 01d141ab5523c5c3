package io.spindle.internal.io;

import io.spindle.PoolIO;
import io.spindle.internal.executor.PoolCompletableFuture;
import io.spindle.internal.registry.OwedLatchWakes;
import io.spindle.internal.registry.Registry;
import io.spindle.internal.registry.Termination;
import io.spindle.internal.registry.WorkerThread;

import java.io.IOException;
import java.net.SocketAddress;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A pool's {@link PoolIO} (docs/DESIGN.md §6): argument checks, the channel table, where each operation goes (IO2), and
 * what happens to finished ones (IO1, and IO12 for those that finish at their call), to cancelled ones (IO3), on close
 * (IO8), on shutdown (IO9) and on a hand-back (IO13). The invariants IO1..IO13 are in this package's {@code
 * package-info.java}.
 */
public final class PoolIoImpl implements PoolIO {
    private final Registry registry;
    /**
     * IO6 under E1: where deregister owes its count back without a call ({@code Termination.owed}), taken once here so
     * that the owing itself makes none.
     */
    private final Termination countOwing;
    private final IoPoller[] pollers;
    /**
     * Every channel with a state in this pool; an entry leaves on close, when found closed, on shutdown, and when the
     * channel is handed back (IO13).
     */
    private final ConcurrentHashMap<SelectableChannel, ChannelState> channels = new ConcurrentHashMap<>();
    /** Round robin over the workers for channels first used off the pool. */
    private final AtomicInteger nextHome = new AtomicInteger();
    private volatile IoWatchdog watchdog; // started by the first operation that waits
    /** The table's size after the last look for closed channels (IO8), guarded by the table's monitor for writes. */
    private volatile int tableSizeAfterLastLook;
    private volatile boolean shutdown;

    public PoolIoImpl(Registry registry, int threads) {
        this.registry = registry;
        // null only for white-box tests that drive a poller with no pool (no registry, so no deregister either)
        this.countOwing = registry != null ? registry.ioCountOwing() : null;
        this.pollers = new IoPoller[threads];
        for (int i = 0; i < threads; i++) {
            pollers[i] = new IoPoller(this, i);
        }
        if (registry != null) {
            // resolves the field references through which a hand-out that overflowed owes its list (IO6,
            // FinishedOps), while the stack has room: nothing is linked, and `any` is false until the pool runs
            FinishedOps none = new FinishedOps(this);
            OwedLatchWakes owes = none.owes;
            synchronized (owes) {
                none.nextOwed = owes.owedJobs;
                owes.owedJobs = none.nextOwed;
            }
            owes.any = false;
        }
    }

    /** Worker {@code index}'s poller: its {@code Blocker} for every sleep protocol (IO5). */
    public IoPoller poller(int index) {
        return pollers[index];
    }

    IoPoller[] pollers() {
        return pollers;
    }

    WorkerThread[] workers() {
        return registry.workers();
    }

    java.util.concurrent.Executor executor() {
        return registry.executor();
    }

    long sweepMillis() {
        return DIRECT_CLOSE_NOTICE_MILLIS;
    }

    // --- the operations ---------------------------------------------------------------------------------------------

    @Override
    public CompletableFuture<Void> ready(SelectableChannel channel, int ops) {
        checkChannel(channel, "channel");
        if (ops == 0 || (ops & ~channel.validOps()) != 0) {
            throw new IllegalArgumentException("ops " + ops + " (0x" + Integer.toHexString(ops)
                    + ") is not a non-empty subset of the channel's valid ops 0x"
                    + Integer.toHexString(channel.validOps()));
        }
        return start(channel, s -> new IoOps.Ready(s, this, ops), READINESS_ONLY, null, "PoolIO.ready");
    }

    @Override
    public CompletableFuture<SocketChannel> accept(ServerSocketChannel server) {
        checkChannel(server, "server");
        return start(server, s -> new IoOps.Accept(s, this, server), ATTEMPT_FIRST, null, "PoolIO.accept");
    }

    @Override
    public CompletableFuture<Void> connect(SocketChannel channel, SocketAddress remote) {
        checkChannel(channel, "channel");
        Objects.requireNonNull(remote, "remote");
        return start(channel, s -> new IoOps.Connect(s, this, channel), ATTEMPT_FIRST, remote, "PoolIO.connect");
    }

    @Override
    public <C extends SelectableChannel & ReadableByteChannel> CompletableFuture<Integer> read(C channel,
                                                                                               ByteBuffer dst) {
        checkChannel(channel, "channel");
        Objects.requireNonNull(dst, "dst");
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("dst is read-only: " + dst);
        }
        if (!dst.hasRemaining()) {
            if (registry.isShutdown()) { // as every operation (docs/DESIGN.md §6), though this one places nothing
                throw registry.rejectedAfterShutdown("PoolIO.read", "its IO starts no new operation");
            }
            // docs/DESIGN.md §6: nothing remaining completes with 0 at once. It is complete when returned, so its
            // dependents run on whichever thread chains them, as for any completed future; no operation is placed.
            // Outside IO12's budget on purpose: a loop that reads into a full buffer again makes no progress, whatever
            // its stack does
            IoOp.Future<Integer> done = new IoOp.Future<>(registry.executor(), null);
            done.complete(0);
            return done;
        }
        // IO4: with the key already waiting for reads, readiness drives the read; a first attempt would be a wasted
        // syscall in a ping-pong (the next request is not there yet when the previous answer was written)
        return start(channel, s -> new IoOps.Read(s, this, channel, dst), ATTEMPT_UNLESS_REGISTERED, null,
                "PoolIO.read");
    }

    @Override
    public <C extends SelectableChannel & WritableByteChannel> CompletableFuture<Integer> write(C channel,
                                                                                                ByteBuffer src) {
        checkChannel(channel, "channel");
        Objects.requireNonNull(src, "src");
        return start(channel, s -> new IoOps.Write(s, this, channel, src), ATTEMPT_FIRST, null, "PoolIO.write");
    }

    @Override
    public void close(SelectableChannel channel) throws IOException {
        Objects.requireNonNull(channel, "channel");
        FinishedOps finished = new FinishedOps(this);
        WorkerThread caller = WorkerThread.currentOf(registry);
        ChannelState s = channels.get(channel);
        try {
            if (s != null) {
                // IO8: at once. IO3: failed while still in the table, and removed only after: an Error part of the way
                // (no memory for an exception, a stack overflow) leaves what it did not fail to the next close or to
                // shutdown's sweep, which walk the table, where removing first left those operations to nobody
                s.detachAndFail(AsynchronousCloseExceptions::closed, finished);
                channels.remove(channel, s);
            }
            channel.close();
        } finally {
            try {
                queueFinished(finished, caller);
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
            if (s != null) {
                s.home.flushAfterCancel(caller); // IO8: the close takes effect now, not at the home's next select
            }
        }
    }

    /**
     * IO13: hands the channel back. Its state leaves the table (so that a later operation registers it anew) and its
     * key is cancelled; then each selector of ours that still holds a cancelled key of the channel is made to select
     * ({@link IoPoller#drainHandBacks(WorkerThread)}), and the future completes on the pool once none holds one.
     */
    @Override
    public CompletableFuture<Void> deregister(SelectableChannel channel) {
        Objects.requireNonNull(channel, "channel");
        registry.acquireIoCount("PoolIO.deregister"); // IO6: refused after shutdown; held until the future's job ran
        boolean countIsTheJobs = false; // IO6: until the arming step below, the count is this call's to give back
        try {
            ChannelState s = channels.get(channel);
            if (s != null) {
                s.detachForHandBack(); // IllegalStateException if an operation is pending, leaving all as it was
                channels.remove(channel, s); // IO13: the next operation makes a new state and registers it again
            }
            // Every selector of ours that still holds a key of the channel: the one cancelled just now, or one that an
            // idle home (IO4), a close or shutdown cancelled and no select has deregistered yet. A valid key belongs to
            // an operation started after the hand-back (the caller's race): it is not waited for.
            IoPoller[] holding = new IoPoller[pollers.length];
            SelectionKey[] keys = new SelectionKey[pollers.length];
            int n = 0;
            for (IoPoller p : pollers) {
                SelectionKey k = p.keyFor(channel);
                if (k != null && !k.isValid()) {
                    Object cancellersState = k.attachment();
                    if (cancellersState != null) {
                        // IO13: every cancel of ours runs inside the monitor of the key's ChannelState (close,
                        // shutdown, an idle home's drop, a hand-back). Entering it once after the key read invalid
                        // orders that cancel's queueing of the key at its selector before our wait's add, so a pass
                        // judges a key lost only if the cancel threw part of the way (a stack's edge), not while it
                        // is still in progress. Empty on purpose: the monitor's ordering is the point.
                        synchronized (cancellersState) {
                        }
                    }
                    holding[n] = p;
                    keys[n++] = k;
                }
            }
            if (n == 0) {
                // nothing to wait for (a channel the pool never saw, or one no selector holds): complete when
                // returned, so its dependents run on whichever thread chains them, as for the empty read; the
                // count goes back in the finally
                PoolCompletableFuture<Void> done = new PoolCompletableFuture<>(registry.executor());
                done.complete(null);
                return done;
            }
            // IO13, IO6: every allocation first, then every wait queued and counted (queueHandBack), then the arming
            // step: the caller's own decrement of keysLeft (n + 1). Only once it returned is the count the job's: an
            // Error before it (a stack's edge) leaves keysLeft above zero for good, so no job can run, and the count
            // is given back below; queued waits are then stepped and removed by later passes, harmlessly.
            Deregistration d = new Deregistration(this, registry.executor(), n);
            Deregistration.Wait[] waits = new Deregistration.Wait[n];
            for (int i = 0; i < n; i++) {
                waits[i] = new Deregistration.Wait(d, keys[i]);
            }
            WorkerThread caller = WorkerThread.currentOf(registry);
            for (int i = 0; i < n; i++) {
                holding[i].queueHandBack(waits[i]); // IO13: the add, then the count (the Dekker's first side)
            }
            // IO13 arming: a volatile RMW, which happens or not as a whole (an overflow is thrown at a call's entry,
            // and after its CAS the RMW makes no call). Non-zero: the last key's waiter queues the job. Zero: every
            // key went already (passes since our adds) and we queue it: the injection never throws (IO6: a job it cannot
            // queue is owed and injected again). Between the RMW's return, or the inject's, and the flag: no call.
            if (d.keysLeft.decrementAndGet() == 0) {
                queueDeregistration(d);
            }
            countIsTheJobs = true; // IO6: from here the count is the job's
            for (int i = 0; i < n; i++) {
                holding[i].drainHandBacks(caller); // a select now, or the lock holder's release drains (IO13)
            }
            return d.future;
        } finally {
            if (!countIsTheJobs) {
                // IO6 under E1: given back without a call (a release here overflowed at a stack's edge and the pool
                // never terminated): Termination.owed, inside its monitor, which a finally takes without a call
                synchronized (countOwing) {
                    countOwing.owed++; // volatile read and write, exclusive under the monitor (Termination.owed)
                }
                try {
                    registry.settleOwedIoCounts(); // now where the stack allows; else the next release or wait does
                } catch (Throwable stillOwed) {
                    // still owed: settled by the next release, shutdown, isTerminated or wait for termination (E1)
                }
            }
        }
    }

    /** IO13, IO1: every key of a hand-back is deregistered; its job completes the future on a worker. */
    void queueDeregistration(Deregistration d) {
        // injected, whichever thread found the last key gone: that may be an owner inside a sleep step, which cannot
        // push (IO1); a hand-back is rare enough that the injector's cost does not matter
        registry.injectKept(d.jobToInject());
    }

    private interface OpFactory<T> {
        IoOp<T> create(ChannelState state);
    }

    /** {@link #start}: try the operation once at the call (write, accept: usually finishes there). */
    private static final int ATTEMPT_FIRST = 0;
    /** {@link #start}: wait for readiness only ({@code ready}). */
    private static final int READINESS_ONLY = 1;
    /** {@link #start}: try at once unless the key already waits for this readiness (read, IO4). */
    private static final int ATTEMPT_UNLESS_REGISTERED = 2;

    /**
     * Places an operation, tries it once if that may finish it, else makes its home wait for it.
     *
     * @param attempt   ATTEMPT_FIRST, READINESS_ONLY or ATTEMPT_UNLESS_REGISTERED
     * @param connectTo for connect: the address, whose connect call is the first attempt; else null
     * @param what      the public operation, for a rejection's message
     */
    private <T> CompletableFuture<T> start(SelectableChannel channel, OpFactory<T> factory, int attempt,
                                           SocketAddress connectTo, String what) {
        registry.acquireIoCount(what); // IO6: refused after shutdown; held until the future's job ran
        boolean placed = false;
        IoOp<T> op;
        ChannelState state;
        try {
            while (true) {
                state = stateFor(channel);
                op = factory.create(state);
                if (state.place(op)) { // throws ReadPendingException and the like, leaving nothing behind
                    break;
                }
                channels.remove(channel, state); // detached meanwhile (closed): look it up again
            }
            placed = true;
        } finally {
            if (!placed) {
                registry.releaseIoCount();
            }
        }
        WorkerThread caller = WorkerThread.currentOf(registry);
        boolean finishedAtOnce = false;
        if (connectTo != null) {
            finishedAtOnce = connectNow((IoOps.Connect) op, (SocketChannel) channel, connectTo);
        } else if (attempt == ATTEMPT_FIRST
                || (attempt == ATTEMPT_UNLESS_REGISTERED && !state.registeredFor(op.interest()))) {
            finishedAtOnce = state.attemptNow(op);
        }
        if (finishedAtOnce) {
            completeAtOnce(op, caller); // IO12: on the caller's stack only within its top-level job's budget
        } else {
            try {
                state.home.requestInterest(state); // IO2: the home registers it (now, if we are its owner)
            } catch (RuntimeException | Error e) { // no selector (out of descriptors): the operation fails, not hangs
                if (state.finishNow(op, e)) {
                    handOut(op, caller); // one operation: no list (queueFinished removes from the one it gets)
                }
                return op.future;
            }
            IoWatchdog watchdog = watchdog(); // started by the first operation that waits: from then on jobs check
            WorkerThread home = registry.workers()[state.home.index];
            // IO7's Dekker: our pendingOps increment (place) before the load of the home's depth; IO8's: before the
            // load of the watchdog's state (operationWaits)
            VarHandle.fullFence();
            watchdog.operationWaits();
            if (home == caller || home.isBusy()) {
                // IO7: the home runs a job (the caller's own, which may go on for long after placing this, or one that
                // began before the home held this operation): the watchdog must be up to poll for it if it runs long
                watchdog.ownerBusy();
            }
        }
        if (shutdown) { // IO9's Dekker: placed (monitor) before this read; shutdown set the flag before its sweep
            failOnShutdown(channel);
        }
        return op.future;
    }

    /** connect's first step at the call: the JDK throws the call's own errors here (already connected, ...). */
    private boolean connectNow(IoOps.Connect op, SocketChannel channel, SocketAddress remote) {
        boolean connected;
        try {
            connected = channel.connect(remote);
        } catch (IOException | Error e) {
            // the channel's failure goes into the future (docs/DESIGN.md §6); so does an Error (IO3), which must not
            // leave the operation PENDING behind a call that threw: every later connect would be refused as pending
            return op.channel.finishNow(op, e);
        } catch (RuntimeException e) {
            op.channel.withdrawAtOnce(op); // the call's own error (AlreadyConnectedException, ...): to the caller
            throw e;
        }
        return connected && op.channel.attemptNow(op);
    }

    private ChannelState stateFor(SelectableChannel channel) {
        ChannelState s = channels.get(channel);
        if (s != null) {
            return s;
        }
        s = channels.computeIfAbsent(channel, c -> new ChannelState(this, c, homeForNewChannel()));
        forgetClosedIfDue();
        return s;
    }

    /**
     * IO8: a channel closed directly after its operations finished is forgotten here. A new channel's arrival makes a
     * look over the table due once it has doubled since the last look (amortized O(1) per new channel), so a server
     * that closes its connections the ordinary way keeps a table the size of its open channels.
     */
    private void forgetClosedIfDue() {
        int size = channels.size();
        if (size < tableSizeAfterLastLook * 2 + 64) {
            return;
        }
        synchronized (channels) { // one look at a time; the table itself is concurrent
            if (channels.size() < tableSizeAfterLastLook * 2 + 64) {
                return;
            }
            FinishedOps finished = new FinishedOps(this);
            WorkerThread caller = WorkerThread.currentOf(registry);
            try {
                for (ChannelState s : channels.values()) {
                    if (s.isClosedDirectly()) {
                        s.detachAndFail(AsynchronousCloseExceptions::closed, finished); // IO3: fail, then remove
                        if (channels.remove(s.channel, s)) {
                            // IO8: the key is cancelled, but the descriptor stays open until the home's selector
                            // deregisters it, and a home that selects does so without a timeout: make it deregister
                            // now, as close does
                            s.home.flushAfterCancel(caller);
                        }
                    }
                }
                tableSizeAfterLastLook = channels.size();
            } finally {
                try {
                    queueFinished(finished, caller); // IO3: what failed before a throw is queued all the same
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

    /** IO2: the calling worker's own poller (locality), else the next worker round robin. */
    private IoPoller homeForNewChannel() {
        WorkerThread w = WorkerThread.currentOf(registry);
        if (w != null) {
            return pollers[w.index()];
        }
        return pollers[Math.floorMod(nextHome.getAndIncrement(), pollers.length)];
    }

    private static void checkChannel(SelectableChannel channel, String name) {
        Objects.requireNonNull(channel, name);
        if (channel.isBlocking()) {
            throw new IllegalBlockingModeException();
        }
    }

    // --- finished operations ----------------------------------------------------------------------------------------

    /**
     * IO12: how many operations that finished at their call one top-level job of a worker completes on its own stack
     * (the JDK's {@code sun.nio.ch.Invoker} allows 16 handler invocations per thread; Netty bounds its listener depth
     * at 8); the ones after it are pushed onto the worker's deque.
     */
    static final int MAX_DIRECT_COMPLETIONS = 8;

    /**
     * IO1 and IO12 for an operation that finished at its call (a write the socket took whole, a read whose bytes were
     * waiting, an accept with a connection waiting): on one of our workers its job runs right here, as the caller's own
     * continuation, sparing a push and the protocol's notification of a sleeper for it, as long as the worker's
     * current top-level job has completed fewer than {@link #MAX_DIRECT_COMPLETIONS} operations so; after that it is
     * pushed onto the worker's deque, so its future is still incomplete when the call returns. The count is never
     * given back within the top-level job, because the stage that continues a loop ({@code
     * read(...).whenComplete((n, e) -> loop())}) is attached after the call returned, when nothing of this method is
     * on the stack any more: a count that went down on return (as this one once did) was 0 again for every turn, and
     * each turn ran the next on the caller's stack until it overflowed. Off the pool it goes to the injector.
     */
    private void completeAtOnce(IoOp<?> op, WorkerThread caller) {
        if (caller == null) {
            handOut(op, null);
            try {
                registry.deliverOwedWakes(); // IO6: what this thread owed, if anything, as queueFinished does
            } catch (Throwable stillOwed) {
                // still owed: a worker's next wait round or idle search, or the watchdog's next step, delivers it
            }
            return;
        }
        IoPoller own = pollers[caller.index()];
        if (own.directCompletions >= MAX_DIRECT_COMPLETIONS) { // IO12: the budget is spent
            try {
                caller.push(op);
                return;
            } catch (VirtualMachineError exhaustion) {
                // E1: the push left the job out of the deque; the injector is the other way in, as in queueFinished
                // (kept out of that loop's frames: at a stack's edge a close's queueing has no frame to spare)
            }
            registry.injectKept(op);
            return;
        }
        own.directCompletions++; // IO12: plain, owner only; reset by the worker when its next top-level job starts
        op.execute(); // completes the future; dependents run here (CompletableFuture catches their failures)
    }

    /**
     * IO1: finished operations run as jobs on the pool: on {@code worker}'s deque (stealable) if the caller is one of
     * our workers outside any sleep step, else through the injector. Their terminate counts keep the pool alive
     * until they ran (IO6).
     */
    void queueFinished(FinishedOps finished, WorkerThread worker) {
        queueFinished(finished, worker, 0);
    }

    /**
     * IO6: hands out {@code finished}'s operations from index {@code keep} on, last first, each removed from the list
     * once it is handed out, so that exactly the ones not handed out stay: a throw part of the way (no memory for a
     * queue node) leaves the caller a list it can hand out again without running any operation twice. (A retry of
     * the whole list after a throw once pushed again the ones already pushed, and took the one that threw back: a
     * job taken back stayed marked as claimed, and the next poll dropped it.) An injection that fails once entered is
     * not a throw here: its notification, or the job itself, is owed ({@code Registry.injectKept}); but at a stack's
     * edge a call on the way (this one's entry, a list access, {@code injectKept}'s entry) can overflow, and then the
     * caller owes what is left ({@link FinishedOps}).
     */
    void queueFinished(FinishedOps finished, WorkerThread worker, int keep) {
        for (int last = finished.size() - 1; last >= keep; last--) {
            IoOp<?> op = finished.get(last);
            if (!op.handedOut) { // set by an earlier pass whose remove threw (a stack's edge): out already
                handOut(op, worker);
                op.handedOut = true; // a plain store, no call between the hand-out's return and it
            }
            finished.removeLast(); // no copy, no allocation
        }
        if (worker == null && registry != null) {
            // IO6: a thread that is not a worker may have owed what it handed out (injectKept), and with every worker
            // asleep nobody else may look soon: try to deliver it here, the owing stores already made
            try {
                registry.deliverOwedWakes();
            } catch (Throwable stillOwed) {
                // still owed: a worker's next wait round or idle search, or the watchdog's next step, delivers it
            }
        }
    }

    private void handOut(IoOp<?> op, WorkerThread worker) {
        if (worker != null && !op.injecting) {
            try {
                worker.push(op);
                return;
            } catch (VirtualMachineError exhaustion) {
                // E1: a push that throws left the job out of the deque; the injector is the other way in (IO6:
                // a finished operation must run, or its future stays incomplete and the pool never terminates)
            }
        }
        // IO6: once injected, always injected: an injection that threw may have linked the operation's node after
        // all (its queue's offer overflowing after the link, and then its catch block), and only the injector's claim
        // then keeps a retry from running the operation twice; a push would bypass it
        op.injecting = true;
        registry.injectKept(op);
    }

    /** IO10: where pollers owe a wake-up of their owner whose delivery threw; null for white-box pollers. */
    OwedLatchWakes owedWakes() {
        return registry != null ? registry.owedWakes() : null;
    }

    /** IO6, IO10: the watchdog, at the top of each step, delivers what threads that are not workers owed. */
    void deliverOwedWakes() {
        registry.deliverOwedWakes();
    }

    /** IO6: an operation's job ran, or it was withdrawn. */
    void operationEnded() {
        registry.releaseIoCount();
    }

    // --- closed channels and shutdown -------------------------------------------------------------------------------

    /** IO8: whether a channel homed at {@code poller} with pending operations was closed directly. */
    boolean anyClosedDirectly(IoPoller poller) {
        if (poller.pendingOps() == 0) {
            return false;
        }
        for (ChannelState s : channels.values()) {
            if (s.home == poller && s.isClosedDirectly()) {
                return true;
            }
        }
        return false;
    }

    /**
     * IO8, the watchdog, at most every {@link #DIRECT_CLOSE_NOTICE_MILLIS} while operations are pending: one look over
     * the table; the home of each channel found closed directly is asked to sweep (it fails what is pending there and
     * its selector deregisters the key). Its owners thus select without a timeout.
     */
    void requestSweepsForClosedChannels() {
        for (ChannelState s : channels.values()) {
            // a home with nothing pending need not wake: no operation to fail, and it holds no key while it parks
            // (IO4); forgetClosedIfDue drops the entry later
            if (s.home.pendingOps() > 0 && s.isClosedDirectly()) {
                s.home.requestSweep();
            }
        }
    }

    /** IO8: fails the pending operations of channels homed at {@code poller} that were closed directly. */
    void sweepClosed(IoPoller poller, FinishedOps finished) {
        for (ChannelState s : channels.values()) {
            if (s.home == poller && s.isClosedDirectly()) {
                s.detachAndFail(AsynchronousCloseExceptions::closed, finished); // IO3: fail, then remove
                channels.remove(s.channel, s);
            }
        }
    }

    /**
     * IO9: called by the pool's shutdown after its flag is set: every pending operation fails with {@code
     * ShutdownChannelGroupException} and its channel is deregistered (not closed).
     */
    public void shutdown() {
        shutdown = true; // volatile: IO9's Dekker with start()
        FinishedOps finished = new FinishedOps(this);
        try {
            for (ChannelState s : channels.values()) {
                s.detachAndFail(AsynchronousCloseExceptions::shutdown, finished); // IO3: fail, then remove
                channels.remove(s.channel, s);
            }
        } finally {
            try {
                queueFinished(finished, null); // IO3: what failed before a throw is queued all the same
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

    private void failOnShutdown(SelectableChannel channel) {
        ChannelState s = channels.get(channel);
        if (s != null) {
            FinishedOps finished = new FinishedOps(this);
            try {
                s.detachAndFail(AsynchronousCloseExceptions::shutdown, finished); // IO3: fail, then remove
                channels.remove(channel, s);
            } finally {
                try {
                    queueFinished(finished, null);
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

    /** The pool terminated and every worker exited: selectors and the watchdog go. */
    public void close() {
        IoWatchdog w = watchdog;
        if (w != null) {
            w.shutdown();
        }
        for (IoPoller p : pollers) {
            p.close();
        }
    }

    /** Whether any operation ever waited here: the watchdog runs (a volatile read). */
    boolean inUse() {
        return IoWatchdog.ENABLED && watchdog != null;
    }

    IoWatchdog watchdog() {
        IoWatchdog w = watchdog;
        if (w == null) {
            synchronized (this) {
                w = watchdog;
                if (w == null) {
                    w = new IoWatchdog(this, registry.name());
                    if (IoWatchdog.ENABLED) {
                        w.start(); // else an object that is never woken: ownerBusy returns at once
                    }
                    watchdog = w; // volatile: published started
                }
            }
        }
        return w;
    }

    // --- statistics -------------------------------------------------------------------------------------------------

    /** @return polls of worker {@code index}'s selector (blocking, busy, and the watchdog's for it) */
    public long polls(int index) {
        return pollers[index].polls();
    }

    /** @return ready keys worker {@code index}'s poller handled */
    public long readyEvents(int index) {
        return pollers[index].readyEvents();
    }

    /** @return sleeps of worker {@code index} that its own IO ended (no waker) */
    public long ioWakeups(int index) {
        return pollers[index].ioWakeups();
    }

    /** @return polls the watchdog made for busy owners */
    public long watchdogPolls() {
        IoWatchdog w = watchdog;
        return w == null ? 0 : w.helpedPolls();
    }
}
