package io.spindle.bench.report;

import io.spindle.bench.Metric;
import io.spindle.bench.OrderCheck;
import io.spindle.bench.Results;
import io.spindle.bench.RunInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The prose both reports share, as lines of Markdown-ish text (`code` spans only), so report.md and report.html
 * say the same thing.
 */
final class Notes {
    private Notes() {}

    static String machine(Results r, RunInfo info) {
        if (info.options().reportFrom().isPresent()) {
            return String.format(Locale.ROOT, "JDK %s · %s · %d CPUs · %s · regenerated from `%s`: that file does "
                    + "not record the run's options, timing or workload descriptions (each row's number of runs is "
                    + "in the table's min–max and the charts' tooltips)", r.jdk(), r.os(), r.cpus(), r.date(),
                    info.options().reportFrom().get());
        }
        return String.format(Locale.ROOT, "JDK %s · %s · %d CPUs · %s · %s run: %d measured runs after %d warm-up "
                        + "(and at least %d ms of warm-up per pool), %d threads%s%s · took %.0f s",
                r.jdk(), r.os(), r.cpus(), r.date(),
                info.options().quick() ? "quick" : "full", info.options().runs(), info.options().warmup(),
                info.options().warmupMillis(), info.options().threads(), info.options().lightThreadsNote(),
                info.options().joinThreadsNote(), info.seconds());
    }

    static String pools(RunInfo info) {
        String s = "Pools, in run order: " + String.join(", ", info.pools().stream().map(p -> "`" + p + "`").toList())
                + ".";
        if (!info.skipped().isEmpty()) s += " Skipped: " + String.join("; ", info.skipped()) + ".";
        if (!info.joins().isEmpty()) s += " " + info.joins();
        for (String note : info.notes()) s += " " + note;
        return s;
    }

    static final String HOW_TO_READ = "Each cell is the median of the measured runs (min–max in report.md). "
            + "Spindle÷FJP is the ratio of the two medians from this same run; every metric but `tasks_per_s` (and "
            + "`requests_per_s`, which has no fjp row) is lower-is-better, so below 1 means Spindle did better; for "
            + "`tasks_per_s` above 1 does. `thr` is the pool size the row was measured with.";

    static final String HOW_TO_READ_CHARTS = "One chart per kind of metric, each on its own log axis centred on 1: "
            + "every Spindle pool's median ÷ the median of every baseline this run measured on the same line (`fjp`, "
            + "`sequential`, the IO servers), so a bar's length is how far from even it is. Whiskers span the ratios "
            + "the runs allow: Spindle's fastest run ÷ the baseline's slowest to Spindle's slowest ÷ the baseline's "
            + "fastest. Blue: Spindle better over that whole range; vermillion: worse over it; grey: the range holds "
            + "1 (or, with one run, the ratio is within 5 % of 1), which is noise. A ratio with a median of 0 in it "
            + "has no place on a log axis and is written out instead of drawn. Each bar's tooltip and the text "
            + "beside it give both medians. `promotions` and `threads_woken_per_job` only the Spindle pools count, "
            + "`ns_per_join`'s ratios are `time_ms`'s (the same runs ÷ the same join count), and `threads_created` "
            + "is a count to read beside the throughput, so these four are in the table only.";

    /** @return the kind's metrics, one line, for the text above its chart */
    static String metricsOf(MetricKind kind) {
        return String.join("; ", kind.metrics().stream().map(m -> "`" + m.id() + "`: " + m.meaning()).toList())
                + ".";
    }

    static List<String> metrics() {
        List<String> l = new ArrayList<>();
        for (Metric m : Metric.values()) l.add("`" + m.id() + "`: " + m.meaning());
        return l;
    }

    static List<String> method() {
        return List.of(
                "Every workload gets fresh pools; warm-up runs come first (at least `--warmup` rounds, and more until "
                        + "the warm-up took `--warmup-ms` per pool in all, so that the JIT has compiled short "
                        + "workloads), then the measured runs, interleaved "
                        + "(run 1 on every pool, then run 2, ...) so that load from elsewhere on a shared machine hits "
                        + "every pool alike. Every run checks its result.",
                "The light loads (`noop-1ms`, `noop-10ms`, `sparse`) are measured at `--threads` and again at "
                        + "each `--light-threads` pool size (8 by default), on pools of their own in the same "
                        + "interleaved rounds, and get a row per size: an idle pool's cost grows with the workers it "
                        + "keeps asleep, and 8 workers on a smaller machine are oversubscribed on purpose. "
                        + "Spindle÷FJP always divides medians at the same `thr`.",
                "The join workloads (`join-depth-20`, `fib-naive`, `fib-cutoff`, `tree-sum`, `tree-sum-1k`, "
                        + "the `coarse-*` rows, `quicksort`, `mergesort`, `matmul`) are measured at `--threads` and "
                        + "again at each `--join-threads` pool size (1 by default: joins nobody can steal), on pools of "
                        + "their own in the same interleaved rounds, and get a row per size. The sequential row, "
                        + "which has no pool to size, is shown on each of them.",
                "`spindle-*` pools use the library's default join strategy (lazy, docs/DESIGN.md §7) and the heartbeat "
                        + "of `--heartbeat-micros` (else the library's); `spindle-jec-eager` is `spindle-jec` with "
                        + "`JoinStrategy.EAGER`, in the same rounds. `promotions` is the `PoolStats.promotions()` "
                        + "delta over one run: join halves made stealable at a heartbeat.",
                "`tree-sum-1k` sums the 1,023-node tree 1,000 times inside one `install` (FJP: one `invoke` of a "
                        + "task that does the same), time per tree: the joins, as Spice and Chili measure them. "
                        + "`tiny-install` is one `install` / `invoke` from outside per tree, time per call: the round "
                        + "trip into the pool and back. `tree-sum-long` and `tree-sum-1k-long` are the same sums "
                        + "joined with `join(LongSupplier, LongSupplier, LongBinaryOperator)` on Spindle (no `Pair`, "
                        + "no boxing); `fib-naive-fn`, `tree-sum-fn` and `tree-sum-1k-fn` join with "
                        + "`join(ToLongFunction, T, T, LongBinaryOperator)` and a static method (no closure either). "
                        + "FJP's and the sequential code are unchanged.",
                "`coarse-pair` is one join of two halves of a xorshift loop, calibrated once per run to about 20 "
                        + "ms each (the count is handed to every JVM the runner starts); sequential runs both. "
                        + "`coarse-nested` makes that pair the first half of a root join whose second half is "
                        + "trivial, with the pair's halves calling `Spindle.heartbeat()` every 4,096 loop steps; "
                        + "`coarse-nested-silent` is the same without the calls (on a lazy pool the pair's second half "
                        + "then stays with its worker: about 40 ms at 2 workers). FJP forks every half at once.",
                "`bytes_per_join` = the heap bytes allocated during a run "
                        + "(`com.sun.management.ThreadMXBean.getThreadAllocatedBytes`) by the pool's worker threads, "
                        + "recorded as for the CPU time below, and by the calling thread, ÷ the joins the run makes "
                        + "(the same count as `ns_per_join`'s). The sequential row counts the calling thread alone.",
                "The Spindle version calls `pool.install(...)` and uses `Spindle.join` inside; the ForkJoinPool "
                        + "version is idiomatic `RecursiveTask` / `RecursiveAction` (`fork`/`compute`/`join`, "
                        + "`invokeAll`) through `invoke`, or `execute` for single tasks, on a `ForkJoinPool` of the "
                        + "same parallelism; the sequential version is the same algorithm without the joins.",
                "The par-* workloads compare the libraries' data-parallel APIs instead: `io.spindle.Parallel` "
                        + "against the JDK's own `IntStream.parallel()` / `Arrays.parallelSort`, called inside "
                        + "`fjp.submit(...)`, whose tasks then run on that ForkJoinPool's workers (the common pool "
                        + "starts no thread). The JDK sizes its splitting by the common pool's parallelism, so the "
                        + "runner sets `-Djava.util.concurrent.ForkJoinPool.common.parallelism` to the thread count "
                        + "unless given; each description states the value used. Their sequential rows are the plain "
                        + "JDK calls (`Arrays.stream(a).asLongStream().sum()`, a sequential stream, `Arrays.sort`).",
                "CPU of a pool = the CPU time (`ThreadMXBean.getThreadCpuTime`) of its worker threads, recorded as "
                        + "they start: Spindle's through the builder's `onThreadStart` hook, ForkJoinPool's through "
                        + "its `ForkJoinWorkerThreadFactory`.",
                "Latency = submit→start: `System.nanoTime()` just before `spawn` / `execute` on the submitting "
                        + "thread, and again as the task's first statement.",
                "`threads_woken_per_job` = `PoolStats.wakeups()` delta ÷ jobs, on a separate pool of 8 workers "
                        + "under the sparse load. ForkJoinPool counts no wake-ups, so for `fjp` it is n/a: the row is "
                        + "omitted from results.json and shown as n/a here.",
                "`ns_per_join` divides by the joins actually made: for tree-sum that is one per inner node "
                        + "(Spice's shape: leaves make no join), i.e. (nodes − 1) / 2.",
                "`blocking-mix` submits a batch of tasks at once from outside, one in three parking 1–10 ms (a "
                        + "seeded draw, the same tasks on every pool) inside `Spindle.blocking` or "
                        + "`ForkJoinPool.managedBlock`, the others a fixed xorshift loop of about 1 ms; "
                        + "`virtual-threads` runs each task on a virtual thread of its own, blocking bare. "
                        + "`blocking-mix-unmanaged` blocks bare on Spindle and FJP, so the worker itself blocks. Each "
                        + "run opens a fresh pool and lets it fall asleep before the clock starts; `threads_created` "
                        + "counts its own workers too. Virtual threads run on the JVM's one scheduler, whose "
                        + "parallelism (`-Djdk.virtualThreadScheduler.parallelism`, else the CPUs) is their row's "
                        + "`thr`, whatever `--threads` is; its CPU is the process's, as for the pools.");
    }

    /** @return the order-check paragraph lines, or a line saying how to get one */
    static List<String> orderCheck(RunInfo info) {
        OrderCheck.Outcome o = info.orderCheck();
        if (o == null) {
            return List.of("Not run this time: `--order-check` runs everything again in a fresh JVM with the pool "
                    + "order reversed and reports here how much the Spindle÷FJP ratios moved.");
        }
        List<String> l = new ArrayList<>();
        l.add("Forward order: " + String.join(", ", o.forwardOrder()) + "; reversed (fresh JVM): "
                + String.join(", ", o.reversedOrder()) + ". The reversed run's own report is in `"
                + o.reversedDir().getFileName() + "/`.");
        l.add(o.summary() + ".");
        double change = o.medianAbsChange();
        l.add(change <= Math.max(o.spread(), 0.05)
                ? "Verdict: the typical shift is within the run-to-run spread, so pool order does not matter at "
                        + "this noise level; single rows that moved more are noise-sensitive (short, timer- or "
                        + "scheduler-bound) rather than order-sensitive unless they move the same way every time."
                : "Verdict: the typical shift is larger than the run-to-run spread: treat order effects as "
                        + "possible and compare with more warm-up (`--warmup`) before trusting small ratio differences.");
        return l;
    }
}
