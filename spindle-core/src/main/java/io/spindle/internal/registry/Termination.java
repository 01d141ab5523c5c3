package io.spindle.internal.registry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The pool's terminate count and shutdown flag in one word (docs/DESIGN.md §2.5). The count starts at one, held by
 * the pool itself until {@code shutdown}; every accepted external job and every spawned task holds one more until it
 * ended. When shutdown has happened and the count reaches zero, no work is left anywhere (joins and scope tasks live
 * inside counted jobs) and the pool terminates: this happens exactly once.
 */
public final class Termination {
    private static final long SHUTDOWN = 1L << 62;
    private static final long COUNT_MASK = SHUTDOWN - 1;
    private static final VarHandle WORD;

    static {
        try {
            WORD = MethodHandles.lookup().findVarHandle(Termination.class, "word", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Runnable onTerminate;
    private volatile long word = 1;

    /**
     * Counts whose give-back is owed (E1 in this package): a submission that throws gives its count back by adding one
     * here, inside this object's monitor, which it takes without a call, so that a catch block at a stack edge can do
     * it (a release, a VarHandle call, could overflow there, and the count would never come back: the pool would not
     * terminate). Written only inside the monitor; volatile so that {@link #release()} can test it without taking it.
     * {@link #settleOwed()} moves it into the word: the owing thread tries at once (where its stack allows), and
     * the next release does, and so do shutdown, the wait for termination and {@code isTerminated}, the calls that
     * depend on the count being whole. Other packages (IO6, {@code PoolIoImpl.deregister}) owe an IO count the same
     * way, on the object {@code Registry.ioCountOwing()} returns: {@code synchronized (t) { t.owed++; }}, nothing
     * else, then {@code Registry.settleOwedIoCounts()} where the stack allows.
     */
    public volatile long owed;

    Termination(Runnable onTerminate) {
        this.onTerminate = onTerminate;
    }

    /** An external submission: refused once shutdown began. */
    boolean tryAcquireExternal() {
        while (true) {
            long w = (long) WORD.getVolatile(this);
            if ((w & SHUTDOWN) != 0) {
                return false;
            }
            if (WORD.compareAndSet(this, w, w + 1)) { // volatile CAS: the flag and the count change together
                return true;
            }
        }
    }

    /**
     * A submission from inside the pool (a running job spawns): allowed after shutdown while work is outstanding,
     * refused only once the pool terminated (count zero after shutdown; e.g. from an exit hook).
     */
    boolean tryAcquireInternal() {
        while (true) {
            long w = (long) WORD.getVolatile(this);
            if (w == SHUTDOWN) {
                return false;
            }
            if (WORD.compareAndSet(this, w, w + 1)) { // volatile CAS
                return true;
            }
        }
    }

    void release() {
        long w = (long) WORD.getAndAdd(this, -1L) - 1; // volatile RMW: a job's effects happen-before termination
        assert (w & COUNT_MASK) != COUNT_MASK : "terminate count underflow";
        if (w == SHUTDOWN) {
            onTerminate.run();
        } else if (owed != 0) { // volatile read; an owing it misses is settled by a later call (see owed)
            settleOwed();
        }
    }

    /** Moves the owed give-backs into the word ({@link #owed}); terminates if that ends the count after shutdown. */
    void settleOwed() {
        long n;
        synchronized (this) { // exclusive with the owing threads and the other settlers: each owed count moves once
            n = owed;
            owed = 0;
        }
        if (n == 0) {
            return;
        }
        long w;
        try {
            w = (long) WORD.getAndAdd(this, -n) - n; // volatile RMW, as release()
        } catch (Throwable failure) {
            synchronized (this) { // the RMW did not happen: the counts stay owed (no call in this catch block)
                owed += n;
            }
            throw failure;
        }
        assert (w & COUNT_MASK) != COUNT_MASK : "terminate count underflow";
        if (w == SHUTDOWN) {
            onTerminate.run();
        }
    }

    /** Starts shutdown: sets the flag and drops the pool's own count, once. */
    void shutdown() {
        while (true) {
            long w = (long) WORD.getVolatile(this);
            if ((w & SHUTDOWN) != 0) {
                return;
            }
            long updated = (w | SHUTDOWN) - 1;
            if (WORD.compareAndSet(this, w, updated)) { // volatile CAS
                if (updated == SHUTDOWN) {
                    onTerminate.run();
                } else {
                    settleOwed(); // the owed counts are part of what termination waits for
                }
                return;
            }
        }
    }

    boolean isShutdown() {
        return ((long) WORD.getVolatile(this) & SHUTDOWN) != 0;
    }

    /** For diagnostics: outstanding counted jobs (plus one until shutdown), less those whose give-back is owed. */
    long outstanding() {
        return ((long) WORD.getVolatile(this) & COUNT_MASK) - owed;
    }
}
