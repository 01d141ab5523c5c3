package io.spindle.bench.workload;

import io.spindle.bench.Metric;
import io.spindle.bench.PoolKind;
import io.spindle.bench.Sizes;
import io.spindle.bench.Target;
import io.spindle.bench.Value;
import io.spindle.bench.echo.Compute;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The IO workloads (issue 15): each runs on every server it supports and reports exactly the metrics it promises, at
 * the pool's size, at small sizes; numbers are checked for shape only (present, finite, non-negative), never for
 * speed. The compute and join workloads do not run on the IO baselines, and the IO workloads not on fjp.
 */
class IoWorkloadsTest {
    private static final List<String> IO_WORKLOADS = List.of("echo-1conn", "echo-16conn", "echo-64conn",
            "echo-256conn", "echo-mux-16conn", "echo-sparse-1ms", "echo-sparse-10ms", "echo-sparse-16conn-1ms",
            "echo-sparse-16conn-10ms", "echo-idle-50conn", "echo-compute", "io-starvation");

    private static List<Workload> io() {
        return Workloads.all(Sizes.quick(), 1_000).stream().filter(w -> IO_WORKLOADS.contains(w.name())).toList();
    }

    @Test
    void theIoWorkloadsAreTheseInTheirSpecGroups() {
        List<Workload> io = io();
        assertEquals(IO_WORKLOADS, io.stream().map(Workload::name).toList());
        for (Workload w : io) {
            assertTrue(List.of("echo", "echo-sparse", "echo-compute", "io-starvation").contains(w.group()), w.name());
            assertFalse(w.supports(PoolKind.FJP), w.name());
            assertFalse(w.supports(PoolKind.SEQUENTIAL), w.name());
        }
        for (Workload w : Workloads.all(Sizes.quick(), 1_000)) {
            if (IO_WORKLOADS.contains(w.name())) continue;
            for (PoolKind k : PoolKind.values()) {
                // blocking-mix (issue 33) has a virtual thread per task among its contenders
                boolean virtualThreadPerTask = w.name().equals("blocking-mix") && k == PoolKind.VIRTUAL_THREADS;
                if (k.isIoServer()) assertEquals(virtualThreadPerTask, w.supports(k), w.name() + " on " + k.id());
            }
        }
    }

    @Test
    void eachRunsEverywhereItSaysAndReportsItsMetrics() {
        for (Workload w : io()) {
            w.setUp();
            try {
                if (w instanceof Echo e && w.name().equals("echo-compute")) e.setCompute(Compute.ofLength(20_000));
                for (PoolKind kind : PoolKind.values()) {
                    if (!w.supports(kind) || kind.unavailableReason().isPresent()) continue;
                    try (Target t = Target.open(kind, 2)) {
                        for (boolean warmup : new boolean[] {true, false}) { // a warm-up run, then a measured one
                            List<Value> values = w.run(t, warmup); // at the sizes of a quick run
                            String where = w.name() + " on " + kind.id() + (warmup ? ", warm-up" : "");
                            assertEquals(w.metrics(kind), values.stream().map(Value::metric).toList(), where);
                            for (Value v : values) {
                                assertEquals(2, v.threads(), where);
                                assertTrue(v.value() >= 0 && Double.isFinite(v.value()), where + ": " + v);
                            }
                        }
                    }
                }
            } finally {
                w.tearDown();
            }
        }
    }

    @Test
    void theEchoRowsButOneAreDrivenByTheLoadGeneratorProcess() {
        for (Workload w : io()) {
            if (w instanceof Echo e) {
                assertEquals(w.name().startsWith("echo-mux-") ? Echo.Client.MULTIPLEXED : Echo.Client.PROCESS,
                        e.client(), w.name());
            }
        }
    }

    @Test
    void theNewMetricsHaveTheirNames() {
        assertEquals(List.of("requests_per_s", "cpu_us_per_request", "delay_ms", "idle_worker_cpu_ms"),
                Arrays.stream(new Metric[] {Metric.REQUESTS_PER_S, Metric.CPU_US_PER_REQUEST, Metric.DELAY_MS,
                        Metric.IDLE_WORKER_CPU_MS}).map(Metric::id).toList());
    }
}
