package io.spindle.internal.io;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * IO7: when the watchdog counts a tick as a busy owner seen although no look saw one ({@code
 * IoWatchdog.newIoClaimedWhileTicking}): only if, since the previous step, and that step a tick, a claim found it awake
 * and an owner's own IO ended a sleep of its; each signal is taken once. Driven on a watchdog that is never started
 * (its claims then only leave the hint: its state stays AWAKE), with the owners' counts moved by hand.
 */
class IoWatchdogNewIoTest {
    @Test
    void aTickCountsOnlyAClaimAndAnOwnIoWakeUpTogetherEachOnce() {
        assumeTrue(IoWatchdog.ENABLED, "the watchdog is off (-Dspindle.io.watchdogMicros=0): claims are no-ops");
        PoolIoImpl io = new PoolIoImpl(null, 2);
        IoWatchdog w = new IoWatchdog(io, "new-io");
        assertFalse(w.newIoSince(true), "nothing happened");

        io.poller(0).ownEventsEndedSleep();
        w.ownerBusy();
        assertTrue(w.newIoSince(true), "a wake-up by own IO and a claim since the tick: new IO started a job");
        assertFalse(w.newIoSince(true), "both signals were taken");

        w.ownerBusy();
        assertFalse(w.newIoSince(true), "a claim alone (a request's later job) is not new IO");
        io.poller(1).ownEventsEndedSleep();
        assertFalse(w.newIoSince(true), "a wake-up alone (IO nobody's job placed) is not either, nor the old claim");

        io.poller(1).ownEventsEndedSleep();
        w.ownerBusy();
        assertFalse(w.newIoSince(false), "after a park the signals span the park: not counted");
        assertFalse(w.newIoSince(true), "and they were taken all the same");
    }
}
