package io.spindle.bench;

import io.spindle.bench.workload.Workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Measures one workload on every contender: opens the pools, runs the warm-ups and then the measured runs, and
 * summarises each metric as median, min and max. Runs are interleaved (run 1 on every pool, then run 2, ...) so that
 * every pool sees the same machine: on a shared box, load that comes and goes hits all of them alike. A light load's
 * pools at its {@code --light-threads} sizes, and a join workload's at its {@code --join-threads} sizes, are pools
 * like the others here, in the same rounds, so their rows get the same fairness as the {@code --threads} ones.
 */
final class Bench {
    /**
     * How long the runner rests before each measured run of a workload {@linkplain Workload#timedFromRest() timed
     * from rest}: well past the sleep protocols' idle search, so every pool's workers are asleep (issue 30).
     */
    static final int REST_MILLIS = 20;

    private final Options options;
    private final Progress progress;

    Bench(Options options, Progress progress) {
        this.options = options;
        this.progress = progress;
    }

    /**
     * @return the pool sizes, besides {@code --threads}, at which {@code w} is measured on {@code kind}: the
     *         {@code --light-threads} ones for a light load, none otherwise and for the sequential baseline, which
     *         has no pool to size
     */
    static List<Integer> lightThreads(Workload w, PoolKind kind, Options options) {
        if (kind == PoolKind.SEQUENTIAL || w.lightThreadsMetrics(kind).isEmpty()) return List.of();
        return options.lightThreadsBesideThreads();
    }

    /**
     * @return the pool sizes, besides {@code --threads}, at which {@code w} is measured on {@code kind} as a join
     *         workload: the {@code --join-threads} ones for a join workload, none otherwise and for the sequential
     *         baseline
     */
    static List<Integer> joinThreads(Workload w, PoolKind kind, Options options) {
        if (kind == PoolKind.SEQUENTIAL || w.joinThreadsMetrics(kind).isEmpty()) return List.of();
        return options.joinThreadsBesideThreads();
    }

    /** @return every size other than {@code --threads} that some workload may be measured at: light, then join */
    private List<Integer> extraSizes() {
        List<Integer> sizes = new ArrayList<>(options.lightThreadsBesideThreads());
        options.joinThreadsBesideThreads().stream().filter(n -> !sizes.contains(n)).forEach(sizes::add);
        return sizes;
    }

    /** @return one row per (pool, metric, threads), metrics in the order the workload reports them */
    List<Row> measure(int index, Workload w, List<PoolKind> kinds) {
        List<PoolKind> contenders = kinds.stream().filter(w::supports).toList();
        w.setUp();
        List<SizedTarget> all = new ArrayList<>();
        try {
            for (PoolKind k : contenders) {
                all.add(new SizedTarget(Target.open(k, options.threads(), options.heartbeat()), false, false));
            }
            // size by size, so that each size's pools follow each other as the --threads ones do
            for (int n : extraSizes()) {
                for (PoolKind k : contenders) {
                    boolean light = lightThreads(w, k, options).contains(n);
                    if (light || joinThreads(w, k, options).contains(n)) {
                        all.add(new SizedTarget(Target.open(k, n, options.heartbeat()), true, light));
                    }
                }
            }
            warmUp(index, w, all);
            Map<String, Series> series = new LinkedHashMap<>();
            for (int i = 1; i <= options.runs(); i++) {
                for (SizedTarget c : all) {
                    Target t = c.target();
                    progress.show(index, w.name(), c.label(), false, i, options.runs());
                    if (w.timedFromRest()) rest();
                    for (Value v : c.run(w, false)) {
                        String key = t.kind().id() + "|" + v.metric().id() + "|" + v.threads();
                        series.computeIfAbsent(key, x -> new Series(t.kind(), v.metric(), v.threads())).add(v.value());
                    }
                }
            }
            return rows(w.name(), series.values());
        } finally {
            all.forEach(c -> c.target().close());
            w.tearDown();
        }
    }

    private static void rest() {
        try {
            Thread.sleep(REST_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while resting before a measured run", e);
        }
    }

    /**
     * Interleaved warm-up rounds until there were at least {@code --warmup} of them and the warm-up took at least
     * {@code --warmup-ms} per pool in all. In time, not per pool: a pool that is much faster than the others (the
     * sequential baseline of a tiny workload) would otherwise keep every other pool warming up for minutes.
     */
    private void warmUp(int index, Workload w, List<SizedTarget> all) {
        long needNanos = options.warmupMillis() * 1_000_000L * all.size();
        long start = System.nanoTime();
        for (int round = 1; round <= options.warmup() || System.nanoTime() - start < needNanos; round++) {
            for (SizedTarget c : all) {
                progress.show(index, w.name(), c.label(), true, round, Math.max(round, options.warmup()));
                c.run(w, true);
            }
        }
    }

    /**
     * One pool the workload runs on: at {@code --threads}, or at one of its extra sizes ({@code extra}): a light
     * load's ({@code atLightThreads}) or a join workload's.
     */
    private record SizedTarget(Target target, boolean extra, boolean atLightThreads) {
        List<Value> run(Workload w, boolean warmup) {
            return atLightThreads ? w.runAtLightThreads(target, warmup) : w.run(target, warmup);
        }

        /** @return the pool's name in the progress line, with its size where that is not --threads */
        String label() {
            return extra ? target.kind().id() + "@" + target.threads() : target.kind().id();
        }
    }

    /**
     * Rows grouped by metric (in the order first seen), then by thread count (in the order first seen: --threads
     * before the light and join sizes), pools in run order within each.
     */
    private static List<Row> rows(String workload, Iterable<Series> all) {
        Map<Metric, Map<Integer, List<Row>>> byMetric = new LinkedHashMap<>();
        for (Series s : all) {
            byMetric.computeIfAbsent(s.metric, m -> new LinkedHashMap<>())
                    .computeIfAbsent(s.threads, n -> new ArrayList<>())
                    .add(Row.of(workload, s.kind.id(), s.threads, s.metric.id(), s.stats()));
        }
        List<Row> rows = new ArrayList<>();
        byMetric.values().forEach(byThreads -> byThreads.values().forEach(rows::addAll));
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
