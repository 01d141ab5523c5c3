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
 * {@link IoPollerHandBackVsPollTest} with the hand-back's caller WEAKENED: it counts its wait after its
 * {@code selectNowOrWake} (the tryLock, and the pass or the wakeup), not before the tryLock. The real IoPoller's
 * private steps, reordered ({@link IoPollerHandBackRig}); the holder is the real {@code pollNow}. A holder whose
 * unlock and drain's reads come between the caller's failed tryLock and its count sees the wait queued but every
 * count covered, and does not pass; the caller only woke the selector. Must fail: "1, 1, 0, 1, 1" (the wait queued,
 * uncovered, the lock free, nobody draining).
 */
@JCStressTest
@Description("WEAKENED (count after tryLock): IoPollerHandBackVsPollTest must see its forbidden outcome")
@Outcome(id = {"0, 0, 0, 1, 0", "0, 0, 0, 1, 1", "0, 0, 0, 2, 0", "0, 0, 0, 2, 1", "0, 0, 0, 3, 0", "0, 0, 0, 3, 1"},
        expect = ACCEPTABLE, desc = "the wait completed, by the caller's own pass or by the holder's drain")
@Outcome(id = {"0, 1, 0, 1, 0", "0, 1, 0, 1, 1", "0, 1, 0, 2, 0", "0, 1, 0, 2, 1", "0, 1, 0, 3, 0", "0, 1, 0, 3, 1"},
        expect = ACCEPTABLE, desc = "the caller's own pass completed the wait before its late count (harmless here)")
@Outcome(id = {"1, 1, 0, 1, 0", "1, 1, 0, 1, 1", "1, 1, 0, 2, 0", "1, 1, 0, 2, 1", "1, 1, 0, 3, 0", "1, 1, 0, 3, 1"},
        expect = FORBIDDEN, desc = "LOST: the wait is queued, uncovered, the lock free and nobody draining")
@Outcome(expect = FORBIDDEN, desc = "other (a wait left covered, a lock left held, a count gone wrong)")
@State
public class WeakenedIoPollerHandBackCountAfterTryLockTest {
    private final IoPollerHandBackRig rig = new IoPollerHandBackRig(1);

    @Actor
    public void handBack() {
        rig.addWait(0);
        rig.selectNowOrWake(); // WEAKENED: the tryLock (and its pass or wakeup) before the count
        rig.countWait();
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
