package io.spindle.bench.report;

import io.spindle.bench.PoolKind;
import io.spindle.bench.Row;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One bar of a chart: a Spindle pool's row divided by a baseline's row (ForkJoinPool, sequential or an IO server) of
 * the same line of the result table, with what the runs' min–max says about that ratio.
 *
 * @param group          the line's label, "workload · metric" (with "@threads" where the metric has several sizes)
 * @param higherIsBetter whether a ratio above 1 is Spindle doing better
 */
public record Comparison(String group, String pool, String baseline, Row spindle, Row base, boolean higherIsBetter) {

    /** How the ratio reads, for its colour. */
    public enum Verdict { BETTER, WORSE, WITHIN_NOISE, UNDEFINED }

    /**
     * A ratio that stays within this factor of 1 counts as noise when the runs give no min–max to judge by (a single
     * run): timer resolution and scheduling alone move a short workload's median by a few per cent.
     */
    static final double NO_SPREAD_TOLERANCE = 1.05;

    /** @return every Spindle pool ÷ every baseline on each line that has both, in the table's column order */
    public static List<Comparison> of(ResultTable t, MetricKind kind) {
        List<String> spindle = t.pools().stream().filter(p -> PoolKind.byId(p).isSpindle()).toList();
        List<String> baselines = t.pools().stream().filter(p -> !PoolKind.byId(p).isSpindle()).toList();
        List<Comparison> out = new ArrayList<>();
        for (ResultTable.Line l : t.lines()) {
            if (MetricKind.of(l.metric()).orElse(null) != kind) continue;
            for (String b : baselines) {
                for (String s : spindle) {
                    if (l.row(s).isPresent() && l.row(b).isPresent()) {
                        out.add(new Comparison(l.workload() + " · " + t.metricLabel(l), s, b, l.row(s).get(),
                                l.row(b).get(), kind.higherIsBetter()));
                    }
                }
            }
        }
        return out;
    }

    /** @return whether the ratio is a finite positive number, which a log axis can place */
    public boolean drawable() {
        return spindle.median() > 0 && base.median() > 0 && Double.isFinite(ratio());
    }

    /** @return median ÷ median; 0, infinite or NaN where a median is 0 (see {@link #undefinedReason()}) */
    public double ratio() {
        return spindle.median() / base.median();
    }

    /**
     * @return the lowest ratio the runs allow, Spindle's fastest run ÷ the baseline's slowest: with {@link #high()}
     *         the range within which the two pools' runs overlap, drawn as whiskers
     */
    public double low() {
        return spindle.min() / base.max();
    }

    /** @return the highest ratio the runs allow, Spindle's slowest run ÷ the baseline's fastest */
    public double high() {
        return spindle.max() / base.min();
    }

    /** @return whether the runs give a min–max range: more than one run, and the runs differed */
    public boolean hasSpread() {
        return (spindle.runs() > 1 || base.runs() > 1) && spindle.min() > 0 && base.min() > 0
                && low() < high() && Double.isFinite(high());
    }

    /**
     * @return within noise if the min–max range of the ratio holds 1 (some run of Spindle was as good as some run
     *         of the baseline), or without a range if the ratio is within 5 % of 1; else better or worse by the
     *         metric's direction
     */
    public Verdict verdict() {
        if (!drawable()) return Verdict.UNDEFINED;
        double r = ratio();
        boolean noise = hasSpread() ? low() <= 1 && 1 <= high()
                : r < NO_SPREAD_TOLERANCE && r > 1 / NO_SPREAD_TOLERANCE;
        if (noise) return Verdict.WITHIN_NOISE;
        return (r < 1) != higherIsBetter ? Verdict.BETTER : Verdict.WORSE;
    }

    /** @return why there is no bar ("Spindle's median is 0", ...), or empty if there is one */
    public String undefinedReason() {
        if (drawable()) return "";
        if (spindle.median() == 0 && base.median() == 0) return "both 0";
        if (base.median() == 0) return baseline + " 0";
        if (spindle.median() == 0) return "ratio 0";
        return "no ratio";
    }

    /** @return "jec ÷ fjp": the bar's own label under its group */
    public String pairLabel() {
        return ResultTable.shortName(pool) + " ÷ " + baseline;
    }

    /** @return "12.3 ms (11.9–13.0)": a row's median and min–max with the metric's unit */
    static String value(Row r) {
        String unit = MetricKind.unit(r.metric());
        String sep = unit.isEmpty() || unit.equals("%") || unit.equals("/s") ? "" : " ";
        String v = Fmt.num(r.median()) + sep + unit;
        return r.runs() > 1 && r.min() < r.max() ? v + " (" + Fmt.num(r.min()) + "–" + Fmt.num(r.max()) + ")" : v;
    }

    /** @return the short absolute values beside a bar: "12.3 ms vs 14.8 ms" */
    public String absolute() {
        String unit = MetricKind.unit(spindle.metric());
        String sep = unit.isEmpty() || unit.equals("%") || unit.equals("/s") ? "" : " ";
        return Fmt.num(spindle.median()) + sep + unit + " vs " + Fmt.num(base.median()) + sep + unit;
    }

    /** @return the tooltip: both rows in full, and the ratio with its range */
    public String tooltip() {
        StringBuilder b = new StringBuilder(group).append(": ").append(pool).append(' ').append(value(spindle))
                .append(", ").append(baseline).append(' ').append(value(base)).append(" (medians, min–max of ")
                .append(spindle.runs()).append(" and ").append(base.runs()).append(" runs); ");
        if (!drawable()) return b.append(undefinedReason()).append(", not drawn").toString();
        b.append("ratio ").append(Fmt.ratio(Optional.of(ratio())));
        if (hasSpread()) {
            b.append(" (runs allow ").append(Fmt.ratio(Optional.of(low()))).append("–")
                    .append(Fmt.ratio(Optional.of(high()))).append(')');
        }
        return b.append(", ").append(verdict().name().toLowerCase(Locale.ROOT).replace('_', ' ')).toString();
    }
}
