package io.spindle.internal.sleep;

import java.util.concurrent.locks.LockSupport;

/**
 * The default {@link Blocker}: {@code LockSupport.park} and {@code unpark}. The thread's one permit is exactly the
 * contract: an unpark before the park makes the park return at once. A waker pays one atomic step and the unpark's
 * futex wake, where a lock and a condition cost it a lock, a queue transfer and an unlock that unparks (J6).
 */
final class ParkingBlocker implements Blocker {
    private volatile Thread owner; // volatile: bound by the owner, read by wakers on any thread

    /** Owner, before it first blocks: the thread a waker unparks. */
    void bind(Thread thread) {
        owner = thread;
    }

    @Override
    public void block() {
        LockSupport.park(this); // "this" shows in thread dumps as what the worker parks on
    }

    @Override
    public void unblock() {
        LockSupport.unpark(owner); // null (never blocked yet) is a no-op: a thread that never blocked needs no permit
    }
}
