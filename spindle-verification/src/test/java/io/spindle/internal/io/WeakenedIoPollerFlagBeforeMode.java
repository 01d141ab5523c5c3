package io.spindle.internal.io;

/**
 * TEST ONLY: {@link IoPollerHandOffModel} whose owner consumes the wake flag BEFORE it stores its mode (IO10's Dekker
 * pair broken). A requester whose getAndSet comes after the owner's, and whose load of the mode comes before the
 * owner's store, sees RUNNING and delivers nothing, while the owner, which found the queue empty and the flag clear,
 * parks: the request waits for an unrelated wake-up.
 */
final class WeakenedIoPollerFlagBeforeMode extends IoPollerHandOffModel {
    WeakenedIoPollerFlagBeforeMode(int pendingOps, boolean selectorOpen) {
        super(pendingOps, selectorOpen);
    }

    @Override
    protected boolean announceAndConsume(int newMode) {
        boolean pending = consumeFlag(); // WEAKENED: the RMW first ...
        storeMode(newMode);              // ... then the mode
        return pending;
    }
}
