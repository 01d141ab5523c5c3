package io.spindle.bench.report;

import io.spindle.bench.Options;
import io.spindle.bench.Results;
import io.spindle.bench.Row;
import io.spindle.bench.RunInfo;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The charts of report.html, read back as XML from a small fixed set of rows (issue 31). */
class ChartsTest {
    private static Row row(String workload, String pool, int threads, String metric, double median, double min,
                           double max) {
        return new Row(workload, pool, threads, metric, median, min, max, 3);
    }

    private static final List<Row> ROWS = List.of(
            // time: clearly better than fjp and than sequential, with a spread
            row("fib-naive", "spindle-jec", 2, "time_ms", 60, 50, 70),
            row("fib-naive", "fjp", 2, "time_ms", 100, 90, 110),
            row("fib-naive", "sequential", 1, "time_ms", 150, 140, 160),
            // CPU: the runs overlap, so within noise though the medians differ
            row("noop-1ms", "spindle-jec", 2, "cpu_percent", 4, 3.5, 4.5),
            row("noop-1ms", "fjp", 2, "cpu_percent", 4.4, 3.6, 5),
            // allocation: Spindle allocates nothing, fjp does, sequential does not either
            row("tree-sum", "spindle-jec", 2, "bytes_per_join", 0, 0, 0),
            row("tree-sum", "fjp", 2, "bytes_per_join", 48, 48, 48),
            row("tree-sum", "sequential", 1, "bytes_per_join", 0, 0, 0),
            // IO: no fjp, the servers are the baselines; requests/s is higher-is-better
            row("echo-1conn", "spindle-jec", 2, "requests_per_s", 900, 880, 950),
            row("echo-1conn", "platform-threads", 2, "requests_per_s", 1000, 990, 1010),
            row("echo-1conn", "netty", 2, "requests_per_s", 800, 790, 810),
            row("echo-1conn", "spindle-jec", 2, "latency_p50_us", 50, 45, 55),
            row("echo-1conn", "netty", 2, "latency_p50_us", 50, 49, 51),
            // counts only Spindle has: no chart
            row("sparse", "spindle-jec", 8, "threads_woken_per_job", 1.5, 1, 2),
            row("fib-naive", "spindle-jec", 2, "promotions", 12, 10, 14));

    private static final List<String> POOLS = List.of("spindle-jec", "fjp", "sequential", "platform-threads",
            "netty");

    private static Map<String, String> charts() {
        return HtmlReport.charts(new ResultTable(ROWS, POOLS));
    }

    private static Element parse(String svg) throws Exception {
        Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        return d.getDocumentElement();
    }

    /** @return the chart's bars, keyed "group | pool ÷ baseline" */
    private static Map<String, Element> bars(Element svg) {
        Map<String, Element> out = new LinkedHashMap<>();
        NodeList gs = svg.getElementsByTagName("g");
        String group = null;
        for (int i = 0; i < gs.getLength(); i++) {
            Element g = (Element) gs.item(i);
            if (!g.getAttribute("class").equals("cmp")) continue;
            String title = g.getElementsByTagName("title").item(0).getTextContent();
            group = title.substring(0, title.indexOf(':'));
            out.put(group + " | " + g.getAttribute("data-pool") + " ÷ " + g.getAttribute("data-baseline"), g);
        }
        return out;
    }

    private static List<Element> children(Element g, String tag, String cls) {
        List<Element> out = new ArrayList<>();
        NodeList l = g.getElementsByTagName(tag);
        for (int i = 0; i < l.getLength(); i++) {
            Element e = (Element) l.item(i);
            if (cls == null || e.getAttribute("class").equals(cls)) out.add(e);
        }
        return out;
    }

    @Test
    void oneChartPerMetricKindThatHasARatioAndNoneForCounts() throws Exception {
        Map<String, String> charts = charts();
        assertEquals(List.of("time", "cpu", "allocation", "latency", "throughput"), List.copyOf(charts.keySet()));
        for (Map.Entry<String, String> c : charts.entrySet()) {
            assertEquals(c.getKey(), parse(c.getValue()).getAttribute("data-kind"));
        }
        String all = String.join("", charts.values());
        assertFalse(all.contains("promotions") || all.contains("threads_woken_per_job"), all);
    }

    @Test
    void everyBaselineOfALineGetsABar() throws Exception {
        assertEquals(List.of("fib-naive · time_ms | spindle-jec ÷ fjp", "fib-naive · time_ms | spindle-jec ÷ sequential"),
                List.copyOf(bars(parse(charts().get("time"))).keySet()));
        assertEquals(List.of("echo-1conn · requests_per_s | spindle-jec ÷ platform-threads",
                "echo-1conn · requests_per_s | spindle-jec ÷ netty"),
                List.copyOf(bars(parse(charts().get("throughput"))).keySet()));
    }

    @Test
    void barsHaveWhiskersFromTheRunsAndTheAbsoluteValues() throws Exception {
        Element fjp = bars(parse(charts().get("time"))).get("fib-naive · time_ms | spindle-jec ÷ fjp");
        assertEquals(1, children(fjp, "rect", "bar").size());
        assertEquals(1, children(fjp, "line", "whisker").size());
        String title = fjp.getElementsByTagName("title").item(0).getTextContent();
        // 50 / 110 and 70 / 90
        assertTrue(title.contains("spindle-jec 60.0 ms (50.0–70.0)") && title.contains("fjp 100 ms (90.0–110)")
                && title.contains("ratio 0.60 (runs allow 0.45–0.78)"), title);
        String value = children(fjp, "text", "value").get(0).getTextContent();
        assertTrue(value.contains("0.60") && value.contains("60.0 ms vs 100 ms"), value);
        // the whisker spans from 0.45 to 0.78, left of the bar's end at 0.60 and right of it
        Element w = children(fjp, "line", "whisker").get(0);
        Element bar = children(fjp, "rect", "bar").get(0);
        double barStart = Double.parseDouble(bar.getAttribute("x"));
        assertTrue(Double.parseDouble(w.getAttribute("x1")) < barStart
                && Double.parseDouble(w.getAttribute("x2")) > barStart, "whisker around the bar's end");
    }

    @Test
    void aZeroOrUndefinedRatioIsLabelledNotDrawn() throws Exception {
        Map<String, Element> bars = bars(parse(charts().get("allocation")));
        Element fjp = bars.get("tree-sum · bytes_per_join | spindle-jec ÷ fjp");
        Element seq = bars.get("tree-sum · bytes_per_join | spindle-jec ÷ sequential");
        for (Element g : List.of(fjp, seq)) {
            assertTrue(children(g, "rect", "bar").isEmpty() && children(g, "line", "whisker").isEmpty());
            assertEquals("undefined", g.getAttribute("data-verdict"));
        }
        assertTrue(children(fjp, "text", "undefined").get(0).getTextContent().startsWith("ratio 0"));
        assertTrue(children(seq, "text", "undefined").get(0).getTextContent().startsWith("both 0"));
        assertTrue(children(fjp, "text", "value").get(0).getTextContent().contains("0 B vs 48.0 B"));
    }

    @Test
    void coloursSayBetterWorseOrWithinNoiseByTheMetricsDirection() throws Exception {
        Element time = bars(parse(charts().get("time"))).get("fib-naive · time_ms | spindle-jec ÷ fjp");
        Element cpu = bars(parse(charts().get("cpu"))).get("noop-1ms · cpu_percent | spindle-jec ÷ fjp");
        Map<String, Element> io = bars(parse(charts().get("throughput")));
        Element platform = io.get("echo-1conn · requests_per_s | spindle-jec ÷ platform-threads");
        Element netty = io.get("echo-1conn · requests_per_s | spindle-jec ÷ netty");
        assertEquals(SvgRatioChart.BETTER, children(time, "rect", "bar").get(0).getAttribute("fill"));
        assertEquals(SvgRatioChart.NOISE, children(cpu, "rect", "bar").get(0).getAttribute("fill"));
        // fewer requests per second than the platform threads over the whole range: worse, though below 1
        assertEquals(SvgRatioChart.WORSE, children(platform, "rect", "bar").get(0).getAttribute("fill"));
        assertEquals(SvgRatioChart.BETTER, children(netty, "rect", "bar").get(0).getAttribute("fill"));
    }

    @Test
    void eachChartSizesItsOwnLogAxis() throws Exception {
        // time: 0.31 (50 / 160) is the lowest whisker end, so the axis runs from 1/4 to 4; CPU's ratios are all
        // near 1, so its axis is 1/2 to 2 with ticks at 0.8 and 1.25
        assertEquals(List.of("1/4", "1/2", "1", "2", "4"), ticks(parse(charts().get("time"))));
        assertEquals(List.of("1/2", "1", "2", "0.8", "1.25"), ticks(parse(charts().get("cpu"))));
    }

    @Test
    void aRatioBeyondTheWidestAxisIsClippedWithAnArrow() throws Exception {
        List<Row> rows = List.of(row("idle", "spindle-jec", 2, "idle_cpu_ms", 1000, 900, 1100),
                row("idle", "fjp", 2, "idle_cpu_ms", 1, 1, 1));
        Element svg = parse(HtmlReport.charts(new ResultTable(rows, POOLS)).get("cpu"));
        assertEquals("64", ticks(svg).get(ticks(svg).size() - 1));
        Element g = bars(svg).get("idle · idle_cpu_ms | spindle-jec ÷ fjp");
        assertEquals(1, children(g, "path", null).size());
        assertTrue(children(g, "text", "value").get(0).getTextContent().contains("1000"));
    }

    @Test
    void theAxisFitsTheMediansAndAWhiskerBeyondItEndsInAnArrowhead() throws Exception {
        // one fjp run near 0 allows a ratio of 160; the medians' 1.5 sets the axis, 1/2 to 2
        List<Row> rows = List.of(row("idle", "spindle-jec", 2, "idle_cpu_ms", 1.5, 1.4, 1.6),
                row("idle", "fjp", 2, "idle_cpu_ms", 1, 0.01, 1.1));
        Element svg = parse(HtmlReport.charts(new ResultTable(rows, POOLS)).get("cpu"));
        assertEquals(List.of("1/2", "1", "2", "0.8", "1.25"), ticks(svg));
        Element g = bars(svg).get("idle · idle_cpu_ms | spindle-jec ÷ fjp");
        assertEquals(1, children(g, "polyline", "beyond").size());
        assertTrue(g.getElementsByTagName("title").item(0).getTextContent().contains("runs allow 1.27–160"));
    }

    @Test
    void aTinyRatioIsWrittenWithItsDigitsNotAsZero() throws Exception {
        List<Row> rows = List.of(row("tree-sum-fn", "spindle-jec", 2, "bytes_per_join", 0.0016, 0.0015, 0.0017),
                row("tree-sum-fn", "fjp", 2, "bytes_per_join", 44.3, 44, 45));
        Element g = bars(parse(HtmlReport.charts(new ResultTable(rows, POOLS)).get("allocation")))
                .get("tree-sum-fn · bytes_per_join | spindle-jec ÷ fjp");
        String value = children(g, "text", "value").get(0).getTextContent();
        assertTrue(value.startsWith("3.6e-05"), value);
        assertEquals(1, children(g, "rect", "bar").size());
    }

    @Test
    void theHtmlEmbedsEveryChartAndItsTableCellsUseTheSameVerdict() throws Exception {
        RunInfo info = new RunInfo(Options.parse("--threads", "2"), "cmd", POOLS, List.of(), "", List.of(), Map.of(),
                1, null);
        String html = HtmlReport.render(new Results("j", "o", 2, "d", ROWS), info);
        Matcher m = Pattern.compile("<svg .*?</svg>", Pattern.DOTALL).matcher(html);
        List<String> kinds = new ArrayList<>();
        while (m.find()) kinds.add(parse(m.group()).getAttribute("data-kind"));
        assertEquals(List.of("time", "cpu", "allocation", "latency", "throughput"), kinds);
        assertTrue(html.contains("<td class=\"better\">0.60</td>"), html);
        assertTrue(html.contains("<td class=\"within_noise\">0.91</td>"), html);
    }

    /** @return the axis labels: the texts with text-anchor middle above the plot */
    private static List<String> ticks(Element svg) {
        List<String> out = new ArrayList<>();
        for (Element t : children(svg, "text", null)) {
            if (t.getAttribute("text-anchor").equals("middle")) out.add(t.getTextContent());
        }
        return out;
    }
}
