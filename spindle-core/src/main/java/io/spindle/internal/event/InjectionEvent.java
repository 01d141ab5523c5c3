package io.spindle.internal.event;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * {@code io.spindle.Injection}: work submitted to a pool from a thread outside it (see package-info for why there is
 * one event per submission). Only {@link PoolEvents} calls it.
 */
@Name("io.spindle.Injection")
@Label("Injection")
@Category("Spindle")
@Description("Work submitted to a Spindle pool from a thread outside it; committed by the submitting thread after "
        + "the sleep protocol was told (and woke whom it wakes)")
@StackTrace(false) // off by default: one per submission; enable with io.spindle.Injection#stackTrace=true
final class InjectionEvent extends Event {
    /** Never committed: {@code isEnabled()} reads a per-class setting, so one shared instance answers for all. */
    private static final InjectionEvent PROBE = new InjectionEvent();

    @Label("Pool")
    @Description("The pool's name, as ThreadPool.toString() shows it")
    String pool;

    @Label("Kind")
    @Description("install (also an external join or scope), spawn (also execute, submit, supplyAsync, runAsync) "
            + "or broadcast")
    String kind;

    @Label("Jobs")
    @Description("Jobs this submission created: 1, or the thread count for a broadcast")
    int jobs;

    /** Whether a recording has this event enabled: a static JFR setting, read without allocating. */
    static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** Call only when {@link #enabled()}. */
    static void commit(String pool, String kind, int jobs) {
        InjectionEvent e = new InjectionEvent();
        e.pool = pool;
        e.kind = kind;
        e.jobs = jobs;
        e.commit();
    }
}
