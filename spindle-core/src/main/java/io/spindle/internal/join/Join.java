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
 *
 * <p><b>Frames.</b> The second half travels in a {@link JoinJob} taken from the worker's {@link JoinFrames} and
 * returned there when the join ends, so a join allocates no job object. Reuse is safe because, by the time the join
 * returns, no other thread can reach the job: either the owner popped it back (the deque gives each element to
 * exactly one taker), or a thief ran it and the owner saw its latch SET, which is the thief's last access to it. A
 * thief that read the slot but lost the race for it never uses what it read. If a throwable escapes before the job
 * came back, the frame is abandoned, never reused.
 */
public final class Join {
    private Join() {}

    public static <A, B> Pair<A, B> join(WorkerThread worker, Supplier<A> a, Supplier<B> b) {
        JoinFrames frames = worker.joinFrames();
        JoinJob jobB = frames.enter();
        jobB.supplier = b; // plain: the push's release store publishes it to a thief
        push(worker, frames, jobB);

        A resultA = null;
        Throwable failureA = null;
        try {
            resultA = a.get();
        } catch (Throwable t) {
            failureA = t; // b still runs (SPEC §1: both closures always run)
        }
        awaitSecondHalf(worker, frames, jobB);

        @SuppressWarnings("unchecked")
        B resultB = (B) jobB.result;
        Throwable failureB = jobB.failure;
        frames.exit(jobB);
        if (failureA != null) {
            throw combined(failureA, failureB);
        }
        if (failureB != null) {
            throw Failures.<RuntimeException>sneakyThrow(failureB);
        }
        return new Pair<>(resultA, resultB);
    }

    public static void join(WorkerThread worker, Runnable a, Runnable b) {
        JoinFrames frames = worker.joinFrames();
        JoinJob jobB = frames.enter();
        jobB.runnable = b; // plain: the push's release store publishes it to a thief
        push(worker, frames, jobB);

        Throwable failureA = null;
        try {
            a.run();
        } catch (Throwable t) {
            failureA = t; // b still runs (SPEC §1: both closures always run)
        }
        awaitSecondHalf(worker, frames, jobB);

        Throwable failureB = jobB.failure;
        frames.exit(jobB);
        if (failureA != null) {
            throw combined(failureA, failureB);
        }
        if (failureB != null) {
            throw Failures.<RuntimeException>sneakyThrow(failureB);
        }
    }

    private static RuntimeException combined(Throwable failureA, Throwable failureB) {
        Failures.addSuppressedOnce(failureA, failureB);
        throw Failures.<RuntimeException>sneakyThrow(failureA);
    }

    private static void push(WorkerThread worker, JoinFrames frames, JoinJob jobB) {
        try {
            worker.push(jobB);
        } catch (Throwable t) { // the deque is full: the job was not pushed, so the frame stays reusable
            frames.exit(jobB);
            throw t;
        }
    }

    /** {@link #takeBackOrWait}, abandoning the frame if a throwable escapes it (see the class comment). */
    private static void awaitSecondHalf(WorkerThread worker, JoinFrames frames, JoinJob jobB) {
        try {
            takeBackOrWait(worker, jobB);
        } catch (Throwable t) {
            frames.abandon();
            throw t;
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
