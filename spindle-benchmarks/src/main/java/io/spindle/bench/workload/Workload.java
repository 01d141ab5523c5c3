package io.spindle.bench.workload;

import io.spindle.bench.Metric;
import io.spindle.bench.PoolKind;
import io.spindle.bench.Target;
import io.spindle.bench.Value;

import java.util.List;

/**
 * One workload (docs/DESIGN.md §4.2): a Spindle version, an idiomatic ForkJoinPool version, and a sequential one where
 * that means something. The runner calls {@link #setUp()} once, then {@link #run} for every warm-up and measured run on
 * every contender, interleaved, then {@link #tearDown()}. A light load is measured at more than one pool size: for
 * those, the same interleaved rounds also call {@link #runAtLightThreads} on contenders of each {@code --light-threads}
 * size. A join workload is too: the same rounds call {@link #run} on contenders of each {@code --join-threads} size.
 */
public interface Workload {
    /** @return the workload's fixed name (docs/DESIGN.md §4.2) */
    String name();

    /** @return one line for the report: what it does and at which size */
    String description();

    /**
     * @return whether this workload has a version for {@code kind} (sequential only where one exists; the IO
     *         baselines' servers only for the IO workloads)
     */
    default boolean supports(PoolKind kind) {
        return kind.isSpindle() || kind == PoolKind.FJP;
    }

    /**
     * @return the name {@code --only} may also select this workload by, with others: the fixed name of a workload
     *         reported in several rows of names of their own ({@code echo} for {@code echo-1conn}, ...); by default
     *         its own name
     */
    default String group() {
        return name();
    }

    /** @return the metrics a measured run reports on {@code kind}; the runner checks that each one came out */
    List<Metric> metrics(PoolKind kind);

    /**
     * @return the metrics the runner also measures on {@code kind} at each {@code --light-threads} pool size, besides
     *         at {@code --threads}: none (the default) but for the light loads, whose cost is mostly that of keeping
     *         idle workers asleep, and so grows with the number of workers
     */
    default List<Metric> lightThreadsMetrics(PoolKind kind) {
        return List.of();
    }

    /**
     * @return the metrics the runner also measures on {@code kind} at each {@code --join-threads} pool size (by
     *         {@link #run}, which must report them at the pool's size), besides at {@code --threads}: none (the
     *         default) but for the join workloads, whose cost at 1 worker (joins nobody can steal) against the
     *         sequential version is the overhead a lazy join promises to remove
     */
    default List<Metric> joinThreadsMetrics(PoolKind kind) {
        return List.of();
    }

    /**
     * One run on a contender opened at a {@code --light-threads} size; reports {@link #lightThreadsMetrics} and
     * nothing else. By default {@link #run}; a workload whose run also measures something on a pool of its own
     * (sparse's wake-up count) overrides it, else that would be measured again at every size and counted twice.
     */
    default List<Value> runAtLightThreads(Target target, boolean warmup) {
        return run(target, warmup);
    }

    /** Builds the inputs, untimed (a tree, an array), once for all contenders so they all see the same data. */
    default void setUp() {}

    /**
     * @return whether the runner rests before each measured run (Bench's {@code REST_MILLIS}), long enough for every
     *         pool's idle workers to have gone to sleep, so that a run pays its own pool's wake-up and no other pool's
     *         still-spinning workers take a core from it. Default false; every computation says true.
     */
    default boolean timedFromRest() {
        return false;
    }

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
