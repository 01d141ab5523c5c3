package io.spindle.internal.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * One jcstress sample of {@link IoPoller}'s IO10 hand-off (its {@code block()} against {@code unblock()} and
 * {@code requestInterest}), as a model: blocking cannot be observed in jcstress, so the owner's actor runs
 * {@code block()}'s steps up to its decision (return at once, park, or select) and stops there, where a real owner
 * would stay blocked (its mode stays PARKED or SELECTING: the model never stores RUNNING after a decision to block).
 * The other actor runs {@code unblock()} to its decision (no syscall, {@code unpark}, {@code selector.wakeup()}, or
 * nothing because the selector was not open yet). Both sides make IoPoller's accesses, with the same kinds
 * (volatile store, volatile getAndSet, volatile load; the request queue is a {@link ConcurrentLinkedQueue}) in the
 * same order: keep this class in step with {@code IoPoller.block}, {@code unblock}, {@code holdsIo},
 * {@code selectUntilWoken} (its {@code ownSelector} and {@code applyInterestRequests}) and {@code requestInterest}.
 *
 * <p>{@code unpark} and {@code wakeup} are sticky (a park or select that starts later returns at once), so an owner
 * that decided to block is woken exactly when the other side delivered one of them, or when the owner's own poll of
 * the request queue took the request (it registered it before selecting: the request's reason to wake is gone).
 *
 * <p>Subclasses in the test sources weaken one step (they must show the lost wake-up).
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
    /** Waker delivery: mode RUNNING, no syscall (the owner's getAndSet will see the flag). */
    public static final int SAW_RUNNING = 1;
    /** Waker delivery: {@code selector.wakeup()}. */
    public static final int WAKEUP = 2;
    /** Waker delivery: {@code LockSupport.unpark(owner)}. */
    public static final int UNPARK = 3;
    /** Waker delivery: mode SELECTING but the selector not open yet: nothing delivered. */
    public static final int SELECTING_NO_SELECTOR = 4;

    private static final VarHandle MODE;
    private static final VarHandle WAKE_PENDING;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            MODE = l.findVarHandle(IoPollerHandOffModel.class, "mode", int.class);
            WAKE_PENDING = l.findVarHandle(IoPollerHandOffModel.class, "wakePending", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int mode = RUNNING;
    private volatile boolean wakePending;
    private volatile int pendingOps;
    private volatile Object selector;
    private final ConcurrentLinkedQueue<Object> interestRequests = new ConcurrentLinkedQueue<>();
    /** Owner only: whether its poll of the queue (applyInterestRequests, before the select) took a request. */
    private boolean tookRequest;

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
        if (announceAndConsume(select ? SELECTING : PARKED)) {
            return RETURNED;
        }
        if (select) {
            ownSelector(); // selectUntilWoken: the selector, opened on first use
            tookRequest = interestRequests.poll() != null; // applyInterestRequests, before the select
            return WOULD_SELECT;
        }
        return WOULD_PARK;
    }

    /**
     * IO10, the owner's half of the Dekker pair: mode (volatile store), then consume the wake flag (volatile RMW).
     *
     * @return whether a wake-up was pending (the owner returns at once)
     */
    protected boolean announceAndConsume(int newMode) {
        MODE.setVolatile(this, newMode);
        return (boolean) WAKE_PENDING.getAndSet(this, false);
    }

    private boolean holdsIo() {
        return pendingOps > 0 || !interestRequests.isEmpty();
    }

    private void ownSelector() {
        if (selector == null) {
            selector = new Object(); // volatile store: Selector.open(), published as IoPoller.ownSelector does
        }
    }

    public final boolean tookRequest() {
        return tookRequest;
    }

    // --- other threads ----------------------------------------------------------------------------------------------

    /** {@code requestInterest} from a thread that is not the owner: queue, then unblock. @return the delivery */
    public final int requestInterest() {
        interestRequests.add(Boolean.TRUE); // the queue's own publication (a volatile CAS), before unblock's RMW
        return unblock();
    }

    /**
     * {@code unblock()}, the waker's half of IO10: set the flag (volatile RMW), then load the mode.
     *
     * @return FLAG_ALREADY_SET, SAW_RUNNING, WAKEUP, UNPARK or SELECTING_NO_SELECTOR
     */
    public int unblock() {
        if (!(boolean) WAKE_PENDING.getAndSet(this, true)) {
            int m = (int) MODE.getVolatile(this);
            if (m == SELECTING) {
                return selector != null ? WAKEUP : SELECTING_NO_SELECTOR;
            }
            return m == PARKED ? UNPARK : SAW_RUNNING;
        }
        return FLAG_ALREADY_SET;
    }

    public final boolean requestsQueued() {
        return !interestRequests.isEmpty();
    }

    /** For weakened subclasses. */
    protected final void storeMode(int m) {
        MODE.setVolatile(this, m);
    }

    protected final boolean consumeFlag() {
        return (boolean) WAKE_PENDING.getAndSet(this, false);
    }

    protected final boolean setFlag() {
        return (boolean) WAKE_PENDING.getAndSet(this, true);
    }

    protected final int loadMode() {
        return (int) MODE.getVolatile(this);
    }

    protected final boolean selectorOpen() {
        return selector != null;
    }
}
