package io.spindle.internal.event;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * {@code io.spindle.WorkerSleep}: a worker blocked because it found no work; the event's duration is the block. Only
 * {@link PoolEvents} calls it, and only when {@code jdk.jfr} is present (see package-info).
 */
@Name("io.spindle.WorkerSleep")
@Label("Worker Sleep")
@Category("Spindle")
@Description("A Spindle worker blocked because it found no work; the duration spans the block, from just before it "
        + "entered its sleep protocol's sleep sequence until it had woken")
@StackTrace(false) // always the same idle loop
final class WorkerSleepEvent extends Event {
    /** Never committed: {@code isEnabled()} reads a per-class setting, so one shared instance answers for all. */
    private static final WorkerSleepEvent PROBE = new WorkerSleepEvent();

    @Label("Pool")
    @Description("The pool's name, as ThreadPool.toString() shows it")
    String pool;

    @Label("Worker")
    @Description("Index of the sleeping worker in its pool")
    int worker;

    @Label("Sleep Strategy")
    @Description("The pool's sleep protocol: JOBS_EVENT_COUNTER, SLEEPY_WORKER or HINT_PIPE")
    String strategy;

    /** Whether a recording has this event enabled: a static JFR setting, read without allocating. */
    static boolean enabled() {
        return PROBE.isEnabled();
    }

    /**
     * Call only when {@link #enabled()}.
     *
     * @return a begun event to pass to {@link #end}
     */
    static Object begin(String pool, String strategy, int worker) {
        WorkerSleepEvent e = new WorkerSleepEvent();
        e.pool = pool;
        e.strategy = strategy;
        e.worker = worker;
        e.begin();
        return e;
    }

    /** Ends and commits an event from {@link #beginIfEnabled}; JFR applies the threshold on commit. */
    static void end(Object begun) {
        ((WorkerSleepEvent) begun).commit();
    }
}
