package io.spindle.internal.event;

/**
 * Why a blocked worker was woken, as the {@code io.spindle.WorkerWoken} event reports it. Which reasons occur depends
 * on the sleep protocol (see {@code io.spindle.internal.sleep} package-info).
 */
public enum WakeReason {
    /** A worker pushed a job onto its own deque (JEC: chosen by the poster's wake rule; SLEEPY_WORKER: a tickle). */
    NEW_INTERNAL_JOB,
    /** A thread outside the pool put a job into the injector (JEC, SLEEPY_WORKER). */
    NEW_INJECTED_JOB,
    /**
     * A worker leaving the idle state woke more sleepers: it found work while more stayed visible (JEC's cascade, A2),
     * or it left through its latch while work was visible (A4).
     */
    CASCADE,
    /** A broadcast put a job into every worker's private queue. */
    BROADCAST,
    /** A latch the worker slept on was set: a join's stolen half ended, an install ended, or the pool terminates. */
    LATCH_SET,
    /** The pool terminates (SLEEPY_WORKER's final tickle; JEC and HINT_PIPE report the terminate latch). */
    TERMINATE,
    /** HINT_PIPE: the worker read a hint naming the deque of the worker that pushed the job (that is the waker). */
    HINT_PIPE_DEQUE,
    /** HINT_PIPE: the worker read a hint naming the injector (an injection, or the pool terminating). */
    HINT_PIPE_INJECTOR,
    /**
     * The worker's own IO became ready (docs/DESIGN.md §6): its selector returned with no waker, and the worker ended
     * its sleep itself. The waker is the kernel: no thread is reported.
     */
    IO_READY
}
