package io.spindle.bench.report;

import io.spindle.bench.PoolKind;
import io.spindle.bench.Row;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The results pivoted for reading: one line per workload x metric x pool size, one column per pool, and the
 * Spindle÷FJP ratio of each Spindle pool (medians from the same run, at the same size). Shared by the console table
 * and both reports.
 */
public final class ResultTable {
    /**
     * One workload x metric at one pool size.
     *
     * @param threads the thread count of its pool rows (not the sequential one)
     */
    public record Line(String workload, String metric, int threads, Map<String, Row> byPool) {
        public Optional<Row> row(String pool) {
            return Optional.ofNullable(byPool.get(pool));
        }

        /**
         * @return median of {@code spindlePool} ÷ median of fjp, if both exist; where fjp's is 0 (idle CPU can be),
         *         1 if Spindle's is 0 too, else infinity
         */
        public Optional<Double> ratio(String spindlePool) {
            Row s = byPool.get(spindlePool);
            Row f = byPool.get(PoolKind.FJP.id());
            if (s == null || f == null) return Optional.empty();
            if (f.median() == 0) return Optional.of(s.median() == 0 ? 1.0 : Double.POSITIVE_INFINITY);
            return Optional.of(s.median() / f.median());
        }

        /** @return whether this is the line of {@code workload}'s {@code metric} at {@code threads} */
        public boolean is(String workload, String metric, int threads) {
            return this.workload.equals(workload) && this.metric.equals(metric) && this.threads == threads;
        }
    }

    private final List<String> pools;
    private final List<Line> lines;

    /** @param poolOrder the column order (the run order); pools without any row are left out */
    public ResultTable(List<Row> rows, List<String> poolOrder) {
        // the pools' rows make the lines, a line per size; the sequential row (1 thread whatever --threads is) is
        // the baseline at every pool size, so it joins every line of its metric (a workload measured at more than
        // one size has several), or makes one of its own where there is none
        Map<String, Map<String, Row>> grouped = new LinkedHashMap<>();
        for (Row r : rows) {
            if (isSequential(r)) continue;
            grouped.computeIfAbsent(r.workload() + "\u0000" + r.metric() + "\u0000" + r.threads(),
                    k -> new LinkedHashMap<>()).put(r.pool(), r);
        }
        for (Row r : rows) {
            if (!isSequential(r)) continue;
            String prefix = r.workload() + "\u0000" + r.metric() + "\u0000";
            List<String> keys = grouped.keySet().stream().filter(k -> k.startsWith(prefix)).toList();
            if (keys.isEmpty()) keys = List.of(prefix + r.threads());
            for (String key : keys) grouped.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(r.pool(), r);
        }
        lines = new ArrayList<>();
        grouped.forEach((key, byPool) -> {
            String[] wmt = key.split("\u0000");
            lines.add(new Line(wmt[0], wmt[1], Integer.parseInt(wmt[2]), byPool));
        });
        pools = poolOrder.stream().filter(p -> rows.stream().anyMatch(r -> r.pool().equals(p))).toList();
    }

    private static boolean isSequential(Row r) {
        return r.pool().equals(PoolKind.SEQUENTIAL.id());
    }

    /** @return the pools that have rows, in column order */
    public List<String> pools() {
        return pools;
    }

    public List<Line> lines() {
        return lines;
    }

    /** @return the Spindle pools that get a ratio column: those present, when fjp is present too */
    public List<String> ratioPools() {
        if (!pools.contains(PoolKind.FJP.id())) return List.of();
        return pools.stream().filter(p -> PoolKind.byId(p).isSpindle()).toList();
    }

    /**
     * @return the line's metric, with its pool size where the same metric of the same workload has lines at more
     *         than one (the light loads): for labels that name a line without the {@code thr} column
     */
    public String metricLabel(Line l) {
        long sizes = lines.stream().filter(o -> o.workload().equals(l.workload()) && o.metric().equals(l.metric()))
                .count();
        return sizes > 1 ? l.metric() + " @" + l.threads() : l.metric();
    }

    /** @return "jec" for "spindle-jec": the short name in ratio headers */
    public static String shortName(String pool) {
        return pool.startsWith("spindle-") ? pool.substring("spindle-".length()) : pool;
    }
}
