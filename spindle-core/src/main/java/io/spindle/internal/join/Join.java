package io.spindle.internal.join;

import io.spindle.Pair;
import io.spindle.internal.job.Failures;
import io.spindle.internal.job.Job;
import io.spindle.internal.registry.WorkerThread;

import java.util.function.Supplier;

/**
 * {@code join} on a worker: make {@code b} stealable, run {@code a} inline, then take {@code b} back and run it inline
 * if nobody stole it, else run other work until the thief is done (rayon's {@code join_context}).
 *
 * <p>This class is the only place that decides how a join's second half becomes visible to thieves; a lazier scheme
 * (heartbeat promotion) can replace {@link #join} without touching its callers.
 */
public final class Join {
    private Join() {}

    public static <A, B> Pair<A, B> join(WorkerThread worker, Supplier<A> a, Supplier<B> b) {
        JoinJob jobB = JoinJob.of(worker, b);
        worker.push(jobB); // its release store publishes the job's fields to a thief

        A resultA = null;
        Throwable failureA = null;
        try {
            resultA = a.get();
        } catch (Throwable t) {
            failureA = t; // b still runs (SPEC §1: both closures always run)
        }
        takeBackOrWait(worker, jobB);

        @SuppressWarnings("unchecked")
        B resultB = (B) jobB.result();
        rethrowFailures(failureA, jobB.failure());
        return new Pair<>(resultA, resultB);
    }

    public static void join(WorkerThread worker, Runnable a, Runnable b) {
        JoinJob jobB = JoinJob.of(worker, b); // no wrapping of the Runnables into Suppliers: one object per join
        worker.push(jobB); // its release store publishes the job's fields to a thief

        Throwable failureA = null;
        try {
            a.run();
        } catch (Throwable t) {
            failureA = t; // b still runs (SPEC §1: both closures always run)
        }
        takeBackOrWait(worker, jobB);

        rethrowFailures(failureA, jobB.failure());
    }

    /** SPEC §1: a's failure wins, with b's added as suppressed; else b's failure; else nothing. */
    private static void rethrowFailures(Throwable failureA, Throwable failureB) {
        if (failureA != null) {
            Failures.addSuppressedOnce(failureA, failureB);
            throw Failures.<RuntimeException>sneakyThrow(failureA);
        }
        if (failureB != null) {
            throw Failures.<RuntimeException>sneakyThrow(failureB);
        }
    }

    /**
     * Pops local jobs until {@code jobB} comes back (run it inline) or the deque is empty (it was stolen: wait for its
     * latch, running other work meanwhile). Jobs above {@code jobB} are ones {@code a} left behind (spawns); they run
     * here, as in rayon.
     */
    private static void takeBackOrWait(WorkerThread worker, JoinJob jobB) {
        while (!jobB.probe()) {
            Job job = worker.takeLocalJob();
            if (job == jobB) {
                jobB.runInline();
                return;
            }
            if (job == null) {
                worker.waitUntil(jobB);
                return;
            }
            worker.execute(job);
        }
    }
}
