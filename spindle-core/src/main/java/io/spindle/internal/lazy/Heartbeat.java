package io.spindle.internal.lazy;

/**
 * How often a worker reads the clock at its joins (LZ3). {@code System.nanoTime()} costs 20-50 ns on the machines we
 * measure on, against 2-3 ns for a fine-grained join, so the worker reads it only every {@code period} joins; the period
 * adapts after every read so that reads come about {@link #READS_PER_INTERVAL} times per heartbeat interval whatever
 * the grain: a few ns per join gives a long period (the clock's cost vanishes), a join every 50 µs gives period 1 (the
 * beat is not late by many leaves). Pure functions, so the rule is tested on its own.
 */
final class Heartbeat {
    /** Clock reads per interval the period aims at: a beat is at most about a quarter interval late. */
    static final int READS_PER_INTERVAL = 4;
    /** Bound on the period: at 1-2 ns per join (the fastest we measured) a read every 1-2 µs, ~2 % of the time. */
    static final int MAX_PERIOD = 1024;

    private Heartbeat() {}

    /**
     * The next period: scales the last one by how far the time it covered ({@code elapsedNanos}) was from the target
     * ({@code intervalNanos / READS_PER_INTERVAL}), at most doubling per read so that one quick stretch does not make
     * the next beat very late. An interval of 0 (promote at every join) gives 1.
     */
    static int nextPeriod(int period, long elapsedNanos, long intervalNanos) {
        long target = intervalNanos / READS_PER_INTERVAL;
        if (target <= 0) {
            return 1;
        }
        long scaled = elapsedNanos <= 0 ? 2L * period : (long) period * target / elapsedNanos;
        return (int) Math.max(1, Math.min(Math.min(scaled, 2L * period), MAX_PERIOD));
    }
}
