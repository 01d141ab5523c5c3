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
 * IO13's Dekker pair between two hand-backs at the same poller, on the real {@link IoPoller}
 * ({@link IoPollerHandBackRig}): two channels registered there, handed back at once by two callers
 * ({@code PoolIoImpl.deregister} at one poller: cancel the key, add, count, then tryLock and pass, else wake). Each caller's pass is
 * the other's holder: a caller whose tryLock fails leaves its wait to the other's drain after its unlock, and a pass
 * whose count was read before the other's count covers only its own wait. Forbidden, once both returned: a wait still
 * queued (its hand-back's future never completes), or the poll lock left held. (Two callers and a separate holder
 * need three actors, which jcstress does not schedule on two CPUs.)
 *
 * <p>r1: waits still queued; r2: waits counted that no finished pass covered; r3: the poll lock still held (1); r4:
 * selects made (each pass); r5: the callers' tryLocks that failed (each left its wait to the other's drain).
 */
@JCStressTest
@Description("IoPoller IO13: two hand-backs at one poller, each the other's poll-lock holder")
@Outcome(id = {"0, 0, 0, 1, 0", "0, 0, 0, 1, 1", "0, 0, 0, 1, 2", "0, 0, 0, 2, 0", "0, 0, 0, 2, 1", "0, 0, 0, 2, 2", "0, 0, 0, 3, 0", "0, 0, 0, 3, 1", "0, 0, 0, 3, 2", "0, 0, 0, 4, 0", "0, 0, 0, 4, 1", "0, 0, 0, 4, 2"},
        expect = ACCEPTABLE, desc = "both waits completed")
@Outcome(id = {"0, 1, 0, 1, 0", "0, 1, 0, 1, 1", "0, 1, 0, 1, 2", "0, 1, 0, 2, 0", "0, 1, 0, 2, 1", "0, 1, 0, 2, 2", "0, 1, 0, 3, 0", "0, 1, 0, 3, 1", "0, 1, 0, 3, 2", "0, 1, 0, 4, 0", "0, 1, 0, 4, 1", "0, 1, 0, 4, 2"},
        expect = ACCEPTABLE, desc = "both completed; a count made after the pass that completed its wait read the count stays uncovered (harmless: the next drain that finds a wait passes once more)")
@Outcome(id = {"1, 1, 0, 1, 0", "1, 1, 0, 1, 1", "1, 1, 0, 1, 2", "1, 1, 0, 2, 0", "1, 1, 0, 2, 1", "1, 1, 0, 2, 2", "1, 1, 0, 3, 0", "1, 1, 0, 3, 1", "1, 1, 0, 3, 2", "2, 1, 0, 1, 0", "2, 1, 0, 1, 1", "2, 1, 0, 1, 2", "2, 1, 0, 2, 0", "2, 1, 0, 2, 1", "2, 1, 0, 2, 2", "2, 1, 0, 3, 0", "2, 1, 0, 3, 1", "2, 1, 0, 3, 2", "2, 2, 0, 1, 0", "2, 2, 0, 1, 1", "2, 2, 0, 1, 2", "2, 2, 0, 2, 0", "2, 2, 0, 2, 1", "2, 2, 0, 2, 2", "2, 2, 0, 3, 0", "2, 2, 0, 3, 1", "2, 2, 0, 3, 2", "1, 2, 0, 1, 0", "1, 2, 0, 1, 1", "1, 2, 0, 1, 2", "1, 2, 0, 2, 0", "1, 2, 0, 2, 1", "1, 2, 0, 2, 2", "1, 2, 0, 3, 0", "1, 2, 0, 3, 1", "1, 2, 0, 3, 2"}, expect = FORBIDDEN,
        desc = "LOST: a wait is queued, uncovered, the lock free and nobody draining")
@Outcome(expect = FORBIDDEN, desc = "other (a wait left covered, a lock left held, a count gone wrong)")
@State
public class IoPollerTwoHandBacksTest {
    private final IoPollerHandBackRig rig = new IoPollerHandBackRig(2, false);

    @Actor
    public void handBack0() {
        rig.handBackReal(0);
    }

    @Actor
    public void handBack1() {
        rig.handBackReal(1);
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
