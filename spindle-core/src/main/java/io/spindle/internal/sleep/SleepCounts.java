package io.spindle.internal.sleep;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One worker's sleep statistics for {@code PoolStats}: how often it blocked, and how often another thread woke it
 * from blocking. Written by the owner only; padded so that a worker counting its sleeps does not disturb the cache
 * line of its neighbour's counters.
 */
final class SleepCounts {
    private static final VarHandle SLEEPS;
    private static final VarHandle WAKEUPS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SLEEPS = l.findVarHandle(SleepCounts.class, "sleeps", long.class);
            WAKEUPS = l.findVarHandle(SleepCounts.class, "wakeups", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    private long sleeps;  // written by the owner only
    private long wakeups; // written by the owner only
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;

    static SleepCounts[] forWorkers(int threads) {
        SleepCounts[] counts = new SleepCounts[threads];
        for (int i = 0; i < threads; i++) {
            counts[i] = new SleepCounts();
        }
        return counts;
    }

    /** Owner: it is about to block. */
    void countSleep() {
        SLEEPS.setOpaque(this, sleeps + 1); // opaque: single writer, statistics readers need no ordering
    }

    /** Owner: another thread ended its blocking. */
    void countWakeup() {
        WAKEUPS.setOpaque(this, wakeups + 1); // opaque: single writer, statistics only
    }

    long sleeps() {
        return (long) SLEEPS.getOpaque(this);
    }

    long wakeups() {
        return (long) WAKEUPS.getOpaque(this);
    }
}
