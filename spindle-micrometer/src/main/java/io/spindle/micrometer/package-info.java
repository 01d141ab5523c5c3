/**
 * Micrometer meters for Spindle pools: {@link io.spindle.micrometer.SpindlePoolMetrics} binds a
 * {@link io.spindle.ThreadPool}'s counters to a {@code MeterRegistry}.
 */
package io.spindle.micrometer;
