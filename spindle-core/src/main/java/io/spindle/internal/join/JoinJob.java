package io.spindle.internal.join;

import io.spindle.internal.job.Job;
import io.spindle.internal.latch.WorkerLatch;
import io.spindle.internal.registry.WorkerThread;

import java.util.function.Supplier;

/**
 * The stealable second half of a join. It is its own completion latch: a thief that runs it sets the latch, which
 * wakes the join's owner only if the owner sleeps on it (L1).
 *
 * <p>A join job is a reusable frame, not a one-shot object: each worker keeps one per join depth in its
 * {@link JoinFrames} and reuses it for the next join at that depth (J-frames in {@code Join}'s comment). That is
 * the Java stand-in for rayon's stack-allocated {@code StackJob}: a join allocates no job.
 */
final class JoinJob extends WorkerLatch implements Job {
    // The closure to run: exactly one of the two is non-null while the job is pushed. Written by the owner before the
    // push (whose release store of the deque's bottom publishes them to a thief), cleared by the owner after the join.
    Supplier<?> supplier;
    Runnable runnable;
    Object result;     // written before set() (thief) or by the owner itself (inline); read by the owner after
    Throwable failure; // likewise

    JoinJob(WorkerThread owner) {
        super(owner.registry(), owner.index());
    }

    /** Run by a thief: compute, then set the latch, which publishes result and failure to the owner. */
    @Override
    public void execute() {
        runInline();
        set(); // the thief's last access to this object: after the swap the owner may reuse it at once
    }

    /** Run by the owner after taking the job back from its own deque: no latch needed. */
    void runInline() {
        try {
            if (runnable != null) {
                runnable.run();
            } else {
                result = supplier.get();
            }
        } catch (Throwable t) {
            failure = t;
        }
    }

    /**
     * Owner, once the job ran (inline, or stolen and its latch seen SET): drops every reference so that a frame
     * kept for reuse pins no garbage, and re-arms the latch for the next join at this depth.
     */
    void recycle() {
        supplier = null;
        runnable = null;
        result = null;
        failure = null;
        rearm();
    }
}
