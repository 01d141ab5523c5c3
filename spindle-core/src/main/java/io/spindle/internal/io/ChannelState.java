package io.spindle.internal.io;

import java.io.IOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ReadPendingException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.WritePendingException;
import java.util.ArrayList;
import java.util.function.Supplier;

/**
 * What the pool knows about one channel: the poller that serves it (its home, IO2), its registration there, and its
 * pending operations, one slot per kind (docs/DESIGN.md §6: at most one read and one write). Every field is guarded by
 * this object's monitor: the caller that starts an operation, the poller that finds it ready, a canceller, a closer and
 * shutdown all meet here, so each operation leaves PENDING exactly once (IO3). The monitor is never held while an
 * operation's job runs or a future completes: finished operations are handed out in a list and queued by the caller.
 */
final class ChannelState {
    final PoolIoImpl io;
    final SelectableChannel channel;
    final IoPoller home;

    private IoOp<?> read;
    private IoOp<?> write;
    /** accept or connect: a channel supports one or the other, never both. */
    private IoOp<?> acceptOrConnect;
    private final ArrayList<IoOps.Ready> readies = new ArrayList<>(1);
    private SelectionKey key;
    /** The interest the key was last given (IO4: added at once, removed lazily). */
    private int registeredInterest;
    /**
     * Removed from the pool (closed through PoolIO, found closed, shut down, or handed back: IO13): a new operation
     * finds it so and looks the channel up again.
     */
    private boolean detached;

    ChannelState(PoolIoImpl io, SelectableChannel channel, IoPoller home) {
        this.io = io;
        this.channel = channel;
        this.home = home;
    }

    // --- starting ---------------------------------------------------------------------------------------------------

    /**
     * Puts {@code op} in its slot. Throws, leaving nothing behind, for a second read or write (docs/DESIGN.md §6).
     *
     * @return false if this state was detached meanwhile: the caller looks the channel up again
     */
    synchronized boolean place(IoOp<?> op) {
        if (detached) {
            return false;
        }
        if (op instanceof IoOps.Read) {
            if (read != null && !endWithdrawalForPlacement(read)) {
                throw new ReadPendingException();
            }
            read = op;
        } else if (op instanceof IoOps.Write) {
            if (write != null && !endWithdrawalForPlacement(write)) {
                throw new WritePendingException();
            }
            write = op;
        } else if (op instanceof IoOps.Ready) {
            readies.add((IoOps.Ready) op);
        } else {
            if (acceptOrConnect != null && !endWithdrawalForPlacement(acceptOrConnect)) {
                // a second accept or connect: the JDK's own rule for AsynchronousServerSocketChannel / connect
                throw op instanceof IoOps.Accept ? new java.nio.channels.AcceptPendingException()
                        : new java.nio.channels.ConnectionPendingException();
            }
            acceptOrConnect = op;
        }
        home.operationPlaced(); // IO5: the home now holds IO, so its owner selects when idle
        return true;
    }

    /**
     * One step of {@code op} at the call, before any registration (a write usually finishes here).
     *
     * @return whether it finished; the caller queues it
     */
    synchronized boolean attemptNow(IoOp<?> op) {
        if (op.phase != IoOp.PENDING) {
            return false; // cancelled, closed or shut down meanwhile: whoever did it queued or dropped it
        }
        if (step(op)) {
            clear(op);
            return true;
        }
        return false;
    }

    /**
     * The first step at the call threw the channel's failure (connect): {@code op} finishes with it.
     *
     * @return whether it finished here (false: cancelled, closed or shut down meanwhile)
     */
    synchronized boolean finishNow(IoOp<?> op, Throwable failure) {
        if (op.phase != IoOp.PENDING) {
            return false;
        }
        op.finishExceptionally(failure);
        clear(op);
        return true;
    }

    /** Whether the key already waits for {@code ops}, so that readiness will report them without a first attempt. */
    synchronized boolean registeredFor(int ops) {
        return key != null && (registeredInterest & ops) == ops && key.isValid();
    }

    // --- the poller's side ------------------------------------------------------------------------------------------

    /**
     * The home's owner (or the watchdog for a busy owner, IO7): registers the channel, or adds interest that a new
     * operation needs. Interest is only added here; it is removed lazily when readiness comes that nobody wants (IO4).
     *
     * @return true if nothing was done because the selector still holds a cancelled key of this open channel (a
     *         hand-back's, IO13): the caller makes it select once and calls again
     */
    boolean applyInterest(Selector selector, FinishedOps finished) {
        synchronized (this) {
            if (detached) {
                return false;
            }
            int wanted = wantedInterest();
            if ((registeredInterest | wanted) == registeredInterest && key != null && key.isValid()) {
                return false;
            }
            try {
                if (key == null || !key.isValid()) {
                    if (wanted == 0) {
                        return false;
                    }
                    key = channel.register(selector, wanted, this); // IO2: on the home's selector only
                    registeredInterest = wanted;
                } else {
                    int interest = registeredInterest | wanted;
                    key.interestOps(interest);
                    registeredInterest = interest; // after the call: one that throws leaves no interest recorded as set
                }
            } catch (CancelledKeyException e) {
                if (channel.isOpen()) {
                    // IO13: a hand-back's cancelled key of this channel, still in the selector (only a select
                    // deregisters it; the JDK's register then finds it and throws): not a close. Nothing fails; the
                    // caller flushes the selector and asks again (IoPoller.applyInterest)
                    return true;
                }
                failAllLocked(AsynchronousCloseExceptions::closed, null, finished); // closed directly meanwhile
            } catch (ClosedChannelException e) {
                failAllLocked(AsynchronousCloseExceptions::closed, null, finished); // closed directly meanwhile
            } catch (Throwable failure) {
                // IllegalBlockingModeException after a switch to blocking, and the like; an Error too (IO3): the
                // caller took this request off its home's queue, so an Error thrown on would lose it for good, and
                // the operations waiting for the registration would stay PENDING with nothing to wake them
                failAllLocked(null, failure, finished);
            }
            return false;
        }
    }

    /**
     * The poller found the key ready for {@code readyOps}: one step of every pending operation that waits for any of
     * them. Finished operations are added to {@code finished} for the caller to queue outside the monitor.
     */
    synchronized void onReady(int readyOps, FinishedOps finished) {
        if (detached) {
            return;
        }
        int waitedFor = wantedInterest(); // before the steps: readiness that some pending operation waited for
        finished.reserve(3 + readies.size()); // IO6: before any step, so that listing one makes no call
        stepIfReady(read, readyOps, finished);
        stepIfReady(write, readyOps, finished);
        stepIfReady(acceptOrConnect, readyOps, finished);
        for (int i = readies.size() - 1; i >= 0; i--) {
            IoOps.Ready r = readies.get(i);
            if (IoOp.wants(r.interest(), readyOps)) {
                r.readyOps = readyOps;
                stepIfReady(r, readyOps, finished);
            }
        }
        // IO4: readiness that no pending operation waited for is dropped from the key now, so a level-triggered
        // selector does not report it again and again (a connection whose reader stopped); write and connect
        // interest goes as soon as nobody wants it (a writable socket stays writable). Read interest that an
        // operation just used stays: the next read of a ping-pong finds it registered and costs no epoll_ctl.
        int unwanted = (registeredInterest & ~waitedFor & readyOps)
                | (registeredInterest & ~wantedInterest() & (IoOp.WRITE | IoOp.CONNECT));
        if (unwanted != 0 && key != null && key.isValid()) {
            registeredInterest &= ~unwanted;
            try {
                key.interestOps(registeredInterest);
            } catch (CancelledKeyException e) {
                // closed directly meanwhile: the sweep fails what is still pending (IO8)
            }
        }
    }

    private void stepIfReady(IoOp<?> op, int readyOps, FinishedOps finished) {
        // IO11: a WITHDRAWING operation keeps its slot a moment longer, but takes nothing the channel gives
        if (op != null && op.phase == IoOp.PENDING && IoOp.wants(op.interest(), readyOps) && step(op)) {
            finished.ops[finished.size++] = op; // IO6: listed before it leaves its slot, with no call (reserved)
            clear(op);
        }
    }

    /**
     * One attempt; a failure finishes the operation exceptionally. Under the monitor.
     *
     * <p>Anything the attempt throws goes into the operation's future (docs/DESIGN.md §6), Errors included (IO3): an
     * OutOfMemoryError for the JDK's temporary direct buffer, a StackOverflowError at the call. Left to propagate, an
     * Error left the operation PENDING in its slot with its counts: a future nobody held (at the call) or that never
     * completed (on readiness, where the Error came back on every round), and every later operation of its kind on the
     * channel refused as pending. Finishing it here allocates nothing.
     */
    private boolean step(IoOp<?> op) {
        try {
            if (op.attempt()) {
                op.phase = IoOp.FINISHED;
                return true;
            }
            return false;
        } catch (Throwable failure) {
            op.finishExceptionally(failure);
            return true;
        }
    }

    /** Removes a finished or withdrawn operation from its slot and from its home's count (IO5). */
    private void clear(IoOp<?> op) {
        if (read == op) {
            read = null;
        } else if (write == op) {
            write = null;
        } else if (acceptOrConnect == op) {
            acceptOrConnect = null;
        } else {
            readies.remove(op);
        }
        home.operationLeft();
    }

    /** The interest of the operations still waiting: PENDING ones (IO11: a WITHDRAWING one waits for nothing). */
    private int wantedInterest() {
        int wanted = interestOf(read) | interestOf(write) | interestOf(acceptOrConnect);
        for (int i = 0; i < readies.size(); i++) {
            wanted |= interestOf(readies.get(i));
        }
        return wanted;
    }

    private static int interestOf(IoOp<?> op) {
        return op != null && op.phase == IoOp.PENDING ? op.interest() : 0;
    }

    private boolean hasPendingLocked() {
        return read != null || write != null || acceptOrConnect != null || !readies.isEmpty();
    }

    /**
     * IO4, IO8, the home's owner about to park under its poll lock: a registration with nothing pending is cancelled
     * (the caller's selectNow deregisters it); the next operation registers the channel again.
     */
    synchronized void dropRegistrationIfIdle(SelectionKey k) {
        if (key == k && !hasPendingLocked()) {
            k.cancel();
            key = null;
            registeredInterest = 0;
        }
    }

    // --- hand-back (PoolIO.deregister) -------------------------------------------------------------------------------

    /**
     * IO13: detaches this state for a hand-back and cancels its key (the caller then waits for a select of the home to
     * deregister it). Later operations on the channel find the state detached, look it up again and register it anew.
     * A withdrawing operation whose future is complete ends its withdrawal here first, as a placement would (a stage
     * of a cancelled read that hands the channel back runs before the cancel's second step).
     *
     * @throws IllegalStateException naming the pending operation, if one is: nothing changes then
     */
    synchronized void detachForHandBack() {
        if (detached) {
            return; // closed, found closed or shut down: nothing pending, the key was cancelled then
        }
        IoOp<?> pending = stillPending(read);
        pending = pending != null ? pending : stillPending(write);
        pending = pending != null ? pending : stillPending(acceptOrConnect);
        for (int i = readies.size() - 1; i >= 0 && pending == null; i--) {
            pending = stillPending(readies.get(i));
        }
        if (pending != null) {
            throw new IllegalStateException("cannot hand back " + channel + ": a "
                    + pending.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT)
                    + " is pending on it (deregister needs every operation on the channel to have ended)");
        }
        detached = true;
        if (key != null) {
            key.cancel(); // deregistered by the home's next select (IO13: the caller makes one happen)
            key = null;
            registeredInterest = 0;
        }
    }

    /** detachForHandBack: {@code op} if it still holds its slot, after ending a withdrawal whose future is done. */
    private IoOp<?> stillPending(IoOp<?> op) {
        if (op == null || endWithdrawalForPlacement(op)) {
            return null;
        }
        return op;
    }

    // --- cancel, close, shutdown ------------------------------------------------------------------------------------

    /**
     * IO11's first step, for an outside completion (cancel, complete, completeExceptionally, completeAsync, obtrude*):
     * a PENDING operation becomes WITHDRAWING. It keeps its slot and its counts until {@link #endWithdrawal}, after the
     * caller completed the future; in between no step runs it and no interest is kept for it. Two steps, so that an
     * Error between them (a stack overflow inside the completion) leaves an operation that a later outside completion,
     * a close, a sweep or shutdown still finishes (failLocked), rather than a future that nobody completes.
     *
     * @return false if {@code op} already finished (its outcome goes to the future); true if it is withdrawing or was
     *         withdrawn (now or by an earlier outside completion)
     */
    synchronized boolean beginWithdrawal(IoOp<?> op) {
        if (op.phase == IoOp.PENDING) {
            op.phase = IoOp.WITHDRAWING;
            return true;
        }
        return op.phase != IoOp.FINISHED;
    }

    /**
     * IO11's second step: a WITHDRAWING operation leaves its slot and gives its counts back. Nothing if someone ended
     * it first: a new operation placed in its slot (a dependent stage of the completed future), an earlier call, or
     * close, a sweep or shutdown, which finished it instead.
     */
    void endWithdrawal(IoOp<?> op) {
        synchronized (this) {
            if (op.phase != IoOp.WITHDRAWING) {
                return;
            }
            clear(op); // may overflow: before the slot is free, the operation stays WITHDRAWING for failLocked
            op.phase = IoOp.WITHDRAWN; // last, and no call after the clear: WITHDRAWN means slot and home count freed
        }
        io.operationEnded(); // outside the monitor: this may be the pool's last count, and termination follow
        home.wakeIfLastOperationLeftElsewhere(); // IO4: a cancel leaves the home's key registered; outside the monitor
    }

    /**
     * place, under the monitor: ends the withdrawal of {@code old}, in the slot a new operation wants, if it is
     * WITHDRAWING and its future is complete (a dependent stage of that future starts the next read before the
     * completion's second step). Its terminate count is given back here, under the monitor, which is safe only
     * because the placing caller (or a hand-back, IO13) holds a count of its own: this cannot be the pool's last.
     * A FINISHED operation still in its slot is one whose {@code clear} overflowed at its entry after it finished,
     * under this monitor (IO6): a poll's or a close's listed it first, and its job runs from the list; one finished at
     * its call was lost with the call's throw (IO6's "Not covered"). Either way only the slot and the home's count are
     * left to free (a close, sweep or shutdown frees them too: failLocked).
     *
     * @return whether the slot is free now
     */
    private boolean endWithdrawalForPlacement(IoOp<?> old) {
        if (old.phase == IoOp.FINISHED) {
            clear(old);
            return true;
        }
        // only once its future is complete: a placement from another thread, between the outside completion's two
        // steps, must not end a withdrawal whose completion may still fail (its future would then stay incomplete)
        if (old.phase != IoOp.WITHDRAWING || !old.future.isDone()) {
            return false;
        }
        clear(old);
        old.phase = IoOp.WITHDRAWN; // after the clear, as in endWithdrawal
        io.operationEnded();
        return true;
    }

    /** connect's call threw its own error: the operation placed for it leaves at once, with no future completed. */
    void withdrawAtOnce(IoOp<?> op) {
        if (beginWithdrawal(op)) {
            endWithdrawal(op);
        }
    }

    /**
     * Detaches this state from the pool and finishes every pending operation with a fresh failure from
     * {@code cause}; the key is cancelled (the channel is deregistered, not closed: IO9).
     */
    void detachAndFail(Supplier<? extends Throwable> cause, FinishedOps finished) {
        synchronized (this) {
            // IO3: fail first, detach after. An Error part of the way leaves a state that still serves its channel and
            // whose remaining operations the next close, sweep or shutdown fails; detached first, they were stranded.
            failAllLocked(cause, null, finished);
            detached = true;
            if (key != null) {
                key.cancel();
            }
        }
    }

    /**
     * Every pending operation fails: each with a fresh failure from {@code cause}, or all with {@code fixed} when it is
     * not null (applyInterest's own failure: no allocation but the list's).
     */
    private void failAllLocked(Supplier<? extends Throwable> cause, Throwable fixed, FinishedOps finished) {
        finished.reserve(3 + readies.size()); // IO6: before any operation fails, so that listing one makes no call
        failLocked(read, cause, fixed, finished);
        failLocked(write, cause, fixed, finished);
        failLocked(acceptOrConnect, cause, fixed, finished);
        for (int i = readies.size() - 1; i >= 0; i--) {
            failLocked(readies.get(i), cause, fixed, finished);
        }
    }

    private void failLocked(IoOp<?> op, Supplier<? extends Throwable> cause, Throwable fixed, FinishedOps finished) {
        // IO11: a WITHDRAWING operation is finished too: its outside completion may have failed part of the way, and
        // its job then gives the counts back (and completes the future if nobody did)
        if (op != null && (op.phase == IoOp.PENDING || op.phase == IoOp.WITHDRAWING)) {
            op.finishExceptionally(fixed != null ? fixed : cause.get());
            finished.ops[finished.size++] = op; // IO6: listed before it leaves its slot, with no call (reserved)
            clear(op);
        } else if (op != null && op.phase == IoOp.FINISHED) {
            clear(op); // IO6: listed by the step that finished it, whose clear overflowed: only the slot is left
        }
    }

    /** The sweep for channels closed directly (IO8): only reads the channel's flag. */
    boolean isClosedDirectly() {
        return !channel.isOpen();
    }
}
