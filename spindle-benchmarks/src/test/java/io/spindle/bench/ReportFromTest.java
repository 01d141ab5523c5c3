package io.spindle.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** --report-from: the reports of a recorded run, written by this build's report code without running anything. */
class ReportFromTest {
    @Test
    void theOptionTakesAFile() {
        assertEquals(Optional.of(Path.of("r.json")), Options.parse("--report-from", "r.json").reportFrom());
        assertEquals(Optional.empty(), Options.parse().reportFrom());
    }

    @Test
    void writesTheReportsAndAChartPerKindFromAResultsFile(@TempDir Path dir) throws Exception {
        Results recorded = new Results("17 (x)", "Linux", 2, "2026-01-01T00:00:00Z", List.of(
                new Row("fib-naive", "spindle-jec", 2, "time_ms", 60, 50, 70, 3),
                new Row("fib-naive", "fjp", 2, "time_ms", 100, 90, 110, 3),
                new Row("echo-1conn", "spindle-jec", 2, "latency_p50_us", 50, 45, 55, 3),
                new Row("echo-1conn", "netty", 2, "latency_p50_us", 60, 58, 62, 3)));
        Path json = dir.resolve("results.json");
        Files.writeString(json, JsonWriter.write(recorded), StandardCharsets.UTF_8);
        Path out = dir.resolve("out");
        String[] args = {"--report-from", json.toString(), "--out", out.toString()};
        Runner.reportFrom(json, Options.parse(args), "bin/spindle-bench " + String.join(" ", args));
        try (var files = Files.list(out)) {
            assertEquals(List.of("chart-latency.svg", "chart-time.svg", "report.html", "report.md"),
                    files.map(p -> p.getFileName().toString()).sorted().toList());
        }
        String md = Files.readString(out.resolve("report.md"), StandardCharsets.UTF_8);
        assertTrue(md.contains("regenerated from `" + json + "`"), md);
        // the pools in the order the file names them: spindle-jec, fjp, netty
        assertTrue(md.contains("| fib-naive | time_ms | 2 | **60.0** (50.0–70.0) | **100** (90.0–110) | n/a | 0.60 |"),
                md);
        assertFalse(md.contains("took NaN"), md);
    }
}
