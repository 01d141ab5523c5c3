package io.spindle.internal.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * E4 at the stack's edge, white-box: {@link OwedLatchWakes} delivers each owed wake-up, keeps what a throwing wake-up
 * did not deliver, and keeps {@code any} true while anything is owed. The race of an owe with a delivery is
 * jcstress's ({@code OwedLatchWakesOweVsDeliverTest}); the hang it fixes is LazyJoinReviewScanTest's cross-pool scan.
 */
class OwedLatchWakesTest {
    /** As {@code Registry.wakeLatchOwner}'s catch block owes: two volatile stores. */
    private static void owe(OwedLatchWakes owed, int index) {
        owed.flags[index].owed = true;
        owed.any = true;
    }

    @Test
    void nothingOwedAtFirst() {
        OwedLatchWakes owed = new OwedLatchWakes(3);
        assertFalse(owed.any);
        List<Integer> woken = new ArrayList<>();
        owed.deliver(woken::add);
        assertTrue(woken.isEmpty());
    }

    @Test
    void everyOwedOwnerIsWokenOnce() {
        OwedLatchWakes owed = new OwedLatchWakes(3);
        owe(owed, 2);
        owe(owed, 0);
        owe(owed, 2);
        List<Integer> woken = new ArrayList<>();
        owed.deliver(woken::add);
        assertEquals(List.of(0, 2), woken);
        assertFalse(owed.any, "everything was delivered");
        assertFalse(owed.owedTo(0));
        assertFalse(owed.owedTo(2));
        owed.deliver(woken::add);
        assertEquals(List.of(0, 2), woken, "a second delivery finds nothing owed");
    }

    @Test
    void aWakeUpThatThrowsStaysOwedAndTheOthersAreStillMade() {
        OwedLatchWakes owed = new OwedLatchWakes(3);
        owe(owed, 0);
        owe(owed, 1);
        owe(owed, 2);
        StackOverflowError again = new StackOverflowError("still at the edge");
        List<Integer> woken = new ArrayList<>();
        StackOverflowError thrown = assertThrows(StackOverflowError.class, () -> owed.deliver(index -> {
            if (index == 1) {
                throw again;
            }
            woken.add(index);
        }));
        assertSame(again, thrown);
        assertEquals(List.of(0, 2), woken, "one owner's failing wake-up does not starve the owners after it");
        assertFalse(owed.owedTo(0));
        assertTrue(owed.owedTo(1));
        assertFalse(owed.owedTo(2));
        assertTrue(owed.any, "the undelivered wake-up is still owed");

        owed.deliver(woken::add); // a later round, with room on its stack
        assertEquals(List.of(0, 2, 1), woken);
        assertFalse(owed.any);
    }

    /**
     * E4: an owe that keeps failing (a notice whose protocol keeps throwing, a job that cannot be queued) must not
     * starve the latch and poller wake-ups behind it; the first throwable is the one the caller gets.
     */
    @Test
    void aFailingNoticeOrJobStarvesNoWakeUpAndTheFirstFailureIsThrown() {
        OwedLatchWakes owed = new OwedLatchWakes(2);
        TestJob job1 = new TestJob();
        TestJob job2 = new TestJob();
        synchronized (owed) { // as Registry.injectKept owes: linked under the monitor, then `any`
            job2.nextOwed = owed.owedJobs;
            owed.owedJobs = job2;
            job1.nextOwed = owed.owedJobs;
            owed.owedJobs = job1;
        }
        owed.injectionNoticeOwed = true;
        owe(owed, 0);
        owe(owed, 1);
        owed.pollerFlags[1].owed = true;
        owed.any = true;
        List<String> made = new ArrayList<>();
        OutOfMemoryError noRoom = new OutOfMemoryError("cannot queue");
        IllegalStateException noticeFailed = new IllegalStateException("notice");
        OutOfMemoryError thrown = assertThrows(OutOfMemoryError.class, () -> owed.deliver(
                i -> {
                    if (i == 0) {
                        throw new StackOverflowError("latch 0");
                    }
                    made.add("latch " + i);
                },
                () -> {
                    throw noticeFailed;
                },
                i -> made.add("poller " + i),
                job -> {
                    throw noRoom;
                }));
        assertSame(noRoom, thrown, "the first failure goes to the caller");
        assertEquals(List.of("latch 1", "poller 1"), made);
        assertTrue(owed.injectionNoticeOwed);
        assertTrue(owed.owedTo(0));
        assertFalse(owed.owedTo(1));
        assertFalse(owed.pollerFlags[1].owed);
        assertTrue(owed.any);
        assertSame(job1, owed.owedJobs, "both jobs are owed again, in order");
        assertSame(job2, owed.owedJobs.nextOwed);
        assertEquals(null, job2.nextOwed);

        List<Object> injected = new ArrayList<>();
        owed.deliver(i -> made.add("latch " + i), () -> made.add("notice"), i -> made.add("poller " + i),
                injected::add);
        assertEquals(List.of(job1, job2), injected);
        assertEquals(List.of("latch 1", "poller 1", "notice", "latch 0"), made);
        assertFalse(owed.any);
        assertEquals(null, owed.owedJobs);
    }

    private static final class TestJob extends io.spindle.internal.job.InjectedJob {
        @Override
        public void execute() {
        }
    }

    @Test
    void aWakeUpOwedWhileItsOwnerIsBeingWokenStaysOwed() {
        OwedLatchWakes owed = new OwedLatchWakes(2);
        owe(owed, 1);
        List<Integer> woken = new ArrayList<>();
        owed.deliver(index -> {
            woken.add(index);
            owe(owed, 1); // another waker overflows while this delivery wakes
        });
        assertEquals(List.of(1), woken);
        assertTrue(owed.owedTo(1), "an owe after the flag was cleared is not covered by the wake-up before it");
        assertTrue(owed.any);
        owed.deliver(woken::add);
        assertEquals(List.of(1, 1), woken);
        assertFalse(owed.any);
    }

    /**
     * IO6 and IO10 (Registry.injectKept's and IoPoller.unblock's catch blocks owe the same way): an owed injection
     * notice is made once, before the latch wake-ups; an owed poller wake-up goes to the poller waker, not to the
     * latch waker (the protocol may already count that owner as woken); one that throws stays owed with the rest.
     */
    @Test
    void anInjectionNoticeAndPollerWakeUpsAreDeliveredOnceAndKeptWhenTheyThrow() {
        OwedLatchWakes owed = new OwedLatchWakes(3);
        owed.injectionNoticeOwed = true;
        owed.any = true;
        owed.pollerFlags[2].owed = true;
        owed.any = true;
        owe(owed, 1);
        List<String> made = new ArrayList<>();
        StackOverflowError again = new StackOverflowError("still at the edge");
        boolean[] failPoller = {true};
        assertThrows(StackOverflowError.class, () -> owed.deliver(i -> made.add("latch " + i),
                () -> made.add("notice"), i -> {
                    if (failPoller[0]) {
                        throw again;
                    }
                    made.add("poller " + i);
                }));
        assertEquals(List.of("notice", "latch 1"), made);
        assertFalse(owed.injectionNoticeOwed);
        assertTrue(owed.pollerFlags[2].owed, "the poller wake-up that threw stays owed");
        assertTrue(owed.any);
        failPoller[0] = false;
        owed.deliver(i -> made.add("latch " + i), () -> made.add("notice"), i -> made.add("poller " + i));
        assertEquals(List.of("notice", "latch 1", "poller 2"), made);
        assertFalse(owed.any);

        owed.injectionNoticeOwed = true;
        owed.any = true;
        RuntimeException noticeFailed = new IllegalStateException("notice");
        assertSame(noticeFailed, assertThrows(IllegalStateException.class, () -> owed.deliver(i -> made.add("x"),
                () -> {
                    throw noticeFailed;
                }, i -> made.add("y"))));
        assertTrue(owed.injectionNoticeOwed, "a notice that threw stays owed");
        assertTrue(owed.any);
    }
}
