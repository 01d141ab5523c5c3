package io.spindle.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindle.bench.Metric;
import io.spindle.bench.PoolKind;
import io.spindle.bench.Sizes;
import io.spindle.bench.Target;
import io.spindle.bench.Value;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The par-* workloads run, and pass their own result checks, on every contender: at a small size, so that a wrong
 * result check or a contender whose call does not do the work shows up in {@code mvn verify}, not in a benchmark run.
 */
class ParWorkloadsTest {
    private static void runOnEveryContender(Workload w) {
        w.setUp();
        try {
            for (PoolKind kind : new PoolKind[] {PoolKind.SPINDLE_JEC, PoolKind.FJP, PoolKind.SEQUENTIAL}) {
                try (Target t = Target.open(kind, 2)) {
                    List<Value> values = w.run(t, false); // throws if the result is wrong
                    List<Metric> expected = kind.isSpindle() ? List.of(Metric.TIME_MS, Metric.PROMOTIONS)
                            : List.of(Metric.TIME_MS);
                    assertEquals(expected, values.stream().map(Value::metric).toList(), w.name() + " on " + kind.id());
                    assertEquals(expected, w.metrics(kind));
                }
            }
            assertEquals(List.of(), w.joinThreadsMetrics(PoolKind.SPINDLE_JEC), "not a join workload");
        } finally {
            w.tearDown();
        }
    }

    @Test
    void parSumIsRightOnEveryContender() {
        runOnEveryContender(new ParSum(300_001));
    }

    @Test
    void parMapCollectIsRightAndInOrderOnEveryContender() {
        runOnEveryContender(new ParMapCollect(200_003));
    }

    @Test
    void parSortEqualsArraysSortOnEveryContender() {
        runOnEveryContender(new ParSort(200_003));
    }

    @Test
    void mixSpreadsNeighbouringInputs() {
        assertTrue(ParMapCollect.mix(0) != 0L && ParMapCollect.mix(1) != 1L);
        assertTrue(ParMapCollect.mix(5) != ParMapCollect.mix(6));
    }

    @Test
    void everyParWorkloadIsRegisteredInBothSizes() {
        for (Sizes s : new Sizes[] {Sizes.quick(), Sizes.full()}) {
            List<String> names = Workloads.all(s).stream().map(Workload::name).toList();
            assertTrue(names.containsAll(List.of("par-sum", "par-map-collect", "par-sort")), names.toString());
        }
        assertTrue(Sizes.quick().parSumLength() < Sizes.full().parSumLength());
        assertEquals(100_000_000, Sizes.full().parSumLength());
        assertEquals(10_000_000, Sizes.full().parMapLength());
        assertEquals(10_000_000, Sizes.full().parSortLength());
    }
}
