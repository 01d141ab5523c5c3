package io.spindle.bench;

/** One row of results.json (docs/DESIGN.md §4.4): a metric of a workload on one pool, summarised over the runs. */
public record Row(String workload, String pool, int threads, String metric, double median, double min, double max,
                  int runs) {
    static Row of(String workload, String pool, int threads, String metric, Stats s) {
        return new Row(workload, pool, threads, metric, s.median(), s.min(), s.max(), s.runs());
    }
}
