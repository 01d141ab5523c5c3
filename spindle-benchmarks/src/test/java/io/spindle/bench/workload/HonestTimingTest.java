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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The runner's rules for timing a computation as the code it stands for runs (issue 30): warmed on small inputs
 * first, every measured run from rest, and a window with a collection re-run for the workloads whose data it moves.
 */
class HonestTimingTest {
    /** A sequential-only computation that records its runs and can ask for collections in its first ones. */
    private static final class Recorded extends ComputeWorkload {
        final List<String> log;
        final List<ComputeWorkload> small = new ArrayList<>();
        final boolean rejects;
        int collectFirst;

        Recorded(String name, List<String> log, boolean rejects) {
            super(name);
            this.log = log;
            this.rejects = rejects;
        }

        @Override public String description() { return name(); }
        @Override List<ComputeWorkload> smallInstances() { return small; }
        @Override boolean rejectsCollectionWindows() { return rejects; }
        @Override long onSpindle(ThreadPool pool) { throw new UnsupportedOperationException(); }
        @Override long onFjp(ForkJoinPool pool) { throw new UnsupportedOperationException(); }
        @Override void verify(long result) {}

        @Override
        long onSequential() {
            log.add(name());
            if (collectFirst > 0) {
                collectFirst--;
                System.gc();
            }
            return 0;
        }
    }

    @Test
    void aWarmUpRunRunsTheSmallInstancesBeforeTheFullSize() {
        List<String> log = new ArrayList<>();
        Recorded w = new Recorded("full", log, false);
        w.small.add(new Recorded("small-1", log, false));
        w.small.add(new Recorded("small-2", log, false));
        w.setUp();
        try (Target t = Target.open(PoolKind.SEQUENTIAL, 1)) {
            w.run(t, true);
            assertTrue(log.size() >= 3, "log " + log);
            assertEquals(List.of("small-1", "small-2"), log.subList(0, 2), "the small ones come first");
            assertEquals("full", log.get(log.size() - 1));
            assertEquals(1, log.stream().filter("full"::equals).count());
            log.clear();
            w.run(t, false);
            assertEquals(List.of("full"), log, "a measured run runs no small instance");
        } finally {
            w.tearDown();
        }
    }

    @Test
    void aWindowWithACollectionIsRunAgainOnlyWhereTheWorkloadAsks() {
        List<String> log = new ArrayList<>();
        Recorded rejecting = new Recorded("rejecting", log, true);
        rejecting.collectFirst = 2;
        Recorded keeping = new Recorded("keeping", log, false);
        keeping.collectFirst = 2;
        Recorded always = new Recorded("always", log, true);
        always.collectFirst = 100;
        try (Target t = Target.open(PoolKind.SEQUENTIAL, 1)) {
            rejecting.run(t, false);
            assertEquals(3, log.size(), "two windows with a collection, then one without: " + log);
            log.clear();
            keeping.run(t, false);
            assertEquals(1, log.size(), "kept with its collection: " + log);
            log.clear();
            always.run(t, false);
            assertEquals(ComputeWorkload.COLLECTION_TRIES, log.size(), "the last try is kept: " + log);
            log.clear();
            rejecting.collectFirst = 1;
            rejecting.run(t, true);
            assertEquals(1, log.size(), "a warm-up run is never repeated: " + log);
        }
    }

    @Test
    void theJoinWorkloadsWarmSmallAndAreTimedFromRestAndOnlyTreesRejectCollections() {
        for (Workload w : Workloads.all(io.spindle.bench.Sizes.quick())) {
            if (!(w instanceof ComputeWorkload c)) {
                assertFalse(w.timedFromRest(), w.name());
                continue;
            }
            assertTrue(c.timedFromRest(), w.name());
            boolean recursion = c instanceof FibNaive || c instanceof FibCutoff || c instanceof JoinDepth
                    || c instanceof TreeSum;
            assertEquals(recursion, !c.smallInstances().isEmpty(), w.name());
            assertEquals(c instanceof TreeSum, c.rejectsCollectionWindows(), w.name());
        }
    }
}
