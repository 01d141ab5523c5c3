package io.spindle.internal.sleep;

import java.util.function.BooleanSupplier;

/**
 * One worker's progress through the idle states during one search (rounds, the remembered JEC), owned by that worker
 * alone and reused across searches so the idle path allocates nothing.
 */
public final class IdleState {
    /** A JEC value no real snapshot is compared with: set whenever the worker is not sleepy. */
    static final int NO_JEC_SNAPSHOT = -1;

    /** {@link #takeHint()}: no hint. */
    public static final int NO_HINT = -1;
    /** {@link #takeHint()}: the new work is in the injector. */
    public static final int HINT_INJECTOR = -2;

    private final int workerIndex;
    private int hint = NO_HINT;
    private final BooleanSupplier hasInjectedOrPrivateWork;
    int rounds;
    int jecSnapshot = NO_JEC_SNAPSHOT;
    /** Set with each find: whether more work stayed visible where the job came from (cascade rule, A2). */
    boolean moreWorkVisible;
    /** JOBS_EVENT_COUNTER's adaptive yield limit for this worker (A1); kept across searches. */
    int roundsUntilSleepy = JecSleep.ROUNDS_UNTIL_SLEEPY;

    /**
     * @param workerIndex              the owning worker
     * @param hasInjectedOrPrivateWork the final check before blocking: is there work in the injector or the worker's
     *                                 private queue? (J5 in package-info)
     */
    public IdleState(int workerIndex, BooleanSupplier hasInjectedOrPrivateWork) {
        this.workerIndex = workerIndex;
        this.hasInjectedOrPrivateWork = hasInjectedOrPrivateWork;
    }

    public int workerIndex() {
        return workerIndex;
    }

    /**
     * Owner: where a waker said new work is, consumed once: a worker index (look in its deque), {@link #HINT_INJECTOR},
     * or {@link #NO_HINT}. The worker looks there after its own deque and before its normal search.
     */
    public int takeHint() {
        int h = hint;
        if (h != NO_HINT) {
            hint = NO_HINT;
        }
        return h;
    }

    /** Owner (its protocol, after waking): remembers the hint it received. */
    void setHint(int hint) {
        this.hint = hint;
    }

    boolean hasInjectedOrPrivateWork() {
        return hasInjectedOrPrivateWork.getAsBoolean();
    }

    /** Start of a search. */
    void reset() {
        rounds = 0;
        jecSnapshot = NO_JEC_SNAPSHOT;
        moreWorkVisible = false;
    }

    /**
     * Owner, when its search found a job: records whether more work stayed visible at that source (its own deque, the
     * victim's deque, the injector). A racy snapshot is fine: it only steers how many sleepers to wake.
     */
    public void foundWork(boolean moreWorkVisible) {
        this.moreWorkVisible = moreWorkVisible;
    }

    /** Woken, or the latch was set: search from scratch. */
    void wakeFully() {
        reset();
    }

    /** Work was posted while sleepy: search once more, then get sleepy again (no long yield phase). */
    void wakePartly(int roundsUntilSleepy) {
        rounds = roundsUntilSleepy;
        jecSnapshot = NO_JEC_SNAPSHOT;
    }
}
