package io.spindle.bench.report;

import io.spindle.bench.Results;
import io.spindle.bench.RunInfo;

import io.spindle.bench.PoolKind;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * report.html: one self-contained page, a chart per metric kind (every Spindle pool ÷ every baseline the run has:
 * ForkJoinPool, sequential, the IO servers), then the table.
 */
public final class HtmlReport {
    private HtmlReport() {}

    public static String render(Results r, RunInfo info) {
        ResultTable t = new ResultTable(r.results(), info.pools());
        StringBuilder b = new StringBuilder();
        b.append("""
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>Spindle benchmark report</title>
                <style>
                body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1140px; }
                table { border-collapse: collapse; font-size: 13px; margin: 8px 0 24px; }
                th, td { border-bottom: 1px solid #ddd; padding: 3px 8px; text-align: right; }
                th { background: #f4f4f4; }
                td.l, th.l { text-align: left; }
                td.better { color: #0072B2; font-weight: bold; } td.worse { color: #D55E00; font-weight: bold; }
                td.within_noise { color: #666; }
                code { background: #f4f4f4; padding: 0 3px; }
                p.meta { color: #555; }
                </style></head><body>
                <h1>Spindle benchmark report</h1>
                """);
        b.append("<p class=\"meta\">").append(text(Notes.machine(r, info))).append("<br>Command: <code>")
                .append(SvgRatioChart.esc(info.command())).append("</code><br>").append(text(Notes.pools(info)))
                .append("</p>\n");

        b.append("<h2>Spindle ÷ baselines</h2>\n<p>").append(text(Notes.HOW_TO_READ_CHARTS)).append("</p>\n");
        Map<String, String> charts = charts(t);
        if (charts.isEmpty()) b.append("<p>No ratios: this run had no Spindle pool or no baseline.</p>\n");
        for (MetricKind k : MetricKind.values()) {
            if (!charts.containsKey(k.id())) continue;
            b.append("<h3 id=\"chart-").append(k.id()).append("\">").append(k.title()).append("</h3>\n<p>")
                    .append(text(Notes.metricsOf(k))).append("</p>\n").append(charts.get(k.id()));
        }

        b.append("<h2>Results (medians)</h2>\n<p>").append(text(Notes.HOW_TO_READ)).append("</p>\n");
        b.append("<table>\n<tr><th class=\"l\">workload</th><th class=\"l\">metric</th><th>thr</th>");
        t.pools().forEach(p -> b.append("<th>").append(p).append("</th>"));
        t.ratioPools().forEach(p -> b.append("<th>").append(ResultTable.shortName(p)).append(" ÷ fjp</th>"));
        b.append("</tr>\n");
        for (ResultTable.Line l : t.lines()) {
            b.append("<tr><td class=\"l\">").append(l.workload()).append("</td><td class=\"l\">").append(l.metric())
                    .append("</td><td>").append(l.threads()).append("</td>");
            for (String p : t.pools()) {
                b.append("<td>").append(l.row(p).map(x -> Fmt.num(x.median())).orElse("n/a")).append("</td>");
            }
            for (String p : t.ratioPools()) {
                String cls = verdict(l, p).map(v -> v.name().toLowerCase(Locale.ROOT)).orElse("");
                b.append("<td class=\"").append(cls).append("\">").append(Fmt.ratio(l.ratio(p))).append("</td>");
            }
            b.append("</tr>\n");
        }
        b.append("</table>\n");

        b.append("<h2>Order check</h2>\n");
        Notes.orderCheck(info).forEach(line -> b.append("<p>").append(text(line)).append("</p>\n"));
        b.append("<h2>Workloads</h2>\n<ul>\n");
        for (Map.Entry<String, String> e : info.descriptions().entrySet()) {
            b.append("<li><code>").append(e.getKey()).append("</code>: ").append(text(e.getValue())).append("</li>\n");
        }
        b.append("</ul>\n<h2>Metrics</h2>\n<ul>\n");
        Notes.metrics().forEach(m -> b.append("<li>").append(text(m)).append("</li>\n"));
        b.append("</ul>\n<h2>Method</h2>\n<ul>\n");
        Notes.method().forEach(m -> b.append("<li>").append(text(m)).append("</li>\n"));
        return b.append("</ul>\n</body></html>\n").toString();
    }

    /**
     * @return one chart per metric kind that has a ratio in this run, by {@link MetricKind#id()} in the kinds'
     *         order: inline in the page, and written next to it as chart-KIND.svg so other documents can embed them
     */
    public static Map<String, String> charts(ResultTable t) {
        Map<String, String> charts = new LinkedHashMap<>();
        for (MetricKind k : MetricKind.values()) {
            List<Comparison> bars = Comparison.of(t, k);
            if (!bars.isEmpty()) charts.put(k.id(), SvgRatioChart.render(k, bars));
        }
        return charts;
    }

    /** @return how the table's Spindle÷fjp cell reads, by the charts' rule, so the cell and its bar agree */
    private static Optional<Comparison.Verdict> verdict(ResultTable.Line l, String pool) {
        if (l.row(pool).isEmpty() || l.row(PoolKind.FJP.id()).isEmpty()) return Optional.empty();
        boolean higherIsBetter = MetricKind.of(l.metric()).map(MetricKind::higherIsBetter).orElse(false);
        return Optional.of(new Comparison(l.workload(), pool, PoolKind.FJP.id(), l.row(pool).get(),
                l.row(PoolKind.FJP.id()).get(), higherIsBetter).verdict());
    }

    /** Escapes, then turns `code` spans into &lt;code&gt;. */
    private static String text(String s) {
        return SvgRatioChart.esc(s).replaceAll("`([^`]*)`", "<code>$1</code>");
    }
}
