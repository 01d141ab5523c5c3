package io.spindle.internal.job;

/**
 * A unit of work that a worker runs exactly once: a join's second half, a spawned task, an install, a broadcast copy,
 * a scope task. {@link #execute()} never throws: each job delivers its failure where docs/DESIGN.md §1 says it goes
 * (into a result, a scope, a future, or the pool's uncaught-exception handler).
 */
public interface Job {
    void execute();
}
