package io.spindle.internal.io;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * IO10 with E4's owed wake-ups: a delivery that threw owes its wake-up, and its reset of the wake flag runs under the
 * poller's monitor, which at the stack's edge can itself overflow and leave the flag set. The owed wake-up must still
 * wake the owner: {@code unblockOwed} clears the flag before it unblocks, where a plain {@code unblock} finds the flag
 * set and makes no wake-up. The timeouts only turn a hang into a failure.
 */
class IoPollerOwedUnblockTest {
    @Test
    void anOwedWakeUpWakesTheOwnerEvenWithTheWakeFlagLeftSet() throws Exception {
        PoolIoImpl io = new PoolIoImpl(null, 1); // the blocking paths touch no registry
        IoPoller poller = io.poller(0);
        Thread owner = new Thread(poller::block, "owner");
        poller.bindOwner(owner);
        owner.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (field(poller, "mode").getInt(poller) == 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // RUNNING until the owner publishes PARKED or SELECTING
            }
            synchronized (poller) {
                // as a delivery that threw and whose reset of the flag overflowed: set, with nobody woken
                field(poller, "wakePending").setBoolean(poller, true);
            }
            poller.unblock(); // coalesces with the failed delivery: nothing is made (what Registry's delivery called)
            poller.unblockOwed();
            owner.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(owner.isAlive(), "the owed wake-up was not made: the owner still blocks");
        } finally {
            poller.unblock();
            owner.join(TimeUnit.SECONDS.toMillis(5));
            poller.close();
        }
    }

    private static Field field(IoPoller poller, String name) throws ReflectiveOperationException {
        Field f = IoPoller.class.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }
}
