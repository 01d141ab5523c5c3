package io.spindle.internal.event;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * {@code io.spindle.StealBatch}: one worker's run of steals, summarised (see package-info for when it is committed).
 * Only {@link PoolEvents} calls it.
 */
@Name("io.spindle.StealBatch")
@Label("Steal Batch")
@Category("Spindle")
@Description("A run of steals by one Spindle worker, committed when its next search found nothing or after "
        + PoolEvents.STEAL_BATCH_LIMIT + " steals")
@StackTrace(false) // always the idle loop
final class StealBatchEvent extends Event {
    /** Never committed: {@code isEnabled()} reads a per-class setting, so one shared instance answers for all. */
    private static final StealBatchEvent PROBE = new StealBatchEvent();

    @Label("Pool")
    @Description("The pool's name, as ThreadPool.toString() shows it")
    String pool;

    @Label("Worker")
    @Description("Index of the stealing worker in its pool")
    int worker;

    @Label("Steals")
    @Description("Jobs this worker stole since its previous steal batch")
    long steals;

    @Label("Distinct Victims")
    @Description("How many different workers it stole from (indices taken modulo 64)")
    int distinctVictims;

    @Label("Victims")
    @Description("The indices of the workers it stole from, ascending, modulo 64 in pools of more than 64 workers")
    String victims;

    @Label("Ended By")
    @Description("idle: the worker's next search found nothing; limit: the batch reached its size limit")
    String endedBy;

    /** Whether a recording has this event enabled: a static JFR setting, read without allocating. */
    static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** Call only when {@link #enabled()}. */
    static void commit(String pool, int worker, long steals, long victimBits, boolean limitReached) {
        StealBatchEvent e = new StealBatchEvent();
        e.pool = pool;
        e.worker = worker;
        e.steals = steals;
        e.distinctVictims = Long.bitCount(victimBits);
        e.victims = indices(victimBits);
        e.endedBy = limitReached ? "limit" : "idle";
        e.commit();
    }

    /** "0,3,5" for bits 0, 3 and 5. */
    private static String indices(long bits) {
        StringBuilder sb = new StringBuilder();
        for (long b = bits; b != 0; b &= b - 1) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(Long.numberOfTrailingZeros(b));
        }
        return sb.toString();
    }
}
