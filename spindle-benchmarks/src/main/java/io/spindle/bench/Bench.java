package io.spindle.bench;

import io.spindle.bench.workload.Workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Measures one workload on every contender: opens the pools, runs the warm-ups and then the measured runs, and
 * summarises each metric as median, min and max. Runs are interleaved (run 1 on every pool, then run 2, ...) so that
 * every pool sees the same machine: on a shared box, load that comes and goes hits all of them alike.
 */
final class Bench {
    private final Options options;
    private final Progress progress;

    Bench(Options options, Progress progress) {
        this.options = options;
        this.progress = progress;
    }

    /** @return one row per (pool, metric, threads), metrics in the order the workload reports them */
    List<Row> measure(int index, Workload w, List<PoolKind> kinds) {
        List<PoolKind> contenders = kinds.stream().filter(w::supports).toList();
        w.setUp();
        List<Target> targets = new ArrayList<>();
        try {
            for (PoolKind k : contenders) targets.add(Target.open(k, options.threads()));
            warmUp(index, w, targets);
            Map<String, Series> series = new LinkedHashMap<>();
            for (int i = 1; i <= options.runs(); i++) {
                for (Target t : targets) {
                    progress.show(index, w.name(), t.kind().id(), false, i, options.runs());
                    for (Value v : w.run(t, false)) {
                        String key = t.kind().id() + "|" + v.metric().id() + "|" + v.threads();
                        series.computeIfAbsent(key, x -> new Series(t.kind(), v.metric(), v.threads())).add(v.value());
                    }
                }
            }
            return rows(w.name(), series.values());
        } finally {
            targets.forEach(Target::close);
            w.tearDown();
        }
    }

    /**
     * Interleaved warm-up rounds until there were at least {@code --warmup} of them and the warm-up took at least
     * {@code --warmup-ms} per pool in all. In time, not per pool: a pool that is much faster than the others (the
     * sequential baseline of a tiny workload) would otherwise keep every other pool warming up for minutes.
     */
    private void warmUp(int index, Workload w, List<Target> targets) {
        long needNanos = options.warmupMillis() * 1_000_000L * targets.size();
        long start = System.nanoTime();
        for (int round = 1; round <= options.warmup() || System.nanoTime() - start < needNanos; round++) {
            for (Target t : targets) {
                progress.show(index, w.name(), t.kind().id(), true, round, Math.max(round, options.warmup()));
                w.run(t, true);
            }
        }
    }

    /** Rows grouped by metric (in the order first seen), pools in run order within each metric. */
    private static List<Row> rows(String workload, Iterable<Series> all) {
        Map<Metric, List<Row>> byMetric = new LinkedHashMap<>();
        for (Series s : all) {
            byMetric.computeIfAbsent(s.metric, m -> new ArrayList<>())
                    .add(Row.of(workload, s.kind.id(), s.threads, s.metric.id(), s.stats()));
        }
        List<Row> rows = new ArrayList<>();
        byMetric.values().forEach(rows::addAll);
        return rows;
    }

    /** The values of one metric on one pool, one per measured run. */
    private static final class Series {
        final PoolKind kind;
        final Metric metric;
        final int threads;
        private final List<Double> values = new ArrayList<>();

        Series(PoolKind kind, Metric metric, int threads) {
            this.kind = kind;
            this.metric = metric;
            this.threads = threads;
        }

        void add(double v) {
            values.add(v);
        }

        Stats stats() {
            return Stats.of(values.stream().mapToDouble(Double::doubleValue).toArray());
        }
    }
}
