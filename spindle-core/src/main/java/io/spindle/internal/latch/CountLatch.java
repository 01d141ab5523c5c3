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
        }
    }

    public Latch target() {
        return target;
    }
}
