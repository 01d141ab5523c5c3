package io.spindle.bench;

import io.spindle.JoinStrategy;
import io.spindle.bench.report.HtmlReport;
import io.spindle.bench.report.MarkdownReport;
import io.spindle.bench.report.ResultTable;
import io.spindle.bench.report.TablePrinter;
import io.spindle.bench.workload.ParallelStreams;
import io.spindle.bench.workload.Workload;
import io.spindle.bench.workload.Workloads;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The benchmark runner, {@code bin/spindle-bench}: runs the docs/DESIGN.md §4 workloads on every Spindle pool, on a
 * ForkJoinPool of the same parallelism and sequentially, then prints the table and writes results.json, report.md and
 * report.html. See {@link Options#USAGE}.
 */
public final class Runner {
    private Runner() {}

    public static void main(String[] args) throws Exception {
        if (Options.wantsHelp(args)) {
            System.out.print(Options.USAGE);
            return;
        }
        String command = "bin/spindle-bench " + String.join(" ", args); // as given, for the reports
        Options o;
        List<Workload> workloads;
        long coarsePairCalibrated = 0;
        try {
            o = Options.parse(args);
            if (o.reportFrom().isPresent()) {
                reportFrom(o.reportFrom().get(), o, command);
                return;
            }
            workloads = select(Workloads.all(o.sizes(), o.coarsePairSteps()), o.only());
            if (o.coarsePairSteps() == 0
                    && workloads.stream().anyMatch(w -> Workloads.usesCoarsePairSteps(w.name()))) {
                // once, here, and handed on as an option: every pool, and every JVM that --jvm-per-pool and
                // --order-check start with these args, then does the same work
                coarsePairCalibrated = Workloads.calibrateCoarsePair();
                args = withOption(args, "--coarse-pair-steps", Long.toString(coarsePairCalibrated));
                o = Options.parse(args);
                workloads = select(Workloads.all(o.sizes(), o.coarsePairSteps()), o.only());
            }
        } catch (Options.UsageException e) {
            System.err.println("spindle-bench: " + e.getMessage());
            System.err.print(Options.USAGE);
            System.exit(2);
            return;
        }
        // before anything initialises ForkJoinPool: the par-* workloads' JDK code splits by the common pool's size
        Optional<String> commonPoolWarning = ParallelStreams.matchCommonPool(o.threads());
        long start = System.nanoTime();
        Instant date = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Progress progress = new Progress(workloads.size());
        commonPoolWarning.ifPresent(w -> progress.note("spindle-bench: warning: " + w));
        if (coarsePairCalibrated > 0) {
            progress.note(String.format("spindle-bench: coarse-*: a 20 ms half is %,d loop steps on this machine "
                    + "(calibrated; --coarse-pair-steps %d repeats it)", coarsePairCalibrated, coarsePairCalibrated));
        }
        List<String> notes = new ArrayList<>();
        ThreadAllocations.unsupported().ifPresent(why -> notes.add("No `" + Metric.BYTES_PER_JOIN.id()
                + "` rows: " + why + "."));
        notes.forEach(n -> progress.note("spindle-bench: " + n.replace("`", "")));

        List<PoolKind> pools = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (PoolKind k : o.pools()) {
            Optional<String> why = k.unavailableReason();
            if (why.isPresent()) {
                skipped.add(k.id() + ": " + why.get());
                progress.note("spindle-bench: skipping " + k.id() + ": " + why.get());
            } else {
                pools.add(k);
            }
        }
        String joins = joinsNote(pools, o);
        progress.note(String.format("spindle-bench: %s run, %d workloads x %s, %d threads%s%s, %d runs after %d "
                + "warm-up (and at least %d ms of warm-up per pool)",
                o.quick() ? "quick" : "full", workloads.size(), pools.stream().map(PoolKind::id).toList(),
                o.threads(), o.lightThreadsNote(), o.joinThreadsNote(), o.runs(), o.warmup(), o.warmupMillis()));
        if (!joins.isEmpty()) progress.note("spindle-bench: " + joins.replace("`", ""));

        Bench bench = new Bench(o, progress);
        List<Row> rows = new ArrayList<>();
        Map<String, String> descriptions = new LinkedHashMap<>();
        for (Workload w : workloads) {
            descriptions.put(w.name(), w.description());
        }
        if (o.jvmPerPool() && pools.size() > 1) {
            rows.addAll(ChildRun.eachPoolInItsOwnJvm(args, pools, o.out(), progress));
        } else {
            for (int i = 0; i < workloads.size(); i++) {
                Workload w = workloads.get(i);
                long t0 = System.nanoTime();
                rows.addAll(bench.measure(i + 1, w, pools));
                progress.done(i + 1, w.name(), (System.nanoTime() - t0) / 1e9);
            }
        }
        progress.note("spindle-bench: all workloads done");
        checkComplete(workloads, pools, o, rows);
        progress.note("spindle-bench: every workload reported every metric on every pool it supports");

        Results results = new Results(Runtime.version() + " (" + System.getProperty("java.vendor") + ")",
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors(), date.toString(), rows);
        OrderCheck.Outcome order = o.orderCheck() ? OrderCheck.run(args, pools, o.out(), results, progress) : null;
        if (order != null) progress.note("order check: " + order.summary());

        List<String> poolIds = pools.stream().map(PoolKind::id).toList();
        RunInfo info = new RunInfo(o, command, poolIds, skipped, joins, notes, descriptions,
                (System.nanoTime() - start) / 1e9, order);
        ResultTable table = new ResultTable(rows, poolIds);
        System.out.print(TablePrinter.render(table));
        System.out.flush();
        write(o.out(), "results.json", JsonWriter.write(results));
        write(o.out(), "report.md", MarkdownReport.render(results, info));
        write(o.out(), "report.html", HtmlReport.render(results, info));
        for (Map.Entry<String, String> chart : HtmlReport.charts(table).entrySet()) {
            write(o.out(), "chart-" + chart.getKey() + ".svg", chart.getValue());
        }
        progress.note(String.format("spindle-bench: wrote results.json, report.md, report.html and the charts "
                + "(chart-*.svg) to %s in %.0f s", o.out(), info.seconds()));
    }

    /**
     * Writes the reports of an earlier run from its results.json, so that a change to the reports can be seen on
     * recorded numbers without running anything. The pools are taken in the order the file first names them; the
     * run's options, timing and workload descriptions are not in the file, and the header says so.
     */
    static void reportFrom(Path resultsJson, Options o, String command) throws IOException {
        Results results = JsonReader.readResults(Files.readString(resultsJson, StandardCharsets.UTF_8));
        List<String> pools = results.results().stream().map(Row::pool).distinct().toList();
        RunInfo info = new RunInfo(o, command, pools, List.of(), "", List.of(), Map.of(), Double.NaN, null);
        write(o.out(), "report.md", MarkdownReport.render(results, info));
        write(o.out(), "report.html", HtmlReport.render(results, info));
        Map<String, String> charts = HtmlReport.charts(new ResultTable(results.results(), pools));
        for (Map.Entry<String, String> chart : charts.entrySet()) {
            write(o.out(), "chart-" + chart.getKey() + ".svg", chart.getValue());
        }
        System.err.printf("spindle-bench: wrote report.md, report.html and %d charts to %s from %s%n",
                charts.size(), o.out(), resultsJson);
    }

    /** @return {@code args} with {@code option value} added at the end */
    static String[] withOption(String[] args, String option, String value) {
        String[] more = Arrays.copyOf(args, args.length + 2);
        more[args.length] = option;
        more[args.length + 1] = value;
        return more;
    }

    /**
     * @return for the reports' header: the join strategy each Spindle pool of the run really has (asked of a pool
     *         built as the runner builds them, since the library's default can be changed by a system property),
     *         and the heartbeat of the lazy ones; empty without Spindle pools
     */
    static String joinsNote(List<PoolKind> pools, Options o) {
        List<String> each = new ArrayList<>();
        boolean anyLazy = false;
        for (PoolKind k : pools) {
            if (!k.isSpindle()) continue;
            JoinStrategy s;
            try (Target t = Target.open(k, 1, o.heartbeat())) {
                s = t.spindle().joinStrategy();
            }
            anyLazy |= s == JoinStrategy.LAZY;
            each.add("`" + k.id() + "` " + s.name().toLowerCase(Locale.ROOT));
        }
        if (each.isEmpty()) return "";
        String note = "Joins: " + String.join(", ", each);
        if (anyLazy) note += "; heartbeat of the lazy pools: " + heartbeatNote(o);
        return note + ".";
    }

    /** @return the heartbeat interval the lazy pools run with, and where it comes from */
    static String heartbeatNote(Options o) {
        if (o.heartbeatMicros().isPresent()) return o.heartbeatMicros().getAsInt() + " µs (`--heartbeat-micros`)";
        String property = System.getProperty("spindle.heartbeatMicros");
        if (property != null) return property.trim() + " µs (`-Dspindle.heartbeatMicros`)";
        return "the library's default (100 µs)";
    }

    /**
     * Picks the workloads named in {@code only}, by name or by group ({@code echo} picks every echo-*conn row).
     *
     * @throws Options.UsageException naming the known workloads if one in {@code only} is unknown
     */
    static List<Workload> select(List<Workload> all, List<String> only) {
        if (only.isEmpty()) return all;
        List<Workload> picked = new ArrayList<>();
        for (String name : only) {
            List<Workload> named = all.stream().filter(x -> x.name().equals(name) || x.group().equals(name))
                    .toList();
            if (named.isEmpty()) {
                List<String> known = new ArrayList<>();
                for (Workload x : all) {
                    if (!known.contains(x.group())) known.add(x.group());
                    if (!known.contains(x.name())) known.add(x.name());
                }
                throw new Options.UsageException("unknown workload '" + name + "'; known: " + String.join(", ", known));
            }
            named.stream().filter(w -> !picked.contains(w)).forEach(picked::add);
        }
        return picked;
    }

    /**
     * Every metric a workload promises for every pool it supports must have a row, and a light load's metrics one
     * more at each of its {@code --light-threads} sizes, a join workload's at each of its {@code --join-threads}
     * sizes; say loudly if one has not.
     *
     * @throws IllegalStateException naming the first row missing
     */
    static void checkComplete(List<Workload> workloads, List<PoolKind> pools, Options o, List<Row> rows) {
        for (Workload w : workloads) {
            for (PoolKind k : pools) {
                if (!w.supports(k)) continue;
                List<Integer> lightThreads = Bench.lightThreads(w, k, o);
                List<Metric> lightMetrics = lightThreads.isEmpty() ? List.of() : w.lightThreadsMetrics(k);
                List<Integer> joinThreads = Bench.joinThreads(w, k, o);
                List<Metric> joinMetrics = joinThreads.isEmpty() ? List.of() : w.joinThreadsMetrics(k);
                for (Metric m : w.metrics(k)) {
                    // a light or join metric's rows at its extra sizes are not its --threads row; the others' rows
                    // need not be at --threads (threads_woken_per_job is at 8, oversubscribed's at 2): any one will do
                    boolean found = rows.stream().anyMatch(r -> r.workload().equals(w.name())
                            && r.pool().equals(k.id()) && r.metric().equals(m.id())
                            && !(lightMetrics.contains(m) && lightThreads.contains(r.threads()))
                            && !(joinMetrics.contains(m) && joinThreads.contains(r.threads())));
                    if (!found) {
                        throw new IllegalStateException("no " + m.id() + " row for " + w.name() + " on " + k.id());
                    }
                }
                requireAtSizes(w, k, lightMetrics, lightThreads, rows);
                requireAtSizes(w, k, joinMetrics, joinThreads, rows);
            }
        }
    }

    /** @throws IllegalStateException naming the first of {@code metrics} at one of {@code sizes} without a row */
    private static void requireAtSizes(Workload w, PoolKind k, List<Metric> metrics, List<Integer> sizes,
                                       List<Row> rows) {
        for (Metric m : metrics) {
            for (int n : sizes) {
                boolean found = rows.stream().anyMatch(r -> r.workload().equals(w.name())
                        && r.pool().equals(k.id()) && r.metric().equals(m.id()) && r.threads() == n);
                if (!found) {
                    throw new IllegalStateException("no " + m.id() + " row at " + n + " threads for "
                            + w.name() + " on " + k.id());
                }
            }
        }
    }

    private static void write(Path dir, String name, String content) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    }
}
