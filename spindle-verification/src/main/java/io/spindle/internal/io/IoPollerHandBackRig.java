package io.spindle.internal.io;

import io.spindle.internal.registry.WorkerThread;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * One jcstress sample of IO13's hand-back on the REAL {@link IoPoller} (its poll lock, its queue of waits, its two
 * counters) and a real {@link Selector}: a pool's IO with one poller and no registry ({@code new PoolIoImpl(null, 1)};
 * nothing here finishes an operation or injects a job, the only paths that need the registry), its selector opened
 * ({@link IoPoller#selectorForHints()}, i.e. {@code ownSelector()}), and one unbound non-blocking
 * {@link DatagramChannel} per hand-back, registered there and its key cancelled, as {@code PoolIoImpl.deregister}
 * leaves it (detachForHandBack cancels the key; no select has deregistered it yet). Each hand-back's
 * {@link Deregistration} is made for one key more than it waits for here, so that the wait's step never injects the
 * job (that would need the registry): the wait still leaves the queue only once stepped, which is what is observed.
 *
 * <p>The real steps: {@link #handBackReal(int)} is what {@code PoolIoImpl.deregister} does at one poller
 * ({@code queueHandBack}: the add and the count's volatile RMW; then {@code drainHandBacks(caller)}:
 * {@code selectNowOrWake});
 * {@link #watchdogPoll()} is a real holder of the poll lock, {@code pollNow(null)} (the watchdog's poll for a busy
 * owner: tryLock, selectNow, unlock in the finally, then the drain after the unlock).
 *
 * <p>What is observed once both sides are done (so nobody is draining any more): waits still queued, whether the
 * count of waits added is ahead of the count the passes covered, whether the poll lock is still held, and the selects
 * made, and how many of the callers' tryLocks failed (the Dekker's interesting side: the wait is then left to the
 * holder's drain). For that count the poller's final {@code pollLock} is replaced, before the actors start, by a
 * {@link ReentrantLock} whose {@code tryLock} is the JDK's and then counts a failure by a thread other than the holder
 * (after the lock's volatile read, so the pair's order is untouched). The private fields are read through a private
 * lookup (no accessor in spindle-core); the weakened variants in
 * the test sources reorder the same private steps ({@link #addWait}, {@link #countWait}, {@link #selectNowOrWake},
 * {@link #drainAfterUnlock}). Every rig opens a selector and channels: {@link #close()} them (the tests do, in their
 * arbiter).
 */
public final class IoPollerHandBackRig {
    private static final VarHandle DEREGISTRATIONS;
    private static final VarHandle QUEUED;
    private static final VarHandle COVERED;
    private static final VarHandle POLL_LOCK;
    private static final MethodHandle SELECT_NOW_OR_WAKE;
    private static final MethodHandle DRAIN_AFTER_UNLOCK;
    private static final MethodHandle COUNT_POLL;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.privateLookupIn(IoPoller.class, MethodHandles.lookup());
            DEREGISTRATIONS = l.findVarHandle(IoPoller.class, "deregistrations", ConcurrentLinkedQueue.class);
            QUEUED = l.findVarHandle(IoPoller.class, "handBacksQueued", long.class);
            COVERED = l.findVarHandle(IoPoller.class, "handBacksCovered", long.class);
            POLL_LOCK = l.findVarHandle(IoPoller.class, "pollLock", ReentrantLock.class);
            SELECT_NOW_OR_WAKE = l.findVirtual(IoPoller.class, "selectNowOrWake",
                    MethodType.methodType(void.class, Selector.class, WorkerThread.class));
            DRAIN_AFTER_UNLOCK = l.findVirtual(IoPoller.class, "drainHandBacks",
                    MethodType.methodType(void.class, Selector.class, Consumer.class));
            COUNT_POLL = l.findVirtual(IoPoller.class, "countPoll", MethodType.methodType(void.class));
        } catch (ReflectiveOperationException e) {
            // IoPoller's IO13 fields or methods were renamed: keep this rig in step with it
            throw new ExceptionInInitializerError(e);
        }
    }

    final IoPoller poller;
    final Selector selector;
    private final DatagramChannel[] channels;
    private final Deregistration.Wait[] waits;
    private final ConcurrentLinkedQueue<?> queue;
    private final CountingLock pollLock = new CountingLock();
    /** The holder actor's thread (set by the holder before it polls; read by the same thread in tryLock). */
    private volatile Thread holderThread;

    /** The JDK's ReentrantLock; a failed tryLock by anyone but the holder is counted (after the lock's own read). */
    private final class CountingLock extends ReentrantLock {
        final AtomicInteger callerFailures = new AtomicInteger();

        @Override
        public boolean tryLock() {
            boolean got = super.tryLock();
            if (!got && Thread.currentThread() != holderThread) {
                callerFailures.incrementAndGet();
            }
            return got;
        }
    }

    private final SelectionKey[] keys;
    private final boolean cancelledBefore;

    /** @param handBacks hand-backs (channels, each with its cancelled key and its wait), queued by the actors */
    public IoPollerHandBackRig(int handBacks) {
        this(handBacks, true);
    }

    /**
     * @param handBacks       hand-backs (channels, each with its key and its wait), queued by the actors
     * @param cancelledBefore whether the keys are cancelled here, before the actors start; else each caller cancels
     *                        its key first, as {@code PoolIoImpl.deregister}'s detachForHandBack does (so a holder's
     *                        select may come before the cancel and leave the key in the selector)
     */
    public IoPollerHandBackRig(int handBacks, boolean cancelledBefore) {
        this.cancelledBefore = cancelledBefore;
        keys = new SelectionKey[handBacks];
        poller = new PoolIoImpl(null, 1).poller(0);
        try {
            Field f = IoPoller.class.getDeclaredField("pollLock"); // a final instance field: writable once accessible
            f.setAccessible(true);
            f.set(poller, pollLock); // before the actors see the state (jcstress publishes it safely)
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("keep this rig in step with IoPoller.pollLock", e);
        }
        selector = poller.selectorForHints(); // ownSelector(): opened as an operation's registration opens it
        channels = new DatagramChannel[handBacks];
        waits = new Deregistration.Wait[handBacks];
        try {
            for (int i = 0; i < handBacks; i++) {
                channels[i] = DatagramChannel.open();
                channels[i].configureBlocking(false);
                SelectionKey key = channels[i].register(selector, 0); // nobody selects yet: does not block
                keys[i] = key;
                if (cancelledBefore) {
                    key.cancel(); // detachForHandBack; the selector still holds it until a select deregisters it
                }
                // one key more than waited for here: the wait's step never reaches zero, so never injects the job
                waits[i] = new Deregistration.Wait(new Deregistration(poller.io, null, 2), key);
            }
        } catch (IOException e) {
            close();
            throw new UncheckedIOException(e);
        }
        queue = (ConcurrentLinkedQueue<?>) DEREGISTRATIONS.get(poller);
        if (POLL_LOCK.get(poller) != pollLock) {
            throw new IllegalStateException("the poller's poll lock was not replaced");
        }
    }

    // --- the real steps ---------------------------------------------------------------------------------------------

    /**
     * PoolIoImpl.deregister at this poller, off the pool (caller null): the key's cancel (if the caller cancels it),
     * queueHandBack, then drainHandBacks(caller).
     */
    public void handBackReal(int i) {
        cancel(i);
        poller.queueHandBack(waits[i]);
        poller.drainHandBacks((WorkerThread) null);
    }

    /** A real poll-lock holder: the watchdog's poll for a busy owner (IO7), which drains after its unlock (IO13). */
    public void watchdogPoll() {
        holderIs(Thread.currentThread());
        poller.pollNow(null);
    }

    // --- the same private steps, for the weakened copies in the test sources -----------------------------------------

    /**
     * queueHandBack's first step alone: the wait's add (the queue's CAS), after the key's cancel if the caller cancels
     * it. Not queueHandBack itself, which also counts the wait: a weakened variant moves {@link #countWait()}.
     */
    @SuppressWarnings("unchecked")
    public void addWait(int i) {
        cancel(i);
        ((ConcurrentLinkedQueue<Deregistration.Wait>) DEREGISTRATIONS.get(poller)).add(waits[i]);
    }

    /** detachForHandBack's cancel, unless the rig cancelled the keys before the actors started. */
    private void cancel(int i) {
        if (!cancelledBefore) {
            keys[i].cancel();
        }
    }

    /** queueHandBack's second step: the count's volatile RMW (before drainHandBacks(caller)'s tryLock). */
    public void countWait() {
        QUEUED.getAndAdd(poller, 1L);
    }

    /** drainHandBacks(caller)'s second step: a pass under the poll lock if tryLock gets it, else a wakeup. */
    public void selectNowOrWake() {
        try {
            SELECT_NOW_OR_WAKE.invokeExact(poller, selector, (WorkerThread) null);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The actor that holds the poll lock (its failed tryLocks are not the callers'). */
    public void holderIs(Thread t) {
        holderThread = t;
    }

    /** The poll lock itself (a weakened holder takes and releases it as pollNow does). */
    public ReentrantLock pollLock() {
        return pollLock;
    }

    /** A holder's selectNow under the lock, counted as pollNow counts it. */
    public void selectNowHolding() {
        try {
            selector.selectNow(key -> { });
            COUNT_POLL.invokeExact(poller);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The holder's check after its unlock, the Dekker's second side: whether the queue holds a wait. */
    public boolean waitsQueued() {
        return !queue.isEmpty();
    }

    /** The private drain every holder calls after its unlock when the queue is not empty. */
    public void drainAfterUnlock() {
        try {
            DRAIN_AFTER_UNLOCK.invokeExact(poller, selector, (Consumer<SelectionKey>) key -> { });
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    // --- what is observed once both sides are done -------------------------------------------------------------------

    /** Waits still in the queue: with nobody draining any more, each is a hand-back whose future never completes. */
    public int waitsLeft() {
        return queue.size();
    }

    /** Waits counted that no finished pass covered. */
    public int uncovered() {
        return (int) ((long) QUEUED.getVolatile(poller) - (long) COVERED.getVolatile(poller));
    }

    /** 1 if the poll lock is still held (by a thread that went on), else 0. */
    public int lockHeld() {
        return pollLock.isLocked() ? 1 : 0;
    }

    /** The hand-back callers' tryLocks that failed (each left its wait to the holder's drain, and woke the selector). */
    public int callerTryLocksFailed() {
        return pollLock.callerFailures.get();
    }

    /** Selects made on the poller's selector (a holder's poll, and each pass). */
    public int polls() {
        return (int) poller.polls();
    }

    /** Whether hand-back {@code i}'s key is still in the selector (no select since its cancel deregistered it). */
    public boolean keyStillHeld(int i) {
        return channels[i].keyFor(selector) != null;
    }

    /** Closes the selector and the channels. */
    public void close() {
        try {
            selector.close();
        } catch (IOException ignored) {
            // released either way
        }
        for (DatagramChannel c : channels) {
            if (c != null) {
                try {
                    c.close();
                } catch (IOException ignored) {
                    // released either way
                }
            }
        }
    }
}
