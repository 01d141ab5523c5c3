package io.spindle.internal.event;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * {@code io.spindle.Promotion}: a worker running lazy joins made some of its waiting join halves stealable at a
 * heartbeat (docs/DESIGN.md §7). At most one per worker per heartbeat interval. Only {@link PoolEvents} calls it.
 */
@Name("io.spindle.Promotion")
@Label("Promotion")
@Category("Spindle")
@Description("A worker promoted its oldest waiting join halves for idle workers to steal (lazy joins, at a heartbeat)")
@StackTrace(false) // off by default: the worker's stack at a beat says little; enable with #stackTrace=true
final class PromotionEvent extends Event {
    /** Never committed: {@code isEnabled()} reads a per-class setting, so one shared instance answers for all. */
    private static final PromotionEvent PROBE = new PromotionEvent();

    @Label("Pool")
    @Description("The pool's name, as ThreadPool.toString() shows it")
    String pool;

    @Label("Worker")
    @Description("Index of the promoting worker")
    int worker;

    @Label("Frames")
    @Description("Join halves made stealable at this beat")
    int frames;

    @Label("Latent Left")
    @Description("Join halves of this worker still waiting unpromoted after the beat")
    int latentLeft;

    static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** Call only when {@link #enabled()}. */
    static void commit(String pool, int worker, int frames, int latentLeft) {
        PromotionEvent e = new PromotionEvent();
        e.pool = pool;
        e.worker = worker;
        e.frames = frames;
        e.latentLeft = latentLeft;
        e.commit();
    }
}
