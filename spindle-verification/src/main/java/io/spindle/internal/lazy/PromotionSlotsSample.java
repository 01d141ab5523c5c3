package io.spindle.internal.lazy;

import io.spindle.internal.join.JoinJob;
import io.spindle.internal.registry.WorkerThread;

/**
 * What the promotion tests put into {@link PromotionSlots}: fresh {@link JoinJob}s, as a promotion makes (never run
 * here: the tests only record who took which), and the outcome code of a steal.
 */
public final class PromotionSlotsSample {
    /** A steal got nothing. */
    public static final int NOTHING = 0;
    /** A steal got the first job (A). */
    public static final int FIRST = 1;
    /** A steal got the second job (B). */
    public static final int SECOND = 2;
    /** A steal got a job that is neither (impossible). */
    public static final int OTHER = 3;

    private static final Runnable B = () -> { };

    private PromotionSlotsSample() {}

    /** A fresh job, as {@code LazyWorker.promote} makes one (no owner: nobody runs it, so nobody is woken). */
    public static JoinJob job() {
        return JoinJob.of((WorkerThread) null, B);
    }

    /** The outcome code of {@code got}, a steal's result, given the test's jobs A and B. */
    public static int code(JoinJob got, JoinJob a, JoinJob b) {
        if (got == null) {
            return NOTHING;
        }
        return got == a ? FIRST : got == b ? SECOND : OTHER;
    }
}
