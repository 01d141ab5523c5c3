package io.spindle.bench;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

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
        // the IO baselines too: only the IO workloads run on them, and they only on Spindle and those
        assertEquals(List.of(PoolKind.SPINDLE_JEC, PoolKind.SPINDLE_SLEEPY, PoolKind.SPINDLE_HINT, PoolKind.FJP,
                PoolKind.SEQUENTIAL, PoolKind.PLATFORM_THREADS, PoolKind.VIRTUAL_THREADS, PoolKind.SELECTOR_FJP,
                PoolKind.NETTY), o.pools(), "every pool but spindle-jec-eager, which is asked for by name");
        assertEquals(Path.of("bench-results"), o.out());
        assertEquals(5, o.runs());
        assertEquals(3, o.warmup());
        assertEquals(Options.DEFAULT_WARMUP_MILLIS, o.warmupMillis());
        assertEquals(List.of(8), o.lightThreads());
        assertEquals(List.of(1), o.joinThreads());
        assertEquals(OptionalInt.empty(), o.heartbeatMicros());
        assertEquals(Optional.empty(), o.heartbeat());
        assertEquals(0, o.coarsePairSteps());
    }

    @Test
    void everySpindleKindButTheEagerOneTakesTheHeartbeat() {
        assertEquals(List.of(PoolKind.SPINDLE_JEC, PoolKind.SPINDLE_JEC_EAGER, PoolKind.SPINDLE_SLEEPY,
                PoolKind.SPINDLE_HINT, PoolKind.FJP, PoolKind.SEQUENTIAL, PoolKind.PLATFORM_THREADS,
                PoolKind.VIRTUAL_THREADS, PoolKind.SELECTOR_FJP, PoolKind.NETTY), List.of(PoolKind.values()));
        for (PoolKind k : PoolKind.values()) {
            assertEquals(k.isSpindle() && k != PoolKind.SPINDLE_JEC_EAGER, k.takesHeartbeat(), k.id());
        }
        assertEquals(PoolKind.SPINDLE_JEC_EAGER, PoolKind.byId("spindle-jec-eager"));
        assertEquals(Optional.of(io.spindle.JoinStrategy.EAGER), PoolKind.SPINDLE_JEC_EAGER.joinStrategy());
        assertEquals(Optional.empty(), PoolKind.SPINDLE_JEC.joinStrategy()); // the library's default
    }

    @Test
    void joinThreadsTakeSizesOrNone() {
        assertEquals(List.of(), Options.parse("--join-threads", "none").joinThreads());
        assertEquals(List.of(1, 4), Options.parse("--join-threads", "1,4,1").joinThreads());
        Options o = Options.parse("--threads", "2", "--join-threads", "1,2");
        assertEquals(List.of(1), o.joinThreadsBesideThreads());
        assertEquals(" (join workloads also at 1)", o.joinThreadsNote());
        Options one = Options.parse("--threads", "1");
        assertEquals(List.of(), one.joinThreadsBesideThreads()); // the default 1 is --threads itself
        assertEquals("", one.joinThreadsNote());
        for (String bad : new String[] {"0", "one", "1,", ""}) {
            var e = assertThrows(Options.UsageException.class, () -> Options.parse("--join-threads", bad));
            assertTrue(e.getMessage().contains("--join-threads") && e.getMessage().contains("'" + bad + "'"),
                    e.getMessage());
        }
    }

    @Test
    void heartbeatMicrosIsADurationInTheBuildersRange() {
        assertEquals(Optional.of(Duration.ofNanos(30_000)), Options.parse("--heartbeat-micros", "30").heartbeat());
        assertEquals(Optional.of(Duration.ZERO), Options.parse("--heartbeat-micros", "0").heartbeat());
        assertEquals(Optional.of(Duration.ofSeconds(1)), Options.parse("--heartbeat-micros", "1000000").heartbeat());
        for (String bad : new String[] {"-1", "1000001", "30us", ""}) {
            var e = assertThrows(Options.UsageException.class, () -> Options.parse("--heartbeat-micros", bad));
            assertTrue(e.getMessage().contains("--heartbeat-micros"), e.getMessage());
        }
        assertThrows(Options.UsageException.class, () -> Options.parse("--heartbeat-micros"));
    }

    @Test
    void coarsePairStepsArePositive() {
        assertEquals(12_345, Options.parse("--coarse-pair-steps", "12345").coarsePairSteps());
        assertThrows(Options.UsageException.class, () -> Options.parse("--coarse-pair-steps", "0"));
    }

    @Test
    void childRunsKeepTheNewOptions() {
        String[] args = Runner.withOption(new String[] {"--heartbeat-micros", "30", "--join-threads", "none",
                "--jvm-per-pool"}, "--coarse-pair-steps", "99");
        assertEquals(List.of("--heartbeat-micros", "30", "--join-threads", "none", "--coarse-pair-steps", "99"),
                ChildRun.argsWithout(args, "--jvm-per-pool"));
    }

    @Test
    void theUsageNamesTheNewOptionsAndPool() {
        for (String s : new String[] {"--join-threads", "--heartbeat-micros", "--coarse-pair-steps",
                "spindle-jec-eager"}) {
            assertTrue(Options.USAGE.contains(s), s);
        }
    }

    @Test
    void lightThreadsTakeSizesOrNone() {
        assertEquals(List.of(), Options.parse("--light-threads", "none").lightThreads());
        assertEquals(List.of(16, 4), Options.parse("--light-threads", "16, 4,16").lightThreads());
    }

    @Test
    void lightThreadsBesideThreadsLeaveThreadsOut() {
        Options o = Options.parse("--threads", "8", "--light-threads", "4,8");
        assertEquals(List.of(4), o.lightThreadsBesideThreads());
        assertEquals(" (light loads also at 4)", o.lightThreadsNote());
        Options same = Options.parse("--threads", "8");
        assertEquals(List.of(), same.lightThreadsBesideThreads());
        assertEquals("", same.lightThreadsNote());
    }

    @Test
    void badLightThreadsNameTheValue() {
        for (String bad : new String[] {"0", "eight", "8,", "4,,8", "1025", "", "None"}) {
            var e = assertThrows(Options.UsageException.class, () -> Options.parse("--light-threads", bad));
            assertTrue(e.getMessage().contains("--light-threads") && e.getMessage().contains("'" + bad + "'"),
                    e.getMessage());
        }
        assertThrows(Options.UsageException.class, () -> Options.parse("--light-threads"));
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
