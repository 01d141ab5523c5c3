package io.spindle.bench;

import io.spindle.bench.workload.Workload;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The light-load plumbing of {@link Bench} and {@link Runner#checkComplete}, on a workload that does no work, so
 * that only the pools' opening and closing take time.
 */
class BenchTest {
    /**
     * Records each call as "pool@threads" ("+light" for {@link #runAtLightThreads}, "warm-up" first for warm-ups).
     * On Spindle pools it also reports a metric at a fixed size of its own, as sparse's threads_woken_per_job does.
     */
    private static final class FakeLightLoad implements Workload {
        final List<String> calls = new ArrayList<>();
        private final boolean light;

        FakeLightLoad(boolean light) {
            this.light = light;
        }

        @Override
        public String name() {
            return "fake";
        }

        @Override
        public String description() {
            return "records its calls";
        }

        @Override
        public List<Metric> metrics(PoolKind kind) {
            return kind.isSpindle() ? List.of(Metric.CPU_PERCENT, Metric.THREADS_WOKEN_PER_JOB)
                    : List.of(Metric.CPU_PERCENT);
        }

        @Override
        public List<Metric> lightThreadsMetrics(PoolKind kind) {
            return light ? List.of(Metric.CPU_PERCENT) : List.of();
        }

        @Override
        public List<Value> run(Target t, boolean warmup) {
            record(t, warmup, "");
            List<Value> values = new ArrayList<>(List.of(new Value(Metric.CPU_PERCENT, t.threads(), t.threads())));
            if (t.kind().isSpindle()) values.add(new Value(Metric.THREADS_WOKEN_PER_JOB, 8, 0.5));
            return values;
        }

        @Override
        public List<Value> runAtLightThreads(Target t, boolean warmup) {
            record(t, warmup, "+light");
            return List.of(new Value(Metric.CPU_PERCENT, t.threads(), t.threads()));
        }

        private void record(Target t, boolean warmup, String how) {
            calls.add((warmup ? "warm-up " : "") + t.kind().id() + "@" + t.threads() + how);
        }
    }

    private static Options options(String... extra) {
        List<String> args = new ArrayList<>(List.of("--pools", "spindle-jec,fjp", "--runs", "2", "--warmup", "1",
                "--warmup-ms", "0"));
        args.addAll(List.of(extra));
        return Options.parse(args.toArray(String[]::new));
    }

    private static List<Row> measure(FakeLightLoad w, Options o) {
        return new Bench(o, new Progress(1)).measure(1, w, o.pools());
    }

    private static List<String> summary(List<Row> rows) {
        return rows.stream().map(r -> r.pool() + " " + r.metric() + "@" + r.threads() + " x" + r.runs()).toList();
    }

    @Test
    void lightSizesRunInTheSameInterleavedRoundsAsThreads() {
        FakeLightLoad w = new FakeLightLoad(true);
        measure(w, options("--threads", "2", "--light-threads", "3"));
        List<String> round = List.of("spindle-jec@2", "fjp@2", "spindle-jec@3+light", "fjp@3+light");
        List<String> expected = new ArrayList<>(round.stream().map(c -> "warm-up " + c).toList());
        expected.addAll(round); // run 1
        expected.addAll(round); // run 2
        assertEquals(expected, w.calls);
    }

    @Test
    void lightSizesGetRowsOfTheirOwnBesideThreads() {
        List<Row> rows = measure(new FakeLightLoad(true), options("--threads", "2", "--light-threads", "3,4"));
        assertEquals(List.of(
                "spindle-jec cpu_percent@2 x2", "fjp cpu_percent@2 x2",
                "spindle-jec cpu_percent@3 x2", "fjp cpu_percent@3 x2",
                "spindle-jec cpu_percent@4 x2", "fjp cpu_percent@4 x2",
                "spindle-jec threads_woken_per_job@8 x2"), summary(rows));
        assertEquals(3.0, rows.get(2).median()); // the fake reports its pool's size: the light row ran at 3
    }

    @Test
    void aLightSizeEqualToThreadsOrNoneAddsNothing() {
        List<String> once = List.of("spindle-jec cpu_percent@2 x2", "fjp cpu_percent@2 x2",
                "spindle-jec threads_woken_per_job@8 x2");
        assertEquals(once, summary(measure(new FakeLightLoad(true), options("--threads", "2", "--light-threads",
                "2"))));
        assertEquals(once, summary(measure(new FakeLightLoad(true), options("--threads", "2", "--light-threads",
                "none"))));
        assertEquals(once, summary(measure(new FakeLightLoad(false), options("--threads", "2"))));
    }

    @Test
    void checkCompleteWantsTheLightRowsToo() {
        Options o = options("--threads", "2", "--light-threads", "3");
        FakeLightLoad w = new FakeLightLoad(true);
        List<Row> rows = measure(w, o);
        Runner.checkComplete(List.of(w), o.pools(), o, rows); // complete: does not throw

        List<Row> noLightRow = rows.stream().filter(r -> !(r.pool().equals("fjp") && r.threads() == 3)).toList();
        var e = assertThrows(IllegalStateException.class,
                () -> Runner.checkComplete(List.of(w), o.pools(), o, noLightRow));
        assertEquals("no cpu_percent row at 3 threads for fake on fjp", e.getMessage());

        // the light row must not stand in for the missing --threads one
        List<Row> noThreadsRow = rows.stream().filter(r -> !(r.pool().equals("fjp") && r.threads() == 2)).toList();
        e = assertThrows(IllegalStateException.class,
                () -> Runner.checkComplete(List.of(w), o.pools(), o, noThreadsRow));
        assertEquals("no cpu_percent row for fake on fjp", e.getMessage());
    }

    @Test
    void checkCompleteTakesAFixedSizeMetricAtALightSize() {
        // threads_woken_per_job is at 8 and 8 is a light size here: it is still the metric's own row
        Options o = options("--threads", "2", "--light-threads", "8");
        FakeLightLoad w = new FakeLightLoad(true);
        Runner.checkComplete(List.of(w), o.pools(), o, measure(w, o));
    }
}
