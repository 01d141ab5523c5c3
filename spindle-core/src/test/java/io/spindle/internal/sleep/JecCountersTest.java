package io.spindle.internal.sleep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JecCountersTest {
    private static final int MAX = (int) JecCounters.THREADS_MAX;

    private static long word(long jec, long inactive, long sleeping) {
        return (jec << JecCounters.JEC_SHIFT) | (inactive << JecCounters.INACTIVE_SHIFT) | sleeping;
    }

    @Test
    void fieldsAreIndependentAtTheirLimits() {
        JecCounters c = new JecCounters();
        for (int i = 0; i < MAX; i++) {
            c.addInactiveThread();
        }
        for (int i = 0; i < MAX; i++) {
            assertTrue(c.tryAddSleepingThread(c.load()));
        }
        long w = c.load();
        assertEquals(MAX, JecCounters.inactiveThreads(w));
        assertEquals(MAX, JecCounters.sleepingThreads(w));
        assertEquals(0, JecCounters.jobsEventCounter(w), "no carry into the JEC");
        assertEquals(0, JecCounters.awakeButIdleThreads(w));
        c.subSleepingThread();
        assertEquals(MAX - 1, JecCounters.sleepingThreads(c.load()));
        assertEquals(MAX, JecCounters.inactiveThreads(c.load()), "no borrow from inactive");
    }

    @Test
    void decrementsToZeroDoNotBorrowFromTheNextField() {
        JecCounters c = new JecCounters(word(7, 1, 1));
        c.subSleepingThread();
        assertEquals(word(7, 1, 0), c.load());
        assertEquals(0, c.subInactiveThread()); // no sleepers
        assertEquals(word(7, 0, 0), c.load());
    }

    @Test
    void jecRollsOverWithoutTouchingTheThreadCounts() {
        // JEC at its maximum (odd, active): getting sleepy wraps it to 0 (even) and leaves the thread fields alone.
        JecCounters c = new JecCounters(word(0xFFFF_FFFFL, 3, 2));
        long after = c.incrementJecIfActive();
        assertEquals(0, JecCounters.jobsEventCounter(after));
        assertEquals(3, JecCounters.inactiveThreads(after));
        assertEquals(2, JecCounters.sleepingThreads(after));
        assertEquals(after, c.load());
    }

    @Test
    void jecTogglesOnlyInTheRightDirection() {
        JecCounters c = new JecCounters(word(4, 0, 0)); // even: sleepy
        assertEquals(4, JecCounters.jobsEventCounter(c.incrementJecIfActive()), "already sleepy: unchanged");
        assertEquals(5, JecCounters.jobsEventCounter(c.incrementJecIfSleepy()), "post: even -> odd");
        assertEquals(5, JecCounters.jobsEventCounter(c.incrementJecIfSleepy()), "already active: unchanged");
        assertEquals(6, JecCounters.jobsEventCounter(c.incrementJecIfActive()), "sleepy: odd -> even");
    }

    @Test
    void registrationFailsWhenTheWordChanged() {
        JecCounters c = new JecCounters(word(6, 1, 0));
        long seen = c.load();
        c.incrementJecIfSleepy(); // a post in between
        assertFalse(c.tryAddSleepingThread(seen));
        assertEquals(0, JecCounters.sleepingThreads(c.load()));
    }

    @Test
    void leavingTheIdleStateReportsTheSleepersBeforeIt() {
        JecCounters c = new JecCounters(word(1, 8, 5));
        assertEquals(5, c.subInactiveThread());
        assertEquals(word(1, 7, 5), c.load());
    }

    @Test
    void awakeButIdleIsInactiveMinusSleeping() {
        assertEquals(3, JecCounters.awakeButIdleThreads(word(0, 5, 2)));
        assertEquals(0, JecCounters.awakeButIdleThreads(word(0, 2, 2)));
    }
}
