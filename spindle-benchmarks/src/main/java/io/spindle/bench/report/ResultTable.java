package io.spindle.bench.report;

import io.spindle.bench.PoolKind;
import io.spindle.bench.Row;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The results pivoted for reading: one line per workload x metric, one column per pool, and the Spindle÷FJP ratio
 * of each Spindle pool (medians from the same run). Shared by the console table and both reports.
 */
public final class ResultTable {
    /**
     * One workload x metric.
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
    }

    private final List<String> pools;
    private final List<Line> lines;

    /** @param poolOrder the column order (the run order); pools without any row are left out */
    public ResultTable(List<Row> rows, List<String> poolOrder) {
        Map<String, Map<String, Row>> grouped = new LinkedHashMap<>();
        for (Row r : rows) {
            grouped.computeIfAbsent(r.workload() + "\u0000" + r.metric(), k -> new LinkedHashMap<>()).put(r.pool(), r);
        }
        lines = new ArrayList<>();
        grouped.forEach((key, byPool) -> {
            String[] wm = key.split("\u0000");
            int threads = byPool.values().stream().filter(r -> !r.pool().equals(PoolKind.SEQUENTIAL.id()))
                    .mapToInt(Row::threads).findFirst().orElse(1);
            lines.add(new Line(wm[0], wm[1], threads, byPool));
        });
        pools = poolOrder.stream().filter(p -> rows.stream().anyMatch(r -> r.pool().equals(p))).toList();
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

    /** @return "jec" for "spindle-jec": the short name in ratio headers */
    public static String shortName(String pool) {
        return pool.startsWith("spindle-") ? pool.substring("spindle-".length()) : pool;
    }
}
