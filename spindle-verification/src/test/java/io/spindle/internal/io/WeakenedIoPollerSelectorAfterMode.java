package io.spindle.internal.io;

/**
 * TEST ONLY: {@link IoPollerHandOffModel} whose owner opens its selector AFTER the critical section that stores
 * SELECTING (IoPoller's order before 8d0f532, where {@code selectUntilWoken} opened it on first use). A waker whose
 * critical section comes between the owner's and its {@code Selector.open()} reads SELECTING and a null selector: it
 * delivers nothing, and the owner selects.
 */
final class WeakenedIoPollerSelectorAfterMode extends IoPollerHandOffModel {
    WeakenedIoPollerSelectorAfterMode(int pendingOps, boolean selectorOpen) {
        super(pendingOps, selectorOpen);
    }

    @Override
    protected boolean consumeOrAnnounce(boolean select) {
        synchronized (this) {
            if (wakePending) {
                wakePending = false;
                return true;
            }
            mode = select ? SELECTING : PARKED;
        }
        if (select) {
            ownSelector(); // WEAKENED: opened after SELECTING is visible
        }
        return false;
    }
}
