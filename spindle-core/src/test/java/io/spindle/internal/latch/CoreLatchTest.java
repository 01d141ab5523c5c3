package io.spindle.internal.latch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class CoreLatchTest {
    /** A worker latch whose owner wake-ups are counted instead of delivered. */
    private static final class CountingOwner implements LatchOwner {
        final AtomicInteger wakes = new AtomicInteger();

        @Override
        public void wakeLatchOwner(int index) {
            wakes.incrementAndGet();
        }
    }

    @Test
    void setOverUnsetOrSleepyDoesNotWakeAndStopsTheOwnerFromSleeping() {
        CountingOwner owner = new CountingOwner();
        WorkerLatch unset = new WorkerLatch(owner, 0);
        unset.set();
        assertTrue(unset.probe());
        assertFalse(unset.getSleepy(), "a set latch cannot get sleepy");

        WorkerLatch sleepy = new WorkerLatch(owner, 0);
        assertTrue(sleepy.getSleepy());
        sleepy.set();
        assertFalse(sleepy.fallAsleep(), "SLEEPY -> SLEEPING must fail once set");
        assertEquals(0, owner.wakes.get());
    }

    @Test
    void setOverSleepingWakesTheOwnerOnce() {
        CountingOwner owner = new CountingOwner();
        WorkerLatch latch = new WorkerLatch(owner, 3);
        assertTrue(latch.getSleepy());
        assertTrue(latch.fallAsleep());
        latch.set();
        latch.set(); // idempotent: no second wake
        assertEquals(1, owner.wakes.get());
        latch.wakeUp();
        assertEquals(CoreLatch.SET, latch.state(), "wakeUp never unsets a set latch");
    }

    @Test
    void wakeUpReturnsAnUnsetLatchToUnset() {
        WorkerLatch latch = new WorkerLatch(new CountingOwner(), 0);
        assertTrue(latch.getSleepy());
        assertTrue(latch.fallAsleep());
        latch.wakeUp();
        assertEquals(CoreLatch.UNSET, latch.state());
        assertTrue(latch.getSleepy(), "can sleep again");
    }

    @Test
    void countLatchSetsItsTargetOnTheLastDecrementOnly() {
        CountingOwner owner = new CountingOwner();
        WorkerLatch target = new WorkerLatch(owner, 0);
        CountLatch count = new CountLatch(target);
        assertTrue(count.tryIncrement());
        assertTrue(count.tryIncrement());
        count.decrement();
        count.decrement();
        assertFalse(target.probe());
        count.decrement();
        assertTrue(target.probe());
        assertFalse(count.tryIncrement(), "a finished count latch stays finished");
    }

    /** E1: a submitter whose job never entered the pool owes its decrement; its holder's decrement settles it. */
    @Test
    void countLatchSettlesOwedDecrementsAtTheNextDecrement() {
        CountingOwner owner = new CountingOwner();
        WorkerLatch target = new WorkerLatch(owner, 0);
        CountLatch count = new CountLatch(target); // the body's count
        assertTrue(count.tryIncrement()); // a task that runs
        assertTrue(count.tryIncrement()); // a spawn whose push fails at a stack edge
        synchronized (count) {
            count.owed++; // as ScopeImpl's catch block does
        }
        count.decrement(); // the task ends, and settles the owed decrement
        assertEquals(0, count.owed);
        assertFalse(target.probe(), "the body still holds its count");
        count.decrement(); // the body ends
        assertTrue(target.probe(), "the owed decrement was settled: the count reached zero");
    }

    @Test
    void countLatchOwedByTheLastHolderIsSettledByItsOwnDecrement() {
        CountingOwner owner = new CountingOwner();
        WorkerLatch target = new WorkerLatch(owner, 0);
        CountLatch count = new CountLatch(target);
        assertTrue(count.tryIncrement()); // the body spawns; the spawn fails
        synchronized (count) {
            count.owed++;
        }
        count.decrement(); // the body ends: its own decrement leaves the owed one, which it then settles
        assertTrue(target.probe());
    }

    @Test
    void blockingLatchReturnsAtOnceWhenSetBeforeAwaitAndKeepsTheInterrupt() {
        BlockingLatch latch = new BlockingLatch();
        latch.set();
        Thread.currentThread().interrupt();
        latch.await();
        assertTrue(Thread.interrupted(), "interrupt status restored");
    }
}
