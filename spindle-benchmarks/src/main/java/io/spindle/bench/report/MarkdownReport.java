package io.spindle.bench.report;

import io.spindle.bench.OrderCheck;
import io.spindle.bench.Results;
import io.spindle.bench.RunInfo;

import java.util.Locale;
import java.util.Map;

/** report.md: the run's context, the full table with min–max, the order check, and what each number means. */
public final class MarkdownReport {
    private MarkdownReport() {}

    public static String render(Results r, RunInfo info) {
        ResultTable t = new ResultTable(r.results(), info.pools());
        StringBuilder b = new StringBuilder();
        b.append("# Spindle benchmark report\n\n");
        b.append(Notes.machine(r, info)).append("  \n");
        b.append("Command: `").append(info.command()).append("`  \n");
        b.append(Notes.pools(info)).append("\n\n");
        b.append("Charts of the ratios: `report.html` (and each chart alone: `chart-<kind>.svg`, kind = time, cpu, "
                + "allocation, latency, throughput). Raw numbers: `results.json`.\n\n");

        b.append("## Results\n\n").append(Notes.HOW_TO_READ).append("\n\n");
        b.append("| workload | metric | thr |");
        t.pools().forEach(p -> b.append(' ').append(p).append(" |"));
        t.ratioPools().forEach(p -> b.append(' ').append(ResultTable.shortName(p)).append("÷fjp |"));
        b.append("\n|---|---|--:|");
        t.pools().forEach(p -> b.append("--:|"));
        t.ratioPools().forEach(p -> b.append("--:|"));
        b.append('\n');
        for (ResultTable.Line l : t.lines()) {
            b.append("| ").append(l.workload()).append(" | ").append(l.metric()).append(" | ").append(l.threads())
                    .append(" |");
            for (String p : t.pools()) {
                b.append(' ').append(l.row(p).map(x -> "**" + Fmt.num(x.median()) + "** (" + Fmt.num(x.min()) + "–"
                        + Fmt.num(x.max()) + ")").orElse("n/a")).append(" |");
            }
            for (String p : t.ratioPools()) b.append(' ').append(Fmt.ratio(l.ratio(p))).append(" |");
            b.append('\n');
        }

        b.append("\n## Order check\n\n");
        Notes.orderCheck(info).forEach(line -> b.append(line).append("\n\n"));
        OrderCheck.Outcome o = info.orderCheck();
        if (o != null && !o.shifts().isEmpty()) {
            b.append("| workload | metric | thr | ratio | forward | reversed | change |\n"
                    + "|---|---|--:|---|--:|--:|--:|\n");
            for (OrderCheck.Shift s : o.shifts()) {
                b.append(String.format(Locale.ROOT, "| %s | %s | %d | %s÷fjp | %s | %s | %s |%n", s.workload(),
                        s.metric(), s.threads(), ResultTable.shortName(s.pool()), Fmt.num(s.forward()),
                        Fmt.num(s.reversed()), Fmt.percent(s.change())));
            }
            b.append('\n');
        }

        b.append("## Workloads\n\n");
        for (Map.Entry<String, String> e : info.descriptions().entrySet()) {
            b.append("- `").append(e.getKey()).append("`: ").append(e.getValue()).append('\n');
        }
        b.append("\n## Metrics\n\n");
        Notes.metrics().forEach(m -> b.append("- ").append(m).append('\n'));
        b.append("\n## Method\n\n");
        Notes.method().forEach(m -> b.append("- ").append(m).append('\n'));
        return b.toString();
    }
}
