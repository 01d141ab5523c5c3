package io.spindle.internal.sleep;

import io.spindle.internal.event.WakeReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The state word of J6 (WorkerSleepState) step by step: who may claim the owner in which state, which claims leave
 * the sleeping count to the owner, and how a sequence that threw is settled. The races themselves are jcstress's
 * (WorkerSleepState*Test in spindle-verification); these pin down the transitions. Timeouts only turn a hang into a
 * failure.
 */
@Timeout(30)
class WorkerSleepStateTest {
    /** The registration a test stands for: 1 while the owner is counted as sleeping. */
    private final AtomicInteger sleeping = new AtomicInteger();
    private final SleepingCount count = sleeping::decrementAndGet;

    private WorkerSleepState registered() {
        WorkerSleepState s = new WorkerSleepState();
        assertTrue(s.prepare());
        sleeping.set(1);
        s.ownsCount = true;
        return s;
    }

    @Test
    void aWorkerNotInASleepSequenceCannotBeClaimed() {
        WorkerSleepState s = new WorkerSleepState();
        assertEquals(WorkerSleepState.NOT_CLAIMED, s.wake(count, WakeReason.NEW_INJECTED_JOB, false));
    }

    @Test
    void aClaimWhilePreparingStopsTheOwnerFromBlockingAndLeavesItTheCount() {
        WorkerSleepState s = registered();
        assertEquals(WorkerSleepState.CLAIMED_PREPARING, s.wake(count, WakeReason.NEW_INJECTED_JOB, false));
        assertEquals(WorkerSleepState.NOT_CLAIMED, s.wake(count, WakeReason.NEW_INJECTED_JOB, false),
                "one claim per sequence");
        assertEquals(1, sleeping.get(), "a PREPARING claim leaves the count alone");
        assertEquals(WorkerSleepState.NOT_BLOCKED, s.blockIfUnclaimed(), "a claimed owner must not block");
        assertTrue(s.ownsCount, "the count is the owner's to undo");
        s.endSequence();
        assertEquals(WorkerSleepState.AWAKE, s.stateWord());
        assertTrue(s.prepare(), "the next sequence starts from AWAKE");
    }

    @Test
    void aWakerChoosingAmongWorkersCanSkipOnesStillPreparing() {
        WorkerSleepState s = registered();
        assertEquals(WorkerSleepState.NOT_CLAIMED, s.wake(count, WakeReason.NEW_INJECTED_JOB, true));
        assertEquals(WorkerSleepState.CLAIMED_PREPARING, s.wake(count, WakeReason.NEW_INJECTED_JOB, false));
    }

    @Test
    void aClaimOfABlockedOwnerIsTheOnlyOneTakesTheCountAndWakesIt() throws Exception {
        WorkerSleepState s = registered();
        AtomicInteger outcome = new AtomicInteger(-1);
        Thread owner = new Thread(() -> {
            s.prepare(); // fails (PREPARING), but binds the blocker to this thread, as the owner's own prepare does
            outcome.set(s.blockIfUnclaimed());
        });
        owner.start();
        while (!s.isBlockedUnclaimed() || s.counts.sleeps() == 0) {
            Thread.onSpinWait();
        }
        assertFalse(s.ownsCount, "from BLOCKED on the count is a waker's");
        assertEquals(WorkerSleepState.CLAIMED_BLOCKED, s.wake(count, WakeReason.NEW_INJECTED_JOB, true));
        assertEquals(WorkerSleepState.NOT_CLAIMED, s.wake(count, WakeReason.NEW_INJECTED_JOB, false),
                "a second waker finds nothing to claim");
        owner.join();
        assertEquals(WorkerSleepState.WOKEN, outcome.get());
        assertEquals(0, sleeping.get(), "the waker took the count, once");
        assertEquals(WakeReason.NEW_INJECTED_JOB, s.wokenFor);
        assertSame(Thread.currentThread(), s.wokenBy);
        assertEquals(1, s.counts.sleeps());
        assertEquals(1, s.counts.wakeups());
    }

    @Test
    void aWakerThatFailsToTakeTheCountUndoesItsClaim() throws Exception {
        WorkerSleepState s = registered();
        AtomicInteger outcome = new AtomicInteger(-1);
        Thread owner = new Thread(() -> {
            s.prepare();
            outcome.set(s.blockIfUnclaimed());
        });
        owner.start();
        while (!s.isBlockedUnclaimed() || s.counts.sleeps() == 0) {
            Thread.onSpinWait();
        }
        SleepingCount failing = () -> {
            throw new OutOfMemoryError("test: the count's step failed");
        };
        try {
            s.wake(failing, WakeReason.NEW_INJECTED_JOB, false);
        } catch (OutOfMemoryError expected) {
            // the claim must have been undone
        }
        assertTrue(s.isBlockedUnclaimed(), "the owner is blocked and claimable again");
        assertEquals(WorkerSleepState.CLAIMED_BLOCKED, s.wake(count, WakeReason.NEW_INJECTED_JOB, false));
        owner.join();
        assertEquals(WorkerSleepState.WOKEN, outcome.get());
        assertEquals(0, sleeping.get());
    }

    @Test
    void interruptsDoNotEndTheBlockAndTheStatusIsKept() throws Exception {
        WorkerSleepState s = registered();
        AtomicBoolean kept = new AtomicBoolean();
        Thread owner = new Thread(() -> {
            s.prepare();
            s.blockIfUnclaimed();
            kept.set(Thread.currentThread().isInterrupted());
        });
        owner.start();
        while (!s.isBlockedUnclaimed() || s.counts.sleeps() == 0) {
            Thread.onSpinWait();
        }
        owner.interrupt();
        Thread.sleep(50);
        assertTrue(owner.isAlive(), "an interrupt is not a wake-up");
        assertTrue(s.isBlockedUnclaimed());
        assertEquals(WorkerSleepState.CLAIMED_BLOCKED, s.wake(count, WakeReason.LATCH_SET, false));
        owner.join();
        assertTrue(kept.get(), "the interrupt status survives the sleep");
    }

    @Test
    void aBlockLeftOverByAFailedSequenceIsTakenBackBeforeTheNextOne() {
        WorkerSleepState s = new WorkerSleepState();
        assertTrue(s.prepare());
        // a worker whose block threw at its very entry after the CAS: the word stays BLOCKED while it runs on
        s.ownsCount = false;
        forceBlocked(s);
        assertFalse(s.prepare(), "a registration still left to wakers must not be overwritten");
        s.settleEarlierSequence();
        assertTrue(s.ownsCount, "no waker came: the owner took BLOCKED back and must undo its count");
        assertTrue(s.prepare());
    }

    @Test
    void aSequenceLeftPreparingOrNotifiedIsEndedByTheNextOne() {
        WorkerSleepState s = registered();
        assertEquals(WorkerSleepState.CLAIMED_PREPARING, s.wake(count, WakeReason.NEW_INJECTED_JOB, false));
        s.ownsCount = false; // (its undo is tested elsewhere: JecSleep undoes ownsCount at the next sleep)
        assertFalse(s.prepare(), "NOTIFIED left over: its finally never ran");
        s.settleEarlierSequence();
        assertFalse(s.ownsCount, "PREPARING and NOTIFIED hand no count back");
        assertTrue(s.prepare());
        s.endSequence();
        assertEquals(WorkerSleepState.AWAKE, s.stateWord());
    }

    /**
     * Puts the word where a block that threw at its very entry, just after its CAS, leaves it: BLOCKED while the owner
     * runs on (only blockIfUnclaimed's CAS gets there, and it then blocks, so the test writes the word directly).
     */
    private static void forceBlocked(WorkerSleepState s) {
        try {
            java.lang.invoke.MethodHandles.privateLookupIn(WorkerSleepState.class, java.lang.invoke.MethodHandles.lookup())
                    .findVarHandle(WorkerSleepState.class, "state", int.class).setVolatile(s, WorkerSleepState.BLOCKED);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
