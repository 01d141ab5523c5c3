package io.spindle.bench;

/**
 * The metric names of docs/DESIGN.md §4.4 (fixed: results.json consumers key on them), and those issues 14, 15 and 33
 * added. Every metric but {@code requests_per_s} and {@code tasks_per_s} is "lower is better", which is what lets the
 * reports read every Spindle÷FJP ratio below 1 as a win; {@code promotions} is a count to read beside the times rather
 * than a score, and has no ratio (ForkJoinPool has no such count). The IO workloads' rows have no fjp row (their
 * baselines are servers of their own, {@link PoolKind#isIoServer()}), so none of their metrics gets a ratio, and
 * {@code requests_per_s}, higher is better, cannot be misread as one. {@code tasks_per_s} (blocking-mix) has an fjp
 * row: its Spindle÷FJP ratio reads the other way, above 1 a win, as the reports' notes say.
 */
public enum Metric {
    TIME_MS("time_ms", "wall time of one run, ms"),
    NS_PER_JOIN("ns_per_join", "time_ms / number of joins, ns"),
    CPU_PER_USEFUL("cpu_per_useful", "worker CPU time / CPU time the tasks needed (1.0 = no overhead)"),
    CPU_PERCENT("cpu_percent", "worker CPU time (IO workloads: server CPU time) / wall time, % "
            + "of one core"),
    IDLE_CPU_MS("idle_cpu_ms", "worker CPU time in the idle window after a burst (io-idle: "
            + "server CPU time with idle connections open), ms"),
    LATENCY_P50_US("latency_p50_us", "submit-to-start latency (IO workloads: request round trip), median, µs"),
    LATENCY_P99_US("latency_p99_us", "submit-to-start latency (IO workloads: request round trip), 99th percentile, "
            + "µs"),
    THREADS_WOKEN_PER_JOB("threads_woken_per_job", "PoolStats.wakeups() delta / jobs submitted (8 workers)"),
    BYTES_PER_JOIN("bytes_per_join", "heap bytes allocated by the pool's workers and the calling thread during a run "
            + "/ number of joins"),
    PROMOTIONS("promotions", "PoolStats.promotions() delta over a run: join halves the lazy joins made stealable "
            + "(Spindle pools only; 0 with eager joins)"),
    REQUESTS_PER_S("requests_per_s", "IO workloads: requests answered per second of wall time (higher is better)"),
    CPU_US_PER_REQUEST("cpu_us_per_request", "IO workloads: server CPU time (the runner process's, less the runner "
            + "thread's, which waits for the load generator or is echo-mux's client, and the JIT compiler threads') / "
            + "requests answered, µs"),
    DELAY_MS("delay_ms", "io-starvation: round trip of a request whose channel's owning worker is busy with a "
            + "long task, ms"),
    IDLE_WORKER_CPU_MS("idle_worker_cpu_ms", "echo-idle: CPU time of the Spindle pool's worker threads with idle "
            + "connections open, per 2 s (idle_cpu_ms is the whole process's)"),
    TASKS_PER_S("tasks_per_s", "blocking-mix: tasks finished per second of wall time, from the first submission to "
            + "the last task's end (higher is better)"),
    THREADS_CREATED("threads_created", "blocking-mix: platform threads the JVM started from just before the run's "
            + "fresh pool was opened to the last task's end (ThreadMXBean.getTotalStartedThreadCount delta): the "
            + "pool's workers and what it added to keep its parallelism; virtual-threads: the carriers its shared "
            + "scheduler added (virtual threads themselves are not counted)"),
    CPU_US_PER_TASK("cpu_us_per_task", "blocking-mix: the process's CPU time over the run (every thread but the JIT "
            + "compiler threads, the submitting thread included) / tasks, µs");

    private final String id;
    private final String meaning;

    Metric(String id, String meaning) {
        this.id = id;
        this.meaning = meaning;
    }

    /** @return the name in results.json */
    public String id() {
        return id;
    }

    /** @return one line for the reports' legend */
    public String meaning() {
        return meaning;
    }
}
