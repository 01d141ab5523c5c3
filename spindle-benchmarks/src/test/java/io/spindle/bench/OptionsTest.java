package io.spindle.bench;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OptionsTest {
    @Test
    void defaults() {
        Options o = Options.parse();
        assertFalse(o.quick());
        assertEquals(Runtime.getRuntime().availableProcessors(), o.threads());
        assertEquals(List.of(PoolKind.values()), o.pools());
        assertEquals(Path.of("bench-results"), o.out());
        assertEquals(5, o.runs());
        assertEquals(3, o.warmup());
        assertEquals(Options.DEFAULT_WARMUP_MILLIS, o.warmupMillis());
    }

    @Test
    void jvmPerPoolIsOffUnlessAsked() {
        assertFalse(Options.parse().jvmPerPool());
        assertTrue(Options.parse("--jvm-per-pool").jvmPerPool());
    }

    @Test
    void childRunsDropThePoolsOutAndTheFlagsTheParentHandles() {
        assertEquals(List.of("--quick", "--only", "fib-naive"), ChildRun.argsWithout(
                new String[] {"--quick", "--pools", "fjp,sequential", "--jvm-per-pool", "--only", "fib-naive",
                        "--out", "x", "--order-check"}, "--jvm-per-pool", "--order-check"));
    }

    @Test
    void quickLowersRunsUnlessGiven() {
        assertEquals(3, Options.parse("--quick").runs());
        assertEquals(1, Options.parse("--quick").warmup());
        assertEquals(0, Options.parse("--quick").warmupMillis());
        assertEquals(500, Options.parse("--quick", "--warmup-ms", "500").warmupMillis());
        assertEquals(7, Options.parse("--quick", "--runs", "7").runs());
    }

    @Test
    void poolsKeepTheGivenOrder() {
        Options o = Options.parse("--pools", "fjp,spindle-jec", "--only", "sparse,idle", "--threads", "4",
                "--order-check");
        assertEquals(List.of(PoolKind.FJP, PoolKind.SPINDLE_JEC), o.pools());
        assertEquals(List.of("sparse", "idle"), o.only());
        assertEquals(4, o.threads());
        assertTrue(o.orderCheck());
    }

    @Test
    void badInputIsAUsageError() {
        assertThrows(Options.UsageException.class, () -> Options.parse("--threads", "0"));
        assertThrows(Options.UsageException.class, () -> Options.parse("--threads"));
        assertThrows(Options.UsageException.class, () -> Options.parse("--pools", "rayon"));
        assertThrows(Options.UsageException.class, () -> Options.parse("--frobnicate"));
        assertThrows(Options.UsageException.class, () -> Options.parse("--warmup-ms", "-1"));
    }

    @Test
    void unknownWorkloadIsAUsageError() {
        var all = io.spindle.bench.workload.Workloads.all(Sizes.quick());
        assertThrows(Options.UsageException.class, () -> Runner.select(all, List.of("fib-naïve")));
        assertEquals("sparse", Runner.select(all, List.of("sparse")).get(0).name());
    }
}
