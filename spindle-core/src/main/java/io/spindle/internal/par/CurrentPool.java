package io.spindle.internal.par;

import io.spindle.ThreadPool;
import io.spindle.internal.registry.WorkerThread;

/** The pool parallel operations use when none was given: the caller's, as for the {@code Spindle} free functions. */
public final class CurrentPool {
    private CurrentPool() {}

    /** @return the pool of the calling worker thread, or the global pool when the caller is not a Spindle worker */
    public static ThreadPool get() {
        WorkerThread w = WorkerThread.current();
        return w == null ? ThreadPool.global() : (ThreadPool) w.registry().publicPool();
    }
}
