package io.spindle.internal.lazy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** LZ3's period rule on its own. */
class HeartbeatTest {
    private static final long INTERVAL = 100_000L; // 100 µs: the target is a read every 25 µs

    @Test
    void fineGrainedJoinsLengthenThePeriodAtMostTwofoldPerRead() {
        assertEquals(2, Heartbeat.nextPeriod(1, 10, INTERVAL));
        assertEquals(256, Heartbeat.nextPeriod(128, 1_000, INTERVAL));
    }

    @Test
    void thePeriodIsCapped() {
        assertEquals(Heartbeat.MAX_PERIOD, Heartbeat.nextPeriod(Heartbeat.MAX_PERIOD, 1, INTERVAL));
    }

    @Test
    void coarseJoinsShortenThePeriodToOne() {
        assertEquals(1, Heartbeat.nextPeriod(64, 10_000_000L, INTERVAL));
        assertEquals(32, Heartbeat.nextPeriod(64, 50_000L, INTERVAL)); // twice the target: half the period
    }

    @Test
    void aClockThatDidNotMoveCountsAsFine() {
        assertEquals(8, Heartbeat.nextPeriod(4, 0, INTERVAL));
    }

    @Test
    void intervalZeroChecksAtEveryJoin() {
        assertEquals(1, Heartbeat.nextPeriod(512, 1, 0));
    }
}
