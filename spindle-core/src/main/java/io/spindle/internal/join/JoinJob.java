package io.spindle.internal.join;

import io.spindle.internal.job.Job;
import io.spindle.internal.latch.WorkerLatch;
import io.spindle.internal.registry.WorkerThread;

import java.util.function.Supplier;

/**
 * The stealable second half of a join. It is its own completion latch (one object per join): a thief that runs it
 * sets the latch, which wakes the join's owner only if the owner sleeps on it (L1).
 *
 * <p>One fresh object per join, on purpose: reusing a per-worker job per join depth (rayon keeps its job on the
 * stack) halved the bytes allocated per join but made joins slower under G1, because every join then stores young
 * objects (the closure, the result) into a long-lived one, and each such store takes G1's cross-region write barrier.
 * A fresh job is young, and stores into it are barrier-free. See BENCHMARKS.md, "What changed".
 */
final class JoinJob extends WorkerLatch implements Job {
    private final Supplier<?> supplier; // exactly one of the two closures is non-null
    private final Runnable runnable;
    Object result;     // written before set() (thief) or by the owner itself (inline); read by the owner after
    Throwable failure; // likewise

    JoinJob(WorkerThread owner, Supplier<?> supplier, Runnable runnable) {
        super(owner.registry(), owner.index());
        this.supplier = supplier;
        this.runnable = runnable;
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
            if (runnable != null) {
                runnable.run();
            } else {
                result = supplier.get();
            }
        } catch (Throwable t) {
            failure = t;
        }
    }
}
