package io.spindle.bench.workload;

import io.spindle.ThreadPool;
import io.spindle.bench.PoolKind;
import io.spindle.bench.Target;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The runner's rules for timing a computation as the code it stands for runs (issue 30): warmed on small inputs
 * first, every measured run from rest (BenchTest checks the rest itself).
 */
class HonestTimingTest {
    /** A sequential-only computation that records what the runner does with it, its small instances included. */
    private static final class Recorded extends ComputeWorkload {
        final List<String> log;
        final List<ComputeWorkload> small = new ArrayList<>();
        boolean wrongResult;

        Recorded(String name, List<String> log) {
            super(name);
            this.log = log;
        }

        @Override public String description() { return name(); }
        @Override List<ComputeWorkload> smallInstances() { return small; }
        @Override public void setUp() { log.add("setUp " + name()); }
        @Override long onSpindle(ThreadPool pool) { throw new UnsupportedOperationException(); }
        @Override long onFjp(ForkJoinPool pool) { throw new UnsupportedOperationException(); }

        @Override
        public void tearDown() {
            super.tearDown();
            log.add("tearDown " + name());
        }

        @Override
        long onSequential() {
            log.add(name());
            return wrongResult ? -1 : 42;
        }

        @Override
        void verify(long result) {
            expect(name(), result, 42);
        }
    }

    @Test
    void aWarmUpRunRunsTheSmallInstancesFirstAndChecksThem() {
        List<String> log = new ArrayList<>();
        Recorded w = new Recorded("full", log);
        Recorded small1 = new Recorded("small-1", log);
        w.small.add(small1);
        w.small.add(new Recorded("small-2", log));
        try (Target t = Target.open(PoolKind.SEQUENTIAL, 1)) {
            w.run(t, true);
            assertEquals(List.of("setUp small-1", "setUp small-2", "small-1", "small-2"), log.subList(0, 4),
                    "set up once, then run, before the full size");
            assertEquals("full", log.get(log.size() - 1));
            assertEquals(1, log.stream().filter("full"::equals).count());
            log.clear();
            w.run(t, true);
            assertFalse(log.stream().anyMatch(s -> s.startsWith("setUp")), "set up only once: " + log);
            log.clear();
            w.run(t, false);
            assertEquals(List.of("full"), log, "a measured run runs no small instance");
            small1.wrongResult = true;
            assertThrows(IllegalStateException.class, () -> w.run(t, true), "a small result is checked");
            log.clear();
            w.tearDown();
            assertEquals(List.of("tearDown small-1", "tearDown small-2", "tearDown full"), log);
        }
    }

    @Test
    void theRecursionsWarmSmallAndEveryComputationIsTimedFromRest() {
        for (Workload w : Workloads.all(io.spindle.bench.Sizes.quick())) {
            if (!(w instanceof ComputeWorkload c)) {
                assertFalse(w.timedFromRest(), w.name());
                continue;
            }
            assertTrue(c.timedFromRest(), w.name());
            boolean recursion = c instanceof FibNaive || c instanceof FibCutoff || c instanceof JoinDepth
                    || c instanceof TreeSum;
            assertEquals(recursion, !c.smallInstances().isEmpty(), w.name());
        }
    }
}
