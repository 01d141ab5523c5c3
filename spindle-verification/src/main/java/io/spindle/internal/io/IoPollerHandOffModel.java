package io.spindle.internal.io;

import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * One jcstress sample of {@link IoPoller}'s IO10 hand-off (its {@code block()} against {@code unblock()} and
 * {@code requestInterest}), as a model: blocking cannot be observed in jcstress, so the owner's actor runs
 * {@code block()}'s steps up to its decision (return at once, park, or select) and stops there, where a real owner
 * would stay blocked (its mode stays PARKED or SELECTING: the model never stores RUNNING after a decision to block).
 * The other actor runs {@code unblock()} to its decision (no syscall, {@code unpark}, {@code selector.wakeup()}, or
 * nothing because the selector was not open yet). Both sides make IoPoller's accesses, with the same kinds and in the
 * same order: the wake flag and the mode are plain fields guarded by the model's monitor ({@code synchronized (this)},
 * as IoPoller guards them by its own), {@code pendingOps} and {@code selector} are volatile, the selector is opened by
 * double-checked locking on that same monitor, and the request queue is a {@link ConcurrentLinkedQueue}. Keep this
 * class in step with {@code IoPoller.block}, {@code unblock}, {@code holdsIo}, {@code ownSelector},
 * {@code selectUntilWoken} (its look at the request queue before selecting) and {@code requestInterest}.
 *
 * <p>{@code unpark} and {@code wakeup} are sticky (a park or select that starts later returns at once), so an owner
 * that decided to block is woken exactly when the other side delivered one of them, or when the owner's own look at
 * the request queue, after it stored SELECTING and before it selects, found the request (it then leaves its sleep and
 * registers it: the request's reason to wake is gone).
 *
 * <p>Subclasses in the test sources weaken one step (they must show the lost wake-up): they override
 * {@link #consumeOrAnnounce}, the owner's part between its {@code holdsIo} and its wait.
 */
public class IoPollerHandOffModel {
    static final int RUNNING = 0;
    static final int PARKED = 1;
    static final int SELECTING = 2;

    /** Owner decision: it consumed a pending wake-up and returns at once. */
    public static final int RETURNED = 0;
    /** Owner decision: it would park (it holds no IO). */
    public static final int WOULD_PARK = 1;
    /** Owner decision: it would select (it holds IO). */
    public static final int WOULD_SELECT = 2;

    /** Waker delivery: the flag was already set, no syscall (the owner's next block consumes it). */
    public static final int FLAG_ALREADY_SET = 0;
    /** Waker delivery: mode RUNNING, no syscall (the owner's next block will find the flag). */
    public static final int SAW_RUNNING = 1;
    /** Waker delivery: {@code selector.wakeup()}. */
    public static final int WAKEUP = 2;
    /** Waker delivery: {@code LockSupport.unpark(owner)}. */
    public static final int UNPARK = 3;
    /**
     * Waker delivery: mode SELECTING but the selector not open yet: IoPoller's {@code selector.wakeup()} throws a
     * NullPointerException, its finally clears the flag again, and nothing is delivered.
     */
    public static final int SELECTING_NO_SELECTOR = 4;

    /** Guarded by this model's monitor (IoPoller: by the poller's). */
    int mode = RUNNING;
    /** Guarded by this model's monitor (IoPoller: by the poller's). */
    boolean wakePending;
    private volatile int pendingOps;
    private volatile Object selector;
    private final ConcurrentLinkedQueue<Object> interestRequests = new ConcurrentLinkedQueue<>();
    /** Owner only: whether selectUntilWoken's look at the queue, before the select, found a request. */
    private boolean foundRequest;

    /**
     * @param pendingOps  operations already placed on channels homed here (IO5: the owner selects when idle)
     * @param selectorOpen whether the poller's selector was opened earlier (IO2: on first use)
     */
    public IoPollerHandOffModel(int pendingOps, boolean selectorOpen) {
        this.pendingOps = pendingOps;
        this.selector = selectorOpen ? new Object() : null;
    }

    // --- the owner: IoPoller.block() up to its decision -------------------------------------------------------------

    /** @return RETURNED, WOULD_PARK or WOULD_SELECT */
    public final int ownerBlock() {
        boolean select = holdsIo(); // watchingPipe is false: no HINT_PIPE here
        if (consumeOrAnnounce(select)) {
            return RETURNED;
        }
        if (select) {
            // selectUntilWoken: requests queued (own events) end the sleep before the select
            foundRequest = !interestRequests.isEmpty();
            return WOULD_SELECT;
        }
        return WOULD_PARK;
    }

    /**
     * IO10, the owner's half, as IoPoller.block() has it: open the selector if it will select (before SELECTING is
     * visible), then, in one critical section, consume the wake flag or store the mode.
     *
     * @return whether a wake-up was pending (the owner returns at once)
     */
    protected boolean consumeOrAnnounce(boolean select) {
        if (select) {
            ownSelector(); // open before SELECTING is visible: a waker wakes it
        }
        synchronized (this) {
            if (wakePending) {
                wakePending = false; // consumed: an unblock since our last block
                return true;
            }
            mode = select ? SELECTING : PARKED;
        }
        return false;
    }

    private boolean holdsIo() {
        return pendingOps > 0 || !interestRequests.isEmpty();
    }

    /** IoPoller.ownSelector(): double-checked on the volatile field, opened under this model's monitor. */
    protected final Object ownSelector() {
        Object s = selector;
        if (s == null) {
            synchronized (this) {
                s = selector;
                if (s == null) {
                    s = new Object(); // Selector.open()
                    selector = s;     // volatile: wakers read it after the mode
                }
            }
        }
        return s;
    }

    public final boolean foundRequest() {
        return foundRequest;
    }

    // --- other threads ----------------------------------------------------------------------------------------------

    /** {@code requestInterest} from a thread that is not the owner: queue, then unblock. @return the delivery */
    public final int requestInterest() {
        interestRequests.add(Boolean.TRUE); // the queue's own publication (a volatile CAS), before unblock's monitor
        return unblock();
    }

    /**
     * {@code unblock()}, the waker's half of IO10: in one critical section, set the flag if it was clear and read the
     * mode; then deliver outside it. A delivery that fails (a null selector: IoPoller's {@code selector.wakeup()}
     * throws) clears the flag again under the monitor, as IoPoller's finally does.
     *
     * @return FLAG_ALREADY_SET, SAW_RUNNING, WAKEUP, UNPARK or SELECTING_NO_SELECTOR
     */
    public final int unblock() {
        int m;
        synchronized (this) {
            if (wakePending) {
                return FLAG_ALREADY_SET;
            }
            wakePending = true;
            m = mode;
        }
        if (m == SELECTING) {
            if (selector != null) { // volatile load, as IoPoller's selector.wakeup() makes
                return WAKEUP;
            }
            synchronized (this) {
                wakePending = false; // not delivered: the finally clears the flag for the caller's retry
            }
            return SELECTING_NO_SELECTOR;
        }
        return m == PARKED ? UNPARK : SAW_RUNNING;
    }

    public final boolean requestsQueued() {
        return !interestRequests.isEmpty();
    }
}
