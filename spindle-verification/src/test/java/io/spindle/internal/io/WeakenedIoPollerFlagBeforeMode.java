package io.spindle.internal.io;

/**
 * TEST ONLY: {@link IoPollerHandOffModel} whose owner consumes the wake flag in one critical section and stores its
 * mode in another (IO10's single critical section split in two), with the selector opened between them: a plausible
 * edit that spares opening a selector when a wake-up is already pending. A requester whose whole critical section
 * falls between the owner's two (it sets the flag after the owner found it clear, and reads the mode before the owner
 * stored it) sees RUNNING and delivers nothing, while the owner, which found the flag clear, parks or selects: the
 * request waits for an unrelated wake-up (and the flag, left set, makes every later unblock skip its syscall).
 */
final class WeakenedIoPollerFlagBeforeMode extends IoPollerHandOffModel {
    WeakenedIoPollerFlagBeforeMode(int pendingOps, boolean selectorOpen) {
        super(pendingOps, selectorOpen);
    }

    @Override
    protected boolean consumeOrAnnounce(boolean select) {
        synchronized (this) { // WEAKENED: the flag in one critical section ...
            if (wakePending) {
                wakePending = false;
                return true;
            }
        }
        if (select) {
            ownSelector(); // still before SELECTING is visible
        }
        synchronized (this) { // ... the mode in another
            mode = select ? SELECTING : PARKED;
        }
        return false;
    }
}
