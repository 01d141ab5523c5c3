package io.spindle.bench.report;

import io.spindle.bench.Results;
import io.spindle.bench.RunInfo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** report.html: one self-contained page, a bar chart of the Spindle÷FJP ratios per Spindle pool, then the table. */
public final class HtmlReport {
    private HtmlReport() {}

    public static String render(Results r, RunInfo info) {
        ResultTable t = new ResultTable(r.results(), info.pools());
        StringBuilder b = new StringBuilder();
        b.append("""
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>Spindle benchmark report</title>
                <style>
                body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1100px; }
                table { border-collapse: collapse; font-size: 13px; margin: 8px 0 24px; }
                th, td { border-bottom: 1px solid #ddd; padding: 3px 8px; text-align: right; }
                th { background: #f4f4f4; }
                td.l, th.l { text-align: left; }
                td.win { color: #2e7d32; font-weight: bold; } td.loss { color: #c62828; font-weight: bold; }
                code { background: #f4f4f4; padding: 0 3px; }
                p.meta { color: #555; }
                </style></head><body>
                <h1>Spindle benchmark report</h1>
                """);
        b.append("<p class=\"meta\">").append(text(Notes.machine(r, info))).append("<br>Command: <code>")
                .append(SvgBarChart.esc(info.command())).append("</code><br>").append(text(Notes.pools(info)))
                .append("</p>\n");

        b.append("<h2>Spindle ÷ ForkJoinPool</h2>\n<p>").append(text(Notes.HOW_TO_READ)).append("</p>\n");
        if (t.ratioPools().isEmpty()) b.append("<p>No ratios: this run had no fjp or no Spindle pool.</p>\n");
        charts(t).values().forEach(b::append);

        b.append("<h2>Results (medians)</h2>\n<table>\n<tr><th class=\"l\">workload</th><th class=\"l\">metric</th>"
                + "<th>thr</th>");
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
                String cls = l.ratio(p).map(v -> v <= 1 ? "win" : "loss").orElse("");
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
     * @return one chart per Spindle pool that has a ratio column, by pool name: inline in the page, and written
     *         next to it as ratios-POOL.svg so other documents can embed them
     */
    public static Map<String, String> charts(ResultTable t) {
        Map<String, String> charts = new LinkedHashMap<>();
        for (String pool : t.ratioPools()) {
            List<SvgBarChart.Bar> bars = new ArrayList<>();
            for (ResultTable.Line l : t.lines()) {
                if (l.ratio(pool).isPresent()) { // rows fjp has no number for (threads_woken_per_job) stay out
                    bars.add(new SvgBarChart.Bar(l.workload(), t.metricLabel(l), l.ratio(pool).get()));
                }
            }
            charts.put(pool, SvgBarChart.render(pool + " ÷ fjp (log scale; below 1 = Spindle better)", bars));
        }
        return charts;
    }

    /** Escapes, then turns `code` spans into &lt;code&gt;. */
    private static String text(String s) {
        return SvgBarChart.esc(s).replaceAll("`([^`]*)`", "<code>$1</code>");
    }
}
