package io.spindle.internal.join;

import io.spindle.internal.registry.WorkerThread;

/**
 * One worker's stack of reusable join jobs, indexed by join depth on that worker.
 *
 * <p>Joins on one worker nest strictly: a join returns only after every join started inside it (by its first
 * closure, or by jobs the worker ran while waiting for its stolen half) has returned. So the join at depth
 * {@code d} can own slot {@code d} for its whole life and hand it to the next join at that depth, the way a stack
 * frame is reused. Owner thread only; no field here is ever read by another thread.
 */
public final class JoinFrames {
    private final WorkerThread owner;
    private JoinJob[] frames = new JoinJob[32];
    private int depth; // joins currently open on the owner's stack

    public JoinFrames(WorkerThread owner) {
        this.owner = owner;
    }

    /** Opens a join: the frame for the new depth, allocated on first use of that depth. */
    JoinJob enter() {
        int d = depth;
        if (d == frames.length) {
            frames = java.util.Arrays.copyOf(frames, d * 2);
        }
        JoinJob job = frames[d];
        if (job == null) {
            job = new JoinJob(owner);
            frames[d] = job;
        }
        depth = d + 1;
        return job;
    }

    /** Closes the innermost join normally: its job ran and is not referenced by any queue; keep it for reuse. */
    void exit(JoinJob job) {
        job.recycle();
        depth--;
    }

    /**
     * Closes the innermost join on a throwable that escaped before its job was taken back (for example a
     * StackOverflowError while waiting): the job may still sit in the deque and run later, so it must never be
     * reused. Forget it; the slot gets a fresh job next time.
     */
    void abandon() {
        frames[--depth] = null;
    }
}
