package io.spindle.internal.latch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A counter that sets a target latch when it drops to zero: a scope's "body and every spawned task ended" (RFC 5,
 * {@code CountLatch}). It starts at one, for the body (or the operation that opened it).
 */
public final class CountLatch {
    private static final VarHandle COUNT;

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(CountLatch.class, "count", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Latch target;
    private volatile long count;

    /**
     * Decrements owed by a submitter whose job never entered the pool (E1 in the registry package): it adds one here
     * inside this object's monitor, which it takes without a call, so that a catch block at a stack edge can give its
     * count back ({@link #decrement()}, a VarHandle call, could overflow there, and the scope would wait for ever).
     * Written only inside the monitor; volatile so that {@link #decrement()} can test it without taking it. The owing
     * thread settles it at once where its stack allows; else the next decrement does: whoever owes normally holds a
     * count of its own (the body, or a running task), so one comes.
     */
    public volatile long owed;

    public CountLatch(Latch target) {
        this(target, 1L);
    }

    /** A count latch that sets {@code target} after {@code initialCount} decrements. */
    public CountLatch(Latch target, long initialCount) {
        if (initialCount < 1) {
            throw new IllegalArgumentException("initialCount must be >= 1, got " + initialCount);
        }
        this.target = target;
        this.count = initialCount;
    }

    /**
     * One more outstanding task, unless the count already reached zero (the latch is finished and must stay so).
     *
     * @return false if the count was zero
     */
    public boolean tryIncrement() {
        while (true) {
            long c = (long) COUNT.getVolatile(this);
            if (c == 0) {
                return false;
            }
            if (COUNT.compareAndSet(this, c, c + 1)) { // volatile CAS: ordered before the task is published
                return true;
            }
        }
    }

    /** One task ended; the last one sets the target. */
    public void decrement() {
        // getAndAdd is volatile: every task's writes happen-before the final decrement, which sets the target.
        if ((long) COUNT.getAndAdd(this, -1L) == 1L) {
            target.set();
        } else if (owed != 0) { // volatile read: the owing happened before the owing thread's own decrement
            settleOwed();
        }
    }

    /** Moves the owed decrements ({@link #owed}) into the count; sets the target if that ends it. */
    public void settleOwed() {
        long n;
        synchronized (this) { // exclusive with the owing threads and the other settlers: each owed count moves once
            n = owed;
            owed = 0;
        }
        if (n == 0) {
            return;
        }
        long before;
        try {
            before = (long) COUNT.getAndAdd(this, -n); // volatile RMW, as decrement()
        } catch (Throwable failure) {
            synchronized (this) { // the RMW did not happen: the counts stay owed (no call in this catch block)
                owed += n;
            }
            throw failure;
        }
        if (before == n) {
            target.set();
        }
    }

    public Latch target() {
        return target;
    }
}
