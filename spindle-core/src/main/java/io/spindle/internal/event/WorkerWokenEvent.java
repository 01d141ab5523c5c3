package io.spindle.internal.event;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * {@code io.spindle.WorkerWoken}: a blocked worker was woken, with who woke it and why. Committed by the woken worker
 * (so the event thread is the woken one); see package-info. Only {@link PoolEvents} calls it.
 */
@Name("io.spindle.WorkerWoken")
@Label("Worker Woken")
@Category("Spindle")
@Description("A blocked Spindle worker was woken: by whom and why")
@StackTrace(false) // committed by the woken worker: always the same idle loop
final class WorkerWokenEvent extends Event {
    /** Never committed: {@code isEnabled()} reads a per-class setting, so one shared instance answers for all. */
    private static final WorkerWokenEvent PROBE = new WorkerWokenEvent();

    @Label("Pool")
    @Description("The pool's name, as ThreadPool.toString() shows it")
    String pool;

    @Label("Worker")
    @Description("Index of the woken worker in its pool")
    int worker;

    @Label("Waker")
    @Description("Index of the waking worker in the same pool, or -1 if the waker is not one of its workers "
            + "(an external thread, a worker of another pool) or unknown")
    int waker;

    @Label("Waker Thread")
    @Description("The thread that woke the worker, when the protocol knows it (not for hints read from the pipe)")
    Thread wakerThread;

    @Label("Reason")
    @Description("Why: NEW_INTERNAL_JOB, NEW_INJECTED_JOB, CASCADE, BROADCAST, LATCH_SET, TERMINATE, "
            + "HINT_PIPE_DEQUE, HINT_PIPE_INJECTOR or IO_READY (the worker's own IO; no waker thread)")
    String reason;

    /** Whether a recording has this event enabled: a static JFR setting, read without allocating. */
    static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** Call only when {@link #enabled()}. */
    static void commit(String pool, int worker, int waker, Thread wakerThread, String reason) {
        WorkerWokenEvent e = new WorkerWokenEvent();
        e.pool = pool;
        e.worker = worker;
        e.waker = waker;
        e.wakerThread = wakerThread;
        e.reason = reason;
        e.commit();
    }
}
