package io.spindle.internal.event;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * {@code io.spindle.HandOff}: a worker about to block in {@code Spindle.blocking} or {@code Spindle.managedBlock}
 * handed its place in the pool to a stand-in thread (io.spindle.internal.blocking, B2). Only {@link PoolEvents} calls
 * it.
 */
@Name("io.spindle.HandOff")
@Label("Blocking Hand-off")
@Category("Spindle")
@Description("A worker about to block handed its index, deque role, sleep state and IO to a stand-in thread")
@StackTrace(true) // on: where the blocking call was made is what a reader wants to know
final class HandOffEvent extends Event {
    /** Never committed: {@code isEnabled()} reads a per-class setting, so one shared instance answers for all. */
    private static final HandOffEvent PROBE = new HandOffEvent();

    @Label("Pool")
    @Description("The pool's name, as ThreadPool.toString() shows it")
    String pool;

    @Label("Worker")
    @Description("Index of the worker that blocks; the stand-in takes this index")
    int worker;

    @Label("Thread Started")
    @Description("Whether a new thread was started to stand in (false: an idle spare of this index was reused)")
    boolean threadStarted;

    static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** Call only when {@link #enabled()}. */
    static void commit(String pool, int worker, boolean threadStarted) {
        HandOffEvent e = new HandOffEvent();
        e.pool = pool;
        e.worker = worker;
        e.threadStarted = threadStarted;
        e.commit();
    }
}
