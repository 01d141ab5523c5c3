package io.spindle.internal.sleep;

/**
 * The one step a waker takes on the sleeping count when it wakes a blocked worker (J2): {@link JecCounters} in the
 * pool; a plain counter where {@link WorkerSleepState} is tested alone. Called inside
 * {@link WorkerSleepState#wake}, so that a failure of this step can undo the waker's claim without a call.
 */
interface SleepingCount {
    /** Removes one sleeping registration. Makes no call after its atomic step, so a caller learns from its return. */
    void subSleepingThread();
}
