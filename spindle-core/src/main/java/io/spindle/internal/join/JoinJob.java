package io.spindle.internal.join;

import io.spindle.internal.job.Job;
import io.spindle.internal.latch.WorkerLatch;
import io.spindle.internal.registry.WorkerThread;

import java.util.function.Supplier;

/**
 * The stealable second half of a join. It is its own completion latch (one object per join): a thief that runs it
 * sets the latch, which wakes the join's owner only if the owner sleeps on it (L1).
 */
final class JoinJob<B> extends WorkerLatch implements Job {
    private final Supplier<B> fn;
    B result;          // written before set() (thief) or by the owner itself (inline); read by the owner after
    Throwable failure; // likewise

    JoinJob(Supplier<B> fn, WorkerThread owner) {
        super(owner.registry(), owner.index());
        this.fn = fn;
    }

    /** Run by a thief: compute, then set the latch, which publishes result and failure to the owner. */
    @Override
    public void execute() {
        runInline();
        set();
    }

    /** Run by the owner after taking the job back from its own deque: no latch needed. */
    void runInline() {
        try {
            result = fn.get();
        } catch (Throwable t) {
            failure = t;
        }
    }
}
