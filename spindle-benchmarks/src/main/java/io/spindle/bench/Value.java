package io.spindle.bench;

/**
 * One measured number from one run.
 *
 * @param threads the thread count this number was measured with (usually the target's; 8 for
 *                threads_woken_per_job, 2 per pool for oversubscribed)
 */
public record Value(Metric metric, int threads, double value) {}
