package io.spindle.bench.workload;

import io.spindle.bench.Metric;
import io.spindle.bench.PoolKind;
import io.spindle.bench.Sizes;
import io.spindle.bench.Target;
import io.spindle.bench.Value;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The light loads at a {@code --light-threads} size report their own metrics at that size and nothing else; at short
 * windows, so each run takes a tenth of a second.
 */
class LightLoadsTest {
    private static List<String> measured(List<Value> values) {
        return values.stream().map(v -> v.metric().id() + "@" + v.threads()).toList();
    }

    @Test
    void exactlyTheLightLoadsAreMeasuredAtLightThreads() {
        for (Sizes s : new Sizes[] {Sizes.quick(), Sizes.full()}) {
            List<String> light = Workloads.all(s).stream()
                    .filter(w -> !w.lightThreadsMetrics(PoolKind.SPINDLE_JEC).isEmpty()
                            || !w.lightThreadsMetrics(PoolKind.FJP).isEmpty())
                    .map(Workload::name).toList();
            assertEquals(List.of("noop-1ms", "noop-10ms", "sparse"), light);
        }
    }

    @Test
    void noopReportsItsCpuAtThePoolSize() {
        Noop noop = new Noop(10, 100);
        for (PoolKind kind : new PoolKind[] {PoolKind.SPINDLE_JEC, PoolKind.FJP}) {
            assertEquals(noop.metrics(kind), noop.lightThreadsMetrics(kind));
            try (Target t = Target.open(kind, 3)) {
                assertEquals(List.of("cpu_percent@3"), measured(noop.runAtLightThreads(t, false)));
            }
        }
    }

    @Test
    void sparseLeavesItsWakeUpCountToItsOwnPool() {
        Sparse sparse = new Sparse(100, 100);
        List<Metric> light = sparse.lightThreadsMetrics(PoolKind.SPINDLE_JEC);
        assertEquals(List.of(Metric.CPU_PER_USEFUL, Metric.LATENCY_P50_US, Metric.LATENCY_P99_US), light);
        try (Target t = Target.open(PoolKind.SPINDLE_JEC, 3)) {
            assertEquals(List.of("cpu_per_useful@3", "latency_p50_us@3", "latency_p99_us@3"),
                    measured(sparse.runAtLightThreads(t, false)));
            assertEquals(List.of("cpu_per_useful@3", "latency_p50_us@3", "latency_p99_us@3",
                    "threads_woken_per_job@" + Sparse.WAKE_POOL_THREADS), measured(sparse.run(t, false)));
        }
    }
}
