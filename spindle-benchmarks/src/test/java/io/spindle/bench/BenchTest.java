package io.spindle.bench;

import io.spindle.bench.workload.Workload;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The light-load and join-size plumbing of {@link Bench} and {@link Runner#checkComplete}, on a workload that does no
 * work, so that only the pools' opening and closing take time.
 */
class BenchTest {
    /**
     * Records each call as "pool@threads" ("+light" for {@link #runAtLightThreads}, "warm-up" first for warm-ups).
     * On Spindle pools it also reports a metric at a fixed size of its own, as sparse's threads_woken_per_job does,
     * unless it is a join workload, which reports everything at its pool's size.
     */
    private static final class FakeLightLoad implements Workload {
        final List<String> calls = new ArrayList<>();
        /** For each measured run: when it started and when it ended (System.nanoTime). */
        final List<long[]> measured = new ArrayList<>();
        private final boolean light;
        private final boolean join;
        boolean fromRest;

        FakeLightLoad(boolean light) {
            this(light, false);
        }

        /** @param join also a join workload: measured at the --join-threads sizes */
        FakeLightLoad(boolean light, boolean join) {
            this.light = light;
            this.join = join;
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
            return kind.isSpindle() && !join ? List.of(Metric.CPU_PERCENT, Metric.THREADS_WOKEN_PER_JOB)
                    : List.of(Metric.CPU_PERCENT);
        }

        @Override
        public List<Metric> lightThreadsMetrics(PoolKind kind) {
            return light ? List.of(Metric.CPU_PERCENT) : List.of();
        }

        @Override
        public List<Metric> joinThreadsMetrics(PoolKind kind) {
            return join ? List.of(Metric.CPU_PERCENT) : List.of();
        }

        @Override
        public boolean timedFromRest() {
            return fromRest;
        }

        @Override
        public List<Value> run(Target t, boolean warmup) {
            long start = System.nanoTime();
            if (!warmup) measured.add(new long[] {start, start});
            record(t, warmup, "");
            List<Value> values = new ArrayList<>(List.of(new Value(Metric.CPU_PERCENT, t.threads(), t.threads())));
            if (t.kind().isSpindle() && !join) values.add(new Value(Metric.THREADS_WOKEN_PER_JOB, 8, 0.5));
            if (!warmup) measured.get(measured.size() - 1)[1] = System.nanoTime();
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
    void joinSizesRunInTheSameInterleavedRoundsThroughRun() {
        FakeLightLoad w = new FakeLightLoad(false, true);
        List<Row> rows = measure(w, options("--threads", "2", "--join-threads", "1", "--light-threads", "3"));
        List<String> round = List.of("spindle-jec@2", "fjp@2", "spindle-jec@1", "fjp@1"); // run(), not +light
        List<String> expected = new ArrayList<>(round.stream().map(c -> "warm-up " + c).toList());
        expected.addAll(round);
        expected.addAll(round);
        assertEquals(expected, w.calls);
        assertEquals(List.of(
                "spindle-jec cpu_percent@2 x2", "fjp cpu_percent@2 x2",
                "spindle-jec cpu_percent@1 x2", "fjp cpu_percent@1 x2"), summary(rows));
    }

    @Test
    void aWorkloadThatIsNoJoinWorkloadGetsNoJoinSizes() {
        FakeLightLoad w = new FakeLightLoad(false, false);
        measure(w, options("--threads", "2", "--join-threads", "1"));
        assertEquals(List.of("warm-up spindle-jec@2", "warm-up fjp@2", "spindle-jec@2", "fjp@2", "spindle-jec@2",
                "fjp@2"), w.calls);
    }

    @Test
    void checkCompleteWantsTheJoinRowsToo() {
        Options o = options("--threads", "2", "--join-threads", "1");
        FakeLightLoad w = new FakeLightLoad(false, true);
        List<Row> rows = measure(w, o);
        Runner.checkComplete(List.of(w), o.pools(), o, rows);

        List<Row> noJoinRow = rows.stream().filter(r -> !(r.pool().equals("spindle-jec") && r.threads() == 1))
                .toList();
        var e = assertThrows(IllegalStateException.class,
                () -> Runner.checkComplete(List.of(w), o.pools(), o, noJoinRow));
        assertEquals("no cpu_percent row at 1 threads for fake on spindle-jec", e.getMessage());

        // the join row must not stand in for the missing --threads one
        List<Row> noThreadsRow = rows.stream().filter(r -> !(r.pool().equals("fjp") && r.threads() == 2)).toList();
        e = assertThrows(IllegalStateException.class,
                () -> Runner.checkComplete(List.of(w), o.pools(), o, noThreadsRow));
        assertEquals("no cpu_percent row for fake on fjp", e.getMessage());

        Options none = options("--threads", "2", "--join-threads", "none");
        Runner.checkComplete(List.of(w), none.pools(), none, noJoinRow); // not asked for: not missing
    }

    @Test
    void checkCompleteTakesAFixedSizeMetricAtALightSize() {
        // threads_woken_per_job is at 8 and 8 is a light size here: it is still the metric's own row
        Options o = options("--threads", "2", "--light-threads", "8");
        FakeLightLoad w = new FakeLightLoad(true);
        Runner.checkComplete(List.of(w), o.pools(), o, measure(w, o));
    }

    /** Sleeping guarantees a lower bound only, so this checks no timing that a busy machine could break. */
    @Test
    void aWorkloadTimedFromRestGetsTheRestBeforeEveryMeasuredRun() {
        FakeLightLoad w = new FakeLightLoad(false, true);
        w.fromRest = true;
        measure(w, options("--threads", "2", "--join-threads", "1"));
        assertEquals(8, w.measured.size(), "2 runs x (spindle-jec and fjp, at 2 and at 1)");
        for (int i = 1; i < w.measured.size(); i++) {
            long gapNanos = w.measured.get(i)[0] - w.measured.get(i - 1)[1];
            assertTrue(gapNanos >= Bench.REST_MILLIS * 1_000_000L, "run " + i + " started " + gapNanos
                    + " ns after the one before");
        }
    }
}
