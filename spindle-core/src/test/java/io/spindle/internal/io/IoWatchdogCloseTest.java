package io.spindle.internal.io;

import org.junit.jupiter.api.Test;

import java.nio.channels.ClosedSelectorException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * IO7: the pool's close stops the watchdog, then closes the selectors; a poll of the watchdog that began before the
 * stop can meet a selector closed under it. That is a clean shutdown, and must not reach the uncaught-exception
 * handler (a reviewer saw a ClosedSelectorException there in 26 of 36,703 pool lifecycles with a read pending). The
 * interleaving itself is too rare to reproduce in a bounded loop, so this drives the watchdog's failure path directly,
 * on watchdogs that are never started (their handler is the one set here): after the stop, the selector's close is
 * not reported, and anything else still is; before the stop, a closed selector is an error like any other.
 */
class IoWatchdogCloseTest {
    @Test
    void aSelectorClosedByThePoolsCloseIsNotReported() {
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        IoWatchdog w = new IoWatchdog(new PoolIoImpl(null, 1), "closing");
        w.setUncaughtExceptionHandler((t, e) -> reported.add(e));
        w.shutdown(); // PoolIoImpl.close: the stop, then the selectors' close
        w.report(new ClosedSelectorException());
        assertEquals(List.of(), reported, "the pool's close is not an error");
        IllegalStateException other = new IllegalStateException("another failure");
        w.report(other); // the first report of this watchdog: not held back by the once-a-second limit
        assertEquals(List.of(other), reported, "other failures are still reported after the stop");
    }

    @Test
    void aClosedSelectorWhileThePoolLivesIsStillReported() {
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        IoWatchdog w = new IoWatchdog(new PoolIoImpl(null, 1), "living");
        w.setUncaughtExceptionHandler((t, e) -> reported.add(e));
        w.report(new ClosedSelectorException());
        assertEquals(1, reported.size(), reported::toString);
        assertInstanceOf(ClosedSelectorException.class, reported.get(0));
    }
}
