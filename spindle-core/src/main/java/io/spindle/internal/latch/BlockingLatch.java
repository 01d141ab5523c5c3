package io.spindle.internal.latch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A latch for a thread outside the pool: the owner parks until the latch is set. Waiting is uninterruptible (an
 * interrupt is remembered and restored on return), like {@code ForkJoinTask.join}: the work it waits for was
 * accepted and will run.
 */
public final class BlockingLatch implements Latch {
    private static final VarHandle SET;

    static {
        try {
            SET = MethodHandles.lookup().findVarHandle(BlockingLatch.class, "set", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Thread owner;
    private volatile boolean set;

    /** A latch owned by the calling thread. */
    public BlockingLatch() {
        this.owner = Thread.currentThread();
    }

    @Override
    public void set() {
        SET.setVolatile(this, true); // volatile: releases the setter's writes; ordered before the unpark below
        LockSupport.unpark(owner);   // unpark before park is remembered, so no wake-up is lost
    }

    @Override
    public boolean probe() {
        return (boolean) SET.getAcquire(this); // acquire: pairs with the setter's volatile store
    }

    /** Owner: blocks until set; an interrupt meanwhile is restored on return. */
    public void await() {
        boolean interrupted = false;
        while (!probe()) {
            LockSupport.park(this);
            if (Thread.interrupted()) { // clear it, or park would return at once forever
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Owner: blocks until set or until {@code nanos} passed.
     *
     * @return whether the latch is set
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean await(long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        while (!probe()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            LockSupport.parkNanos(this, Math.min(left, TimeUnit.SECONDS.toNanos(1)));
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
        return true;
    }
}
