package io.spindle.internal.io;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

import java.util.concurrent.locks.ReentrantLock;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link IoPollerHandBackVsPollTest} with the poll-lock holder WEAKENED: a copy of {@code pollNow} that looks at the
 * queue while it still holds the lock (before its select) and drains after its unlock only if that look found a wait,
 * instead of looking after the unlock. The hand-back's caller is the real one ({@code queueHandBack},
 * {@code drainHandBacks(caller)}). A caller whose add, count and failed tryLock come between the holder's look and its
 * unlock leaves the wait to a holder that will not drain. Must fail: "1, 1, 0, 1, 1".
 */
@JCStressTest
@Description("WEAKENED (holder checks the queue before its unlock): IoPollerHandBackVsPollTest must see its forbidden outcome")
@Outcome(id = {"0, 0, 0, 1, 0", "0, 0, 0, 1, 1", "0, 0, 0, 2, 0", "0, 0, 0, 2, 1", "0, 0, 0, 3, 0", "0, 0, 0, 3, 1"},
        expect = ACCEPTABLE, desc = "the wait completed, by the caller's own pass or by the holder's drain")
@Outcome(id = {"1, 1, 0, 1, 0", "1, 1, 0, 1, 1", "1, 1, 0, 2, 0", "1, 1, 0, 2, 1", "1, 1, 0, 3, 0", "1, 1, 0, 3, 1"},
        expect = FORBIDDEN, desc = "LOST: the wait is queued, uncovered, the lock free and nobody draining")
@Outcome(expect = FORBIDDEN, desc = "other (a wait left covered, a lock left held, a count gone wrong)")
@State
public class WeakenedIoPollerHandBackCheckBeforeUnlockTest {
    private final IoPollerHandBackRig rig = new IoPollerHandBackRig(1);

    @Actor
    public void handBack() {
        rig.handBackReal(0);
    }

    @Actor
    public void holder() {
        rig.holderIs(Thread.currentThread());
        ReentrantLock lock = rig.pollLock();
        if (!lock.tryLock()) {
            return; // as pollNow: someone else polls and drains after its unlock
        }
        boolean queued;
        try {
            queued = rig.waitsQueued(); // WEAKENED: the look at the queue while holding the lock
            rig.selectNowHolding();
        } finally {
            lock.unlock();
        }
        if (queued) {
            rig.drainAfterUnlock();
        }
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
