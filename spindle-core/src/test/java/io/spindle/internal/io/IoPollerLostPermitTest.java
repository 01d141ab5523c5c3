package io.spindle.internal.io;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * IO10 on the parking path, found by a hang in the io-starvation benchmark: an owner that parks first deregisters its
 * idle keys (IO4), which takes the poll lock; if another thread (a closer's flush, the watchdog) held it, the owner
 * waited in the lock, parked there, and swallowed the unpark of a waker that had seen it PARKED; it then parked for
 * ever, with the wake flag left set so that no later waker unparked it either. The flush now comes before the owner
 * publishes PARKED. The timeouts only turn a hang into a failure.
 */
class IoPollerLostPermitTest {
    @Test
    void anUnblockWhileTheOwnerWaitsForThePollLockBeforeParkingIsNotLost() throws Exception {
        PoolIoImpl io = new PoolIoImpl(null, 1); // the parking path touches no registry
        IoPoller poller = io.poller(0);
        Pipe pipe = Pipe.open();
        try {
            pipe.source().configureBlocking(false);
            // a key left in the owner's selector (an earlier channel's): parking deregisters it under the poll lock
            pipe.source().register(poller.selectorForHints(), SelectionKey.OP_READ);
            ReentrantLock pollLock = pollLock(poller);
            pollLock.lock(); // plays a closer's flushAfterCancel, or the watchdog's poll
            Thread owner = new Thread(poller::block, "owner");
            poller.bindOwner(owner);
            owner.start();
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!pollLock.hasQueuedThread(owner) && System.nanoTime() < deadline) {
                    Thread.onSpinWait(); // the owner now waits for the lock, inside block()
                }
                poller.unblock();
            } finally {
                pollLock.unlock();
            }
            owner.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(owner.isAlive(), "the owner's block() never returned: the unblock was lost");
        } finally {
            pipe.source().close();
            pipe.sink().close();
            poller.close();
        }
    }

    private static ReentrantLock pollLock(IoPoller poller) throws ReflectiveOperationException {
        Field f = IoPoller.class.getDeclaredField("pollLock");
        f.setAccessible(true);
        return (ReentrantLock) f.get(poller);
    }
}
