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
 * The state word of J6 (WorkerSleepState) step by step: who may claim the owner in which state, and which claims leave
 * the sleeping count to the owner. The races themselves are jcstress's (WorkerSleepStateClaimTest); these pin down the
 * transitions. Timeouts only turn a hang into a failure.
 */
@Timeout(30)
class WorkerSleepStateTest {

    @Test
    void aWorkerNotInASleepSequenceCannotBeClaimed() {
        WorkerSleepState s = new WorkerSleepState();
        assertEquals(WorkerSleepState.NOT_CLAIMED, s.claim());
    }

    @Test
    void aClaimWhilePreparingStopsTheOwnerFromBlockingAndLeavesItTheCount() {
        WorkerSleepState s = new WorkerSleepState();
        assertTrue(s.prepare());
        assertEquals(WorkerSleepState.CLAIMED_PREPARING, s.claim());
        assertEquals(WorkerSleepState.NOT_CLAIMED, s.claim(), "one claim per sequence");
        assertFalse(s.tryBlock(), "a claimed owner must not block");
        s.endSequence();
        assertEquals(WorkerSleepState.NOT_CLAIMED, s.claim());
        assertTrue(s.prepare(), "the next sequence starts from AWAKE");
    }

    @Test
    void aClaimOfABlockedOwnerIsTheOnlyOneAndWakesIt() throws Exception {
        WorkerSleepState s = new WorkerSleepState();
        AtomicBoolean wokenByWaker = new AtomicBoolean();
        CountingOwner owner = new CountingOwner(s, wokenByWaker);
        owner.start();
        owner.awaitBlocked();
        assertEquals(WorkerSleepState.CLAIMED_BLOCKED, s.claim());
        assertEquals(WorkerSleepState.NOT_CLAIMED, s.claim(), "WAKING belongs to the first waker");
        s.letGo(WakeReason.NEW_INJECTED_JOB);
        s.unblockOwner();
        owner.join();
        assertTrue(wokenByWaker.get(), "blockUntilWoken reports a waker's wake-up (the waker took the count)");
        assertEquals(WakeReason.NEW_INJECTED_JOB, s.wokenFor);
        assertSame(Thread.currentThread(), s.wokenBy);
        assertEquals(1, s.counts.sleeps());
        assertEquals(1, s.counts.wakeups());
    }

    @Test
    void anUnblockBeforeTheParkIsNotLost() throws Exception {
        WorkerSleepState s = new WorkerSleepState();
        assertTrue(s.prepare());
        assertTrue(s.tryBlock());
        // the waker finishes entirely before the owner reaches its park
        assertEquals(WorkerSleepState.CLAIMED_BLOCKED, s.claim());
        s.letGo(WakeReason.LATCH_SET);
        s.unblockOwner(); // the owner's thread is bound: this is the current thread's permit
        assertTrue(s.blockUntilWoken(), "AWAKE is seen at once");
    }

    @Test
    void interruptsDoNotEndTheBlockAndTheStatusIsKept() throws Exception {
        WorkerSleepState s = new WorkerSleepState();
        AtomicBoolean kept = new AtomicBoolean();
        AtomicInteger phase = new AtomicInteger();
        Thread owner = new Thread(() -> {
            s.prepare();
            s.tryBlock();
            phase.set(1);
            s.blockUntilWoken();
            kept.set(Thread.currentThread().isInterrupted());
        });
        owner.start();
        while (phase.get() == 0) {
            Thread.onSpinWait();
        }
        while (s.counts.sleeps() == 0) {
            Thread.onSpinWait();
        }
        owner.interrupt();
        Thread.sleep(50);
        assertTrue(owner.isAlive(), "an interrupt is not a wake-up");
        assertTrue(s.isBlockedUnclaimed());
        assertEquals(WorkerSleepState.CLAIMED_BLOCKED, s.claim());
        s.letGo(WakeReason.LATCH_SET);
        s.unblockOwner();
        owner.join();
        assertTrue(kept.get(), "the interrupt status survives the sleep");
    }

    @Test
    void aBlockLeftOverByAFailedSequenceIsSettledBeforeTheNextOne() {
        WorkerSleepState s = new WorkerSleepState();
        assertTrue(s.prepare());
        assertTrue(s.tryBlock());
        // as if blockUntilWoken had thrown at its entry: the owner is back in its loop with the word BLOCKED
        assertFalse(s.prepare(), "a registration still left to wakers must not be overwritten");
        assertTrue(s.settleEarlierSequence(), "no waker came: the owner takes BLOCKED back and undoes its count");
        assertTrue(s.prepare());
    }

    @Test
    void aSequenceThatThrewBeforeBlockingIsEndedByTheNextOne() {
        WorkerSleepState s = new WorkerSleepState();
        assertTrue(s.prepare());
        assertEquals(WorkerSleepState.CLAIMED_PREPARING, s.claim()); // NOTIFIED, and the owner's finally never ran
        assertFalse(s.prepare());
        assertFalse(s.settleEarlierSequence(), "PREPARING and NOTIFIED are the owner's own to leave: no count back");
        assertTrue(s.prepare());
        s.endSequence();
    }

    @Test
    void aWakerChoosingAmongWorkersCanSkipOnesStillPreparing() {
        WorkerSleepState s = new WorkerSleepState();
        assertTrue(s.prepare());
        assertEquals(WorkerSleepState.NOT_CLAIMED, s.claim(true));
        assertEquals(WorkerSleepState.CLAIMED_PREPARING, s.claim(false));
    }

    @Test
    void aBlockLeftOverAndClaimedMeanwhileStaysTheWakersCount() {
        WorkerSleepState s = new WorkerSleepState();
        assertTrue(s.prepare());
        assertTrue(s.tryBlock());
        assertEquals(WorkerSleepState.CLAIMED_BLOCKED, s.claim());
        s.letGo(WakeReason.NEW_INJECTED_JOB); // the waker took the count and let the owner go
        assertTrue(s.prepare(), "AWAKE again: the next sequence starts normally");
        s.endSequence();
    }

    /** An owner thread that runs one sleep sequence up to blocking and records how it ended. */
    private static final class CountingOwner extends Thread {
        private final WorkerSleepState s;
        private final AtomicBoolean wokenByWaker;

        CountingOwner(WorkerSleepState s, AtomicBoolean wokenByWaker) {
            this.s = s;
            this.wokenByWaker = wokenByWaker;
        }

        @Override
        public void run() {
            s.prepare();
            if (s.tryBlock()) {
                wokenByWaker.set(s.blockUntilWoken());
            }
        }

        void awaitBlocked() {
            while (!s.isBlockedUnclaimed() || s.counts.sleeps() == 0) {
                Thread.onSpinWait();
            }
        }
    }
}
