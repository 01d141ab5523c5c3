package io.spindle.internal.io;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * IO13's Dekker pair on the real {@link IoPoller} ({@link IoPollerHandBackRig}): a hand-back's caller versus a holder
 * of the poll lock. The caller ({@code PoolIoImpl.deregister} at one poller, its key cancelled before) adds its wait to
 * the queue, counts it (a volatile RMW), then tries the poll lock: it makes a pass itself if it gets it, else wakes the
 * selector and leaves the wait to the holder. The holder is the watchdog's poll for a busy owner ({@code pollNow}):
 * tryLock, selectNow, unlock in the finally, then, if the queue is not empty, the drain (while a wait was counted that
 * no pass covered: tryLock and pass, or wake and return). Forbidden, once both returned: the wait is still queued
 * (with nobody left to drain, the hand-back's future never completes), above all with its count uncovered and the lock
 * free, the lost wake-up IO13 rules out; and a poll lock left held.
 *
 * <p>r1: waits still queued; r2: waits counted that no finished pass covered; r3: the poll lock still held (1); r4:
 * selects made (the holder's poll, and each pass: 1 when the caller's pass ran while the holder's tryLock failed); r5:
 * the caller's tryLocks that failed (1: the wait was left to the holder's drain, the case the pair is for).
 */
@JCStressTest
@Description("IoPoller IO13: a hand-back's add, count and tryLock versus a poll-lock holder's unlock and drain")
@Outcome(id = "0, 0, 0, 2, 1", expect = ACCEPTABLE,
        desc = "the caller's tryLock failed on the holder's hold; the holder's drain after its unlock completed it")
@Outcome(id = "0, 0, 0, 1, 0", expect = ACCEPTABLE,
        desc = "the caller's own pass completed it; the holder's tryLock failed on that pass")
@Outcome(id = {"0, 0, 0, 2, 0", "0, 0, 0, 3, 0"}, expect = ACCEPTABLE,
        desc = "the caller got the lock and passed (after the holder's poll, or after its drain completed the wait)")
@Outcome(id = {"1, 1, 0, 1, 0", "1, 1, 0, 1, 1", "1, 1, 0, 2, 0", "1, 1, 0, 2, 1", "1, 1, 0, 3, 0", "1, 1, 0, 3, 1"},
        expect = FORBIDDEN, desc = "LOST: the wait is queued, uncovered, the lock free and nobody draining")
@Outcome(expect = FORBIDDEN, desc = "other (a wait left covered, a lock left held, a count gone wrong)")
@State
public class IoPollerHandBackVsPollTest {
    private final IoPollerHandBackRig rig = new IoPollerHandBackRig(1);

    @Actor
    public void handBack() {
        rig.handBackReal(0);
    }

    @Actor
    public void holder() {
        rig.watchdogPoll();
    }

    @Arbiter
    public void after(IIIII_Result r) {
        r.r1 = rig.waitsLeft();
        r.r2 = rig.uncovered();
        r.r3 = rig.lockHeld();
        r.r4 = rig.polls();
        r.r5 = rig.callerTryLocksFailed();
        rig.close();
    }
}
