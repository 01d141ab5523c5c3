package io.spindle.bench.report;

import io.spindle.bench.Metric;

import java.util.List;
import java.util.Optional;

/**
 * The groups of metrics that get a chart each in report.html. A chart's ratios share one axis, so only metrics whose
 * ratios mean the same kind of thing go together: a time ratio of 2 and an allocation ratio of 0 on one axis would
 * stretch it until neither reads (issue 31). {@code promotions} and {@code threads_woken_per_job} are in no group:
 * only the Spindle pools count them, so there is nothing to divide by. Nor is {@code threads_created}, a count to read
 * beside blocking-mix's throughput: its ratio mostly divides one pool's size by another's. Nor is
 * {@code ns_per_join}: it is each run's {@code time_ms} ÷ a join count that is the same on every pool, so its ratios
 * are {@code time_ms}'s and would only double the time chart.
 */
public enum MetricKind {
    TIME("time", "Time", false, List.of(Metric.TIME_MS)),
    CPU("cpu", "CPU", false, List.of(Metric.CPU_PER_USEFUL, Metric.CPU_PERCENT, Metric.IDLE_CPU_MS,
            Metric.IDLE_WORKER_CPU_MS, Metric.CPU_US_PER_REQUEST, Metric.CPU_US_PER_TASK)),
    ALLOCATION("allocation", "Allocation", false, List.of(Metric.BYTES_PER_JOIN)),
    LATENCY("latency", "Latency", false, List.of(Metric.LATENCY_P50_US, Metric.LATENCY_P99_US, Metric.DELAY_MS)),
    THROUGHPUT("throughput", "Throughput", true, List.of(Metric.REQUESTS_PER_S, Metric.TASKS_PER_S));

    private final String id;
    private final String title;
    private final boolean higherIsBetter;
    private final List<Metric> metrics;

    MetricKind(String id, String title, boolean higherIsBetter, List<Metric> metrics) {
        this.id = id;
        this.title = title;
        this.higherIsBetter = higherIsBetter;
        this.metrics = metrics;
    }

    /** @return the name in file names ({@code chart-time.svg}) and element ids */
    public String id() {
        return id;
    }

    public String title() {
        return title;
    }

    /**
     * @return whether a ratio above 1 is Spindle doing better (requests/s, tasks/s); every other kind is
     *         lower-is-better
     */
    public boolean higherIsBetter() {
        return higherIsBetter;
    }

    public List<Metric> metrics() {
        return metrics;
    }

    /** @return the kind of the metric named {@code metricId} in results.json; empty for counts and unknown names */
    public static Optional<MetricKind> of(String metricId) {
        for (MetricKind k : values()) {
            if (k.metrics.stream().anyMatch(m -> m.id().equals(metricId))) return Optional.of(k);
        }
        return Optional.empty();
    }

    /** @return the unit of a metric's values, for labels ("ms", "µs", "B", ...); empty where it has none */
    public static String unit(String metricId) {
        if (metricId.equals(Metric.BYTES_PER_JOIN.id())) return "B";
        if (metricId.equals(Metric.CPU_PERCENT.id())) return "%";
        if (metricId.equals(Metric.REQUESTS_PER_S.id()) || metricId.equals(Metric.TASKS_PER_S.id())) return "/s";
        if (metricId.endsWith("_ms")) return "ms";
        if (metricId.endsWith("_us") || metricId.endsWith("_us_per_request") || metricId.endsWith("_us_per_task")) {
            return "µs";
        }
        if (metricId.startsWith("ns_")) return "ns";
        return "";
    }
}
