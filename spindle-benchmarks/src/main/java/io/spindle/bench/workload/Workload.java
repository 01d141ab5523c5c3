package io.spindle.bench.workload;

import io.spindle.bench.Metric;
import io.spindle.bench.PoolKind;
import io.spindle.bench.Target;
import io.spindle.bench.Value;

import java.util.List;

/**
 * One SPEC §4 workload: a Spindle version, an idiomatic ForkJoinPool version, and a sequential one where that means
 * something. The runner calls {@link #setUp()} once, then {@link #run} for every warm-up and measured run on every
 * contender, interleaved, then {@link #tearDown()}.
 */
public interface Workload {
    /** @return the fixed SPEC §4 name */
    String name();

    /** @return one line for the report: what it does and at which size */
    String description();

    /** @return whether this workload has a version for {@code kind} (sequential only where one exists) */
    default boolean supports(PoolKind kind) {
        return kind != PoolKind.SEQUENTIAL;
    }

    /** @return the metrics a measured run reports on {@code kind}; the runner checks that each one came out */
    List<Metric> metrics(PoolKind kind);

    /** Builds the inputs, untimed (a tree, an array), once for all contenders so they all see the same data. */
    default void setUp() {}

    /** Drops the inputs so the next workload has the heap to itself. */
    default void tearDown() {}

    /**
     * One run on {@code target}; checks its result and throws if it is wrong.
     *
     * @param warmup a warm-up run, whose numbers are thrown away: time-window workloads shorten it
     * @return the numbers of this run
     */
    List<Value> run(Target target, boolean warmup);
}
