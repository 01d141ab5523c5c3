package io.spindle.bench.workload;

import io.spindle.bench.Metric;
import io.spindle.bench.PoolKind;
import io.spindle.bench.Sizes;
import io.spindle.bench.Target;
import io.spindle.bench.Value;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The blocking-mix rows (issue 33) on short batches whose compute tasks are tiny, so that the blocks decide the time:
 * then a pool whose workers block cannot finish faster than the blocks shared among its workers, and one that keeps
 * its parallelism while they block must. Those bounds, not speeds, are what is checked; each run also checks its own
 * sum (every task ran once) and throws otherwise.
 */
class BlockingMixTest {
    private static final int TASKS = 300;
    private static final int WORKERS = 2;
    /** About 25 µs: a third of the tasks block 1–10 ms, so the batch is mostly blocks. */
    private static final long TINY_STEPS = 10_000;

    @Test
    void bothRowsAreRegisteredInOneGroupAndRunWhereTheySay() {
        for (Sizes s : new Sizes[] {Sizes.quick(), Sizes.full()}) {
            List<Workload> rows = Workloads.all(s).stream().filter(w -> w.group().equals("blocking-mix")).toList();
            assertEquals(List.of("blocking-mix", "blocking-mix-unmanaged"),
                    rows.stream().map(Workload::name).toList());
            for (Workload w : rows) {
                boolean managed = w.name().equals("blocking-mix");
                for (PoolKind k : PoolKind.values()) {
                    boolean runs = k.isSpindle() || k == PoolKind.FJP || (managed && k == PoolKind.VIRTUAL_THREADS);
                    assertEquals(runs, w.supports(k), w.name() + " on " + k.id());
                }
                assertEquals(List.of(Metric.TASKS_PER_S, Metric.THREADS_CREATED, Metric.CPU_US_PER_TASK),
                        w.metrics(PoolKind.SPINDLE_JEC));
            }
        }
        assertTrue(Sizes.quick().blockingMixTasks() < Sizes.full().blockingMixTasks());
    }

    @Test
    void oneInThreeBlocksOneToTenMillisTheSameEveryTime() {
        BlockingMix a = new BlockingMix(true, 3_000);
        BlockingMix b = new BlockingMix(false, 3_000);
        a.setUp();
        b.setUp();
        long sum = 0;
        for (int i = 0; i < 3_000; i++) {
            assertEquals(a.blockNanos(i), b.blockNanos(i), "task " + i);
            if (i % 3 == 2) {
                assertTrue(a.blockNanos(i) >= 1_000_000 && a.blockNanos(i) <= 10_000_000, "task " + i);
                sum += a.blockNanos(i);
            } else {
                assertEquals(0, a.blockNanos(i), "task " + i);
            }
        }
        double meanMillis = sum / 1_000 / 1e6;
        assertTrue(meanMillis > 5.0 && meanMillis < 6.0, "a uniform draw over 1-10 ms averages 5.5: " + meanMillis);
        a.tearDown();
        try (Target t = Target.open(PoolKind.FJP, 1)) {
            assertThrows(IllegalStateException.class, () -> a.run(t, false), "a run needs setUp's tasks");
        }
    }

    @Test
    void theWrappersKeepTheParallelismAndBareBlocksDoNot() {
        BlockingMix managed = new BlockingMix(true, TASKS, TINY_STEPS);
        BlockingMix bare = new BlockingMix(false, TASKS, TINY_STEPS);
        managed.setUp();
        bare.setUp();
        long blocked = 0;
        for (int i = 0; i < TASKS; i++) blocked += managed.blockNanos(i);
        // the bare pools' bound: each worker parks for its blocks one after another, and park never ends early
        double barePerSecond = TASKS / (blocked / (double) WORKERS / 1e9);
        try {
            List<PoolKind> kinds = new ArrayList<>(List.of(PoolKind.SPINDLE_JEC, PoolKind.FJP));
            if (PoolKind.VIRTUAL_THREADS.unavailableReason().isEmpty()) kinds.add(PoolKind.VIRTUAL_THREADS);
            for (PoolKind k : kinds) {
                Map<Metric, Value> m = measured(managed, k);
                String where = "blocking-mix on " + k.id() + ": " + m.values();
                if (k != PoolKind.FJP) {
                    // with every block overlapped the batch takes about the longest block, far under the bound
                    assertTrue(m.get(Metric.TASKS_PER_S).value() > 2 * barePerSecond, where + " vs bound "
                            + barePerSecond);
                }
                // ForkJoinPool's compensation is its own policy, and sparer than a thread per block: only that it
                // compensated at all is checked (the runner's rows are what compare the two)
                if (k != PoolKind.VIRTUAL_THREADS) {
                    assertTrue(m.get(Metric.THREADS_CREATED).value() > WORKERS, where + ": no thread stood in");
                }
            }
            for (PoolKind k : List.of(PoolKind.SPINDLE_JEC, PoolKind.FJP)) {
                Map<Metric, Value> m = measured(bare, k);
                String where = "blocking-mix-unmanaged on " + k.id() + ": " + m.values();
                assertTrue(m.get(Metric.TASKS_PER_S).value() <= barePerSecond, where + " vs bound " + barePerSecond);
                assertTrue(m.get(Metric.THREADS_CREATED).value() >= 1, where);
            }
        } finally {
            managed.tearDown();
            bare.tearDown();
        }
    }

    /** A warm-up run, then a measured one, on a contender of {@code WORKERS}; @return the measured run's values */
    private static Map<Metric, Value> measured(BlockingMix w, PoolKind k) {
        try (Target t = Target.open(k, WORKERS)) {
            w.run(t, true);
            List<Value> values = w.run(t, false);
            assertEquals(w.metrics(k), values.stream().map(Value::metric).toList(), w.name() + " on " + k.id());
            int thr = k == PoolKind.VIRTUAL_THREADS ? VirtualThreadPerTask.schedulerParallelism() : WORKERS;
            for (Value v : values) {
                assertEquals(thr, v.threads(), v.toString());
                // the virtual threads' shared scheduler may keep the carriers an earlier run started: 0 is a count
                double least = v.metric() == Metric.THREADS_CREATED && k == PoolKind.VIRTUAL_THREADS ? 0 : 1e-9;
                assertTrue(v.value() >= least && Double.isFinite(v.value()), w.name() + " on " + k.id() + ": " + v);
            }
            assertEquals(Math.rint(values.get(1).value()), values.get(1).value(), "a count: " + values.get(1));
            return values.stream().collect(Collectors.toMap(Value::metric, Function.identity()));
        }
    }
}
