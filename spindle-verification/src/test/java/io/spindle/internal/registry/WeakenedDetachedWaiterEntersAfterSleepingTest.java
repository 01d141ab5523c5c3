package io.spindle.internal.registry;

import io.spindle.internal.latch.WorkerLatch;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link DetachedWaiterVsLatchSetTest} with the waiter weakened: it enters the detached table AFTER its CASes to
 * SLEEPY and SLEEPING, the order B3 forbids. Must fail: a setter that swaps SET over SLEEPING before the entry is
 * made runs {@code unparkAll} on a table without it, and the waiter parks on a set latch for ever. Same table, decoys
 * and latch as the real test (see its comments: no lock, since only the waiter writes the table; a stray permit on
 * the actor thread is harmless).
 */
@JCStressTest
@Description("WEAKENED (entry after the CAS to SLEEPING): DetachedWaiterVsLatchSetTest must see its forbidden outcome")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the waiter saw SET and does not park; no wake-up needed")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the waiter parks; the setter swapped over SLEEPING and unparked it")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "LOST WAKE-UP: the waiter parks; the setter's unparkAll found no entry")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "a wake-up for a waiter that is not asleep on this latch")
@Outcome(expect = FORBIDDEN, desc = "unparkAll counted a thread of another index (the decoy)")
@State
public class WeakenedDetachedWaiterEntersAfterSleepingTest {
    private static final Thread DECOY = new Thread(() -> { }, "spindle-jcstress-decoy");

    private final DetachedTable<Thread> table = new DetachedTable<>(t -> t == DECOY ? 1 : 0);
    private volatile int unparked;
    private final WorkerLatch latch = new WorkerLatch(index -> unparked = table.unparkAll(index), 0);

    public WeakenedDetachedWaiterEntersAfterSleepingTest() {
        for (int i = 0; i < 4; i++) {
            table.enter(table.reserve(), DECOY);
        }
    }

    @Actor
    public void detachedWaiter(II_Result r) {
        r.r1 = latch.getSleepy() && latch.fallAsleep() ? 1 : 0;
        int place = table.reserve(); // WEAKENED: the entry comes after the CAS to SLEEPING
        table.enter(place, Thread.currentThread());
    }

    @Actor
    public void setter(II_Result r) {
        latch.set();
        r.r2 = unparked;
    }
}
