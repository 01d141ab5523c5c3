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
 * B3 on the real {@link DetachedTable} and the real {@link WorkerLatch}: a detached thread (one that handed its index
 * 0 to a stand-in) enters the table, as {@code StandIns.handOff} does, and then sleeps on a latch by the two CASes of
 * {@code WorkerThread.waitStepDetached} (after which it would park), against a setter whose wake-up, as
 * {@code Registry.wakeLatchOwner} does through {@code StandIns.unparkDetached}, runs the real
 * {@link DetachedTable#unparkAll} for the latch's index. The entry is a release store before the CAS to SLEEPING; a
 * setter whose swap read SLEEPING synchronizes with that CAS and so must find the entry. Otherwise the detached thread
 * parks on a set latch and nobody unparks it.
 *
 * <p>The table's places 0 to 3 hold a decoy of index 1 (an unstarted thread, shared by all states: unparking it does
 * nothing), so that the table is full and the waiter's {@code reserve} grows it (the grown array's publication is part
 * of the race), and so that an {@code unparkAll} that counted a thread of another index shows as a forbidden outcome.
 *
 * <p>{@code reserve} and {@code enter} are documented to run under {@code StandIns}' monitor; here only the waiter
 * writes the table (the constructor's writes are published to both actors by jcstress), so no lock is needed: the
 * race under test is between the writer and a lock-free reader, as in the engine.
 *
 * <p>{@code unparkAll} really calls {@code LockSupport.unpark} on the waiter, a jcstress actor thread that never parks
 * on the latch (r1 = 1 only says that it would). The stray permit is harmless: at most it makes one later
 * {@code LockSupport.park} of that thread return at once, a spurious wake-up that every park caller must tolerate.
 *
 * <p>r1: 1 if the waiter would park (both CASes succeeded); r2: how many threads the setter's wake-up unparked (0
 * when the setter did not call it, because its swap did not read SLEEPING).
 */
@JCStressTest
@Description("DetachedTable: a detached waiter's entry and sleep versus a latch set and its unparkAll (B3)")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the waiter saw SET and does not park; no wake-up needed")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the waiter parks; the setter swapped over SLEEPING and unparked it")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "LOST WAKE-UP: the waiter parks; the setter's unparkAll found no entry")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "a wake-up for a waiter that is not asleep on this latch")
@Outcome(expect = FORBIDDEN, desc = "unparkAll counted a thread of another index (the decoy)")
@State
public class DetachedWaiterVsLatchSetTest {
    /** Index 1: never started, so {@code unparkAll} may unpark it harmlessly if it (wrongly) matched it. */
    private static final Thread DECOY = new Thread(() -> { }, "spindle-jcstress-decoy");

    /** The decoy is of index 1, every other thread (the waiter) of index 0. */
    private final DetachedTable<Thread> table = new DetachedTable<>(t -> t == DECOY ? 1 : 0);
    private volatile int unparked; // written and read by the setter only (inside set(), then after it)
    private final WorkerLatch latch = new WorkerLatch(index -> unparked = table.unparkAll(index), 0);

    public DetachedWaiterVsLatchSetTest() {
        for (int i = 0; i < 4; i++) { // fill the initial table (4 places): the waiter's reserve grows it
            table.enter(table.reserve(), DECOY);
        }
    }

    @Actor
    public void detachedWaiter(II_Result r) {
        // StandIns.handOff (only this actor writes the table: no lock needed, see the class comment)
        int place = table.reserve();
        table.enter(place, Thread.currentThread()); // B3: before the CAS to SLEEPING
        // WorkerThread.waitStepDetached: after both CASes it would park until the latch probes SET
        r.r1 = latch.getSleepy() && latch.fallAsleep() ? 1 : 0;
    }

    @Actor
    public void setter(II_Result r) {
        latch.set(); // the wake-up (unparkAll) runs synchronously inside set(), if the swap read SLEEPING
        r.r2 = unparked;
    }
}
