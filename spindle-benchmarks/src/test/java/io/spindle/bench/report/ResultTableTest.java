package io.spindle.bench.report;

import io.spindle.bench.Options;
import io.spindle.bench.Results;
import io.spindle.bench.Row;
import io.spindle.bench.RunInfo;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResultTableTest {
    private static Row row(String workload, String pool, int threads, String metric, double median) {
        return new Row(workload, pool, threads, metric, median, median / 2, median * 2, 3);
    }

    /** The runner's row order: metric by metric, --threads before the light size, pools in run order. */
    private static final List<Row> ROWS = List.of(
            row("fib-naive", "spindle-jec", 2, "time_ms", 60),
            row("fib-naive", "fjp", 2, "time_ms", 100),
            row("fib-naive", "sequential", 1, "time_ms", 150),
            row("noop-1ms", "spindle-jec", 2, "cpu_percent", 1),
            row("noop-1ms", "fjp", 2, "cpu_percent", 4),
            row("noop-1ms", "spindle-jec", 8, "cpu_percent", 3),
            row("noop-1ms", "fjp", 8, "cpu_percent", 2),
            row("sparse", "spindle-jec", 8, "threads_woken_per_job", 1.5));

    private static final List<String> POOLS = List.of("spindle-jec", "fjp", "sequential");

    @Test
    void aMetricAtTwoPoolSizesGetsALineEach() {
        ResultTable t = new ResultTable(ROWS, POOLS);
        assertEquals(List.of("fib-naive time_ms 2", "noop-1ms cpu_percent 2", "noop-1ms cpu_percent 8",
                "sparse threads_woken_per_job 8"),
                t.lines().stream().map(l -> l.workload() + " " + l.metric() + " " + l.threads()).toList());
    }

    @Test
    void ratiosPairRowsOfTheSamePoolSize() {
        ResultTable t = new ResultTable(ROWS, POOLS);
        assertEquals(Optional.of(0.25), t.lines().get(1).ratio("spindle-jec"));
        assertEquals(Optional.of(1.5), t.lines().get(2).ratio("spindle-jec"));
        assertEquals(Optional.empty(), t.lines().get(3).ratio("spindle-jec")); // fjp has no wake-up count
    }

    @Test
    void theSequentialRowJoinsTheLineOfItsMetric() {
        ResultTable t = new ResultTable(ROWS, POOLS);
        ResultTable.Line fib = t.lines().get(0);
        assertEquals(2, fib.threads());
        assertEquals(150, fib.row("sequential").orElseThrow().median());
        assertEquals(Optional.of(0.6), fib.ratio("spindle-jec"));
    }

    @Test
    void theSequentialRowJoinsEveryPoolSizeOfItsMetric() {
        // a join workload at --threads 2 and --join-threads 1, in the runner's row order
        List<Row> rows = List.of(
                row("fib-naive", "spindle-jec", 2, "time_ms", 60),
                row("fib-naive", "fjp", 2, "time_ms", 100),
                row("fib-naive", "sequential", 1, "time_ms", 20),
                row("fib-naive", "spindle-jec", 1, "time_ms", 40),
                row("fib-naive", "fjp", 1, "time_ms", 200));
        ResultTable t = new ResultTable(rows, POOLS);
        assertEquals(List.of("2: 60.0 100.0 20.0", "1: 40.0 200.0 20.0"), t.lines().stream()
                .map(l -> l.threads() + ": " + String.join(" ", POOLS.stream()
                        .map(p -> String.valueOf(l.row(p).orElseThrow().median())).toList()))
                .toList());
        assertEquals(Optional.of(0.2), t.lines().get(1).ratio("spindle-jec"));
    }

    @Test
    void theHeaderNamesTheJoinSizesTheJoinStrategiesAndTheNotes() {
        RunInfo info = new RunInfo(Options.parse("--threads", "2", "--heartbeat-micros", "30"), "cmd", POOLS,
                List.of(), "Joins: `spindle-jec` lazy; heartbeat of the lazy pools: 30 µs.",
                List.of("No `bytes_per_join` rows: why."), Map.of(), 1, null);
        String md = MarkdownReport.render(new Results("j", "o", 2, "d", ROWS), info);
        assertTrue(md.contains("2 threads (light loads also at 8) (join workloads also at 1)"), md);
        assertTrue(md.contains("Joins: `spindle-jec` lazy; heartbeat of the lazy pools: 30 µs. No `bytes_per_join` "
                + "rows: why."), md);
        String html = HtmlReport.render(new Results("j", "o", 2, "d", ROWS), info);
        assertTrue(html.contains("Joins: <code>spindle-jec</code> lazy; heartbeat of the lazy pools: 30 µs."), html);
    }

    @Test
    void theSequentialRowAloneMakesALineAtOneThread() {
        ResultTable t = new ResultTable(List.of(row("fib-naive", "sequential", 1, "time_ms", 150)), POOLS);
        assertEquals(1, t.lines().size());
        assertEquals(1, t.lines().get(0).threads());
    }

    @Test
    void labelsNameThePoolSizeOnlyWhereAMetricHasSeveral() {
        ResultTable t = new ResultTable(ROWS, POOLS);
        assertEquals(List.of("time_ms", "cpu_percent @2", "cpu_percent @8", "threads_woken_per_job"),
                t.lines().stream().map(t::metricLabel).toList());
    }

    @Test
    void theConsoleTableAndTheChartsShowBothPoolSizes() {
        ResultTable t = new ResultTable(ROWS, POOLS);
        String console = TablePrinter.render(t).replaceAll(" +", " ");
        assertTrue(console.contains("noop-1ms cpu_percent 2 1.00 4.00 n/a 0.25\n cpu_percent 8 3.00 2.00 n/a 1.50\n"),
                console);
        String chart = HtmlReport.charts(t).get("cpu");
        assertTrue(chart.contains("noop-1ms · cpu_percent @2") && chart.contains("noop-1ms · cpu_percent @8"), chart);
    }

    @Test
    void theMarkdownReportShowsTheSpreadOfBothPoolSizes() {
        RunInfo info = new RunInfo(Options.parse("--threads", "2"), "cmd", POOLS, List.of(), "", List.of(), Map.of(),
                1, null);
        String md = MarkdownReport.render(new Results("j", "o", 2, "d", ROWS), info);
        assertTrue(md.contains("| noop-1ms | cpu_percent | 2 | **1.00** (0.500–2.00) | **4.00** (2.00–8.00) | n/a "
                + "| 0.25 |"), md);
        assertTrue(md.contains("| noop-1ms | cpu_percent | 8 | **3.00** (1.50–6.00) | **2.00** (1.00–4.00) | n/a "
                + "| 1.50 |"), md);
        assertTrue(md.contains("2 threads (light loads also at 8)"), md);
    }
}
