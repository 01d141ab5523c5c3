package io.spindle.internal.latch;

/**
 * TEST ONLY, NEVER IN THE LIBRARY: a {@link WorkerLatch} whose {@code set} is weakened: it decides whether to wake the
 * owner from a read of the state made before its swap (ordering relaxed: "check, then set"), instead of from the
 * value its swap replaced. The owner side is the real {@link CoreLatch}.
 */
public final class WeakenedCheckThenSetLatch extends CoreLatch {
    private final LatchOwner owner;
    private final int ownerIndex;

    public WeakenedCheckThenSetLatch(LatchOwner owner, int ownerIndex) {
        this.owner = owner;
        this.ownerIndex = ownerIndex;
    }

    @Override
    public void set() {
        boolean sleeping = state() == SLEEPING; // WEAKENED: the decision is made before the swap
        setAndReportSleeping();
        if (sleeping) {
            owner.wakeLatchOwner(ownerIndex);
        }
    }
}
