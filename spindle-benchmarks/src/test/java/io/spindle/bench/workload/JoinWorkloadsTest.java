package io.spindle.bench.workload;

import io.spindle.JoinStrategy;
import io.spindle.ThreadPool;
import io.spindle.bench.Metric;
import io.spindle.bench.PoolKind;
import io.spindle.bench.Sizes;
import io.spindle.bench.Target;
import io.spindle.bench.ThreadAllocations;
import io.spindle.bench.Value;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The join workloads (issue 14): each runs and passes its own result check on eager and lazy Spindle pools, on FJP
 * and sequentially, at 1 and 2 workers, and reports exactly the metrics it promises, at its pool's size; at small
 * sizes (each warm-up run also runs the small instances for 100 ms, so the class takes about 10 s). Numbers are
 * checked for shape only (present, non-negative), never for speed.
 */
class JoinWorkloadsTest {
    private static final List<String> JOIN_WORKLOADS = List.of("join-depth-20", "fib-naive", "fib-naive-fn",
            "fib-cutoff", "tree-sum", "tree-sum-long", "tree-sum-fn", "tree-sum-1k", "tree-sum-1k-long",
            "tree-sum-1k-fn", "quicksort", "mergesort", "matmul", "coarse-pair",
            "coarse-nested", "coarse-nested-silent");

    private static final PoolKind[] KINDS = {PoolKind.SPINDLE_JEC, PoolKind.SPINDLE_JEC_EAGER, PoolKind.FJP,
            PoolKind.SEQUENTIAL};

    /** Runs {@code w} twice on every kind at 1 and 2 workers (the sequential one once); returns the last values. */
    private static List<Value> runEverywhere(ComputeWorkload w) {
        List<Value> last = List.of();
        w.setUp();
        try {
            for (PoolKind kind : KINDS) {
                for (int threads : kind == PoolKind.SEQUENTIAL ? new int[] {1} : new int[] {1, 2}) {
                    try (Target t = Target.open(kind, threads, Optional.of(Duration.ofNanos(30_000)))) {
                        for (int run = 0; run < 2; run++) {
                            List<Value> values = w.run(t, run == 0); // throws if the result is wrong
                            String where = w.name() + " on " + kind.id() + "@" + threads;
                            assertEquals(w.metrics(kind), values.stream().map(Value::metric).toList(), where);
                            for (Value v : values) {
                                assertEquals(t.threads(), v.threads(), where);
                                assertTrue(v.value() >= 0 && Double.isFinite(v.value()), where + ": " + v);
                                if (v.metric() == Metric.PROMOTIONS && kind == PoolKind.SPINDLE_JEC_EAGER) {
                                    assertEquals(0.0, v.value(), where + ": eager joins promote nothing");
                                }
                            }
                            last = values;
                        }
                    }
                }
            }
        } finally {
            w.tearDown();
        }
        return last;
    }

    @Test
    void theJoinWorkloadsAreExactlyTheseAndHaveASequentialVersion() {
        for (Sizes s : new Sizes[] {Sizes.quick(), Sizes.full()}) {
            List<Workload> all = Workloads.all(s, 1_000);
            List<String> joins = all.stream()
                    .filter(w -> !w.joinThreadsMetrics(PoolKind.SPINDLE_JEC).isEmpty()).map(Workload::name).toList();
            assertEquals(JOIN_WORKLOADS.stream().sorted().toList(), joins.stream().sorted().toList());
            for (Workload w : all) {
                if (!JOIN_WORKLOADS.contains(w.name())) continue;
                assertTrue(w.supports(PoolKind.SEQUENTIAL), w.name());
                assertEquals(w.metrics(PoolKind.FJP), w.joinThreadsMetrics(PoolKind.FJP), w.name());
                assertTrue(w.metrics(PoolKind.SPINDLE_JEC_EAGER).contains(Metric.PROMOTIONS), w.name());
                assertTrue(!w.metrics(PoolKind.FJP).contains(Metric.PROMOTIONS), w.name());
            }
            assertTrue(all.stream().anyMatch(w -> w.name().equals("tiny-install")));
        }
    }

    @Test
    void fibNaiveCountsItsJoins() {
        assertEquals(1_346_268, new FibNaive("fib-naive", 30, false).joins()); // docs/DESIGN.md §4.2's number
        for (int n = 2; n <= 20; n++) {
            assertEquals(countFibJoins(n), new FibNaive("fib-naive", n, false).joins(), "fib(" + n + ")");
        }
    }

    private static long countFibJoins(int n) {
        return n < 2 ? 0 : 1 + countFibJoins(n - 1) + countFibJoins(n - 2);
    }

    @Test
    void treeSumAndJoinDepthCountTheirJoins() {
        for (int depth = 1; depth <= 12; depth++) {
            assertEquals(innerNodes(Tree.balanced(depth)), new TreeSum("t", depth, 1, TreeSum.Form.PAIR).joins(),
                    "depth " + depth);
            assertEquals((1L << depth) - 1, new JoinDepth(depth).joins());
        }
        assertEquals(511, new TreeSum("tree-sum-1k", 10, 1_000, TreeSum.Form.PAIR).joins());
    }

    private static long innerNodes(Tree t) {
        return t == null || t.left == null ? 0 : 1 + innerNodes(t.left) + innerNodes(t.right);
    }

    @Test
    void fibNaiveIsRightEverywhereAndCountsItsBytes() {
        runEverywhere(new FibNaive("fib-naive-fn", 18, true));
        List<Value> seq = runEverywhere(new FibNaive("fib-naive", 18, false));
        if (ThreadAllocations.unsupported().isEmpty()) {
            assertTrue(seq.stream().anyMatch(v -> v.metric() == Metric.BYTES_PER_JOIN), seq.toString());
        }
        // FJP allocates a task per join that escapes to the deque: its count cannot be 0
        FibNaive w = new FibNaive("fib-naive", 18, false);
        try (Target t = Target.open(PoolKind.FJP, 2)) {
            List<Value> values = w.run(t, false);
            values.stream().filter(v -> v.metric() == Metric.BYTES_PER_JOIN)
                    .forEach(v -> assertTrue(v.value() > 0, v.toString()));
        }
    }

    @Test
    void joinDepthIsRightEverywhere() {
        runEverywhere(new JoinDepth(10));
    }

    @Test
    void fibCutoffIsRightEverywhere() {
        runEverywhere(new FibCutoff(24));
    }

    @Test
    void treeSumsAreRightEverywhere() {
        for (TreeSum.Form form : TreeSum.Form.values()) {
            runEverywhere(new TreeSum("tree-sum " + form, 12, 1, form));
            runEverywhere(new TreeSum("tree-sum-1k " + form, 10, 20, form));
        }
    }

    @Test
    void sortsAndMatmulAreRightEverywhere() {
        runEverywhere(new QuickSort(50_000));
        runEverywhere(new MergeSort(50_000));
        runEverywhere(new MatMul(128));
    }

    @Test
    void coarsePairIsRightEverywhere() {
        CoarsePair w = new CoarsePair(10_000);
        List<Value> seq = runEverywhere(w);
        assertEquals(List.of(Metric.TIME_MS), seq.stream().map(Value::metric).toList()); // no ns_per_join: 1 join
        assertEquals(10_000, w.steps());
        assertTrue(CoarsePair.calibrate() > 0);
        assertThrows(IllegalArgumentException.class, () -> new CoarsePair(-1));
    }

    @Test
    void coarseNestedRowsAreRightEverywhere() {
        for (CoarsePair.Shape shape : List.of(CoarsePair.Shape.NESTED, CoarsePair.Shape.NESTED_SILENT)) {
            CoarsePair w = new CoarsePair(shape, 10_000 + 3); // not a whole number of pieces: the last one is short
            List<Value> seq = runEverywhere(w);
            assertEquals(List.of(Metric.TIME_MS), seq.stream().map(Value::metric).toList());
            assertEquals(shape.workload, w.name());
        }
        assertEquals(Burn.steps(10_003), CoarsePair.halfInPieces(10_003, true));
        assertEquals(Burn.steps(10_003), CoarsePair.halfInPieces(10_003, false));
        assertEquals(Burn.steps(5), Burn.stepsFrom(Burn.stepsFrom(Burn.SEED, 2), 3));
    }

    @Test
    void coarsePairCalibratesAtSetUpUnlessGivenSteps() {
        CoarsePair w = new CoarsePair(0);
        w.setUp();
        assertTrue(w.steps() > 0);
        assertTrue(new CoarsePair(7).description().contains("7 xorshift steps"));
    }

    @Test
    void tinyInstallIsALatencyRowWithoutJoinSizes() {
        TinyInstall w = new TinyInstall(5);
        assertEquals(List.of(), w.joinThreadsMetrics(PoolKind.SPINDLE_JEC));
        assertEquals(List.of(Metric.TIME_MS, Metric.PROMOTIONS), w.metrics(PoolKind.SPINDLE_JEC));
        assertEquals(List.of(Metric.TIME_MS), w.metrics(PoolKind.FJP));
        w.setUp();
        try {
            for (PoolKind kind : KINDS) {
                try (Target t = Target.open(kind, 2)) {
                    assertEquals(w.metrics(kind), w.run(t, false).stream().map(Value::metric).toList());
                }
            }
        } finally {
            w.tearDown();
        }
    }

    @Test
    void theEagerKindBuildsEagerPoolsAndTheOthersTheDefault() {
        try (Target eager = Target.open(PoolKind.SPINDLE_JEC_EAGER, 1, Optional.of(Duration.ofNanos(30_000)));
             Target lazy = Target.open(PoolKind.SPINDLE_JEC, 1, Optional.of(Duration.ofNanos(30_000)));
             ThreadPool plain = ThreadPool.builder().threads(1).build()) {
            assertEquals(JoinStrategy.EAGER, eager.spindle().joinStrategy());
            assertEquals(plain.joinStrategy(), lazy.spindle().joinStrategy()); // the library's default
            try (Target sibling = lazy.sibling(2)) {
                assertEquals(2, sibling.threads());
                assertEquals(PoolKind.SPINDLE_JEC, sibling.kind());
            }
        }
    }
}
