package io.spindle.internal.latch;

/**
 * A core latch owned by one worker: setting it wakes that worker, and only that worker, if it sleeps on this latch
 * (RFC 5, "A latch has been set"). Used for a worker's terminate signal and any wait of a worker (including a worker
 * of another pool waiting on work it handed to this one). A join's stolen half is its own smaller latch
 * ({@code internal.join.JoinJob}), which wakes its owner by the same rule.
 *
 * <p>The owner's wake-up goes through {@link LatchOwner}, which the owning worker's pool implements.
 */
public class WorkerLatch extends CoreLatch {
    private final LatchOwner owner;
    private final int ownerIndex;

    public WorkerLatch(LatchOwner owner, int ownerIndex) {
        this.owner = owner;
        this.ownerIndex = ownerIndex;
    }

    @Override
    public final void set() {
        // Read the owner fields before the swap: once SET is visible the owner may return and reuse nothing, but we
        // must not depend on anything the owner does after that.
        LatchOwner o = owner;
        int i = ownerIndex;
        if (setAndReportSleeping()) {
            o.wakeLatchOwner(i); // the owner was blocked (or about to block) on this latch: wake exactly it
        }
    }
}
