package io.spindle.bench.workload;

import io.spindle.bench.Sizes;

import java.util.List;

/** Every workload of docs/DESIGN.md §4.2, in the order the runner runs and reports them. */
public final class Workloads {
    private Workloads() {}

    /**
     * @return whether the workload named {@code name} runs coarse-pair's calibrated halves (coarse-pair and the two
     *         coarse-nested rows): the runner calibrates them once, for all the JVMs it starts
     */
    public static boolean usesCoarsePairSteps(String name) {
        return name.startsWith("coarse-");
    }

    /**
     * @return coarse-pair's work per half, in loop steps, that takes about 20 ms on this machine: for
     *         {@code --coarse-pair-steps}
     */
    public static long calibrateCoarsePair() {
        return CoarsePair.calibrate();
    }

    /** Every workload, coarse-pair calibrating its own work at set-up. */
    public static List<Workload> all(Sizes s) {
        return all(s, 0);
    }

    /**
     * @param coarsePairSteps coarse-pair's work per half in loop steps; 0: it calibrates 20 ms at set-up
     */
    public static List<Workload> all(Sizes s, long coarsePairSteps) {
        return List.of(
                new JoinDepth(s.joinDepth()),
                new FibNaive("fib-naive", s.fibNaive(), false),
                new FibNaive("fib-naive-fn", s.fibNaive(), true),
                new FibCutoff(s.fibCutoff()),
                new TreeSum("tree-sum", s.treeDepth(), 1, TreeSum.Form.PAIR),
                new TreeSum("tree-sum-long", s.treeDepth(), 1, TreeSum.Form.LONG),
                new TreeSum("tree-sum-fn", s.treeDepth(), 1, TreeSum.Form.FUNCTION),
                new TreeSum("tree-sum-1k", 10, s.tree1kTrees(), TreeSum.Form.PAIR),
                new TreeSum("tree-sum-1k-long", 10, s.tree1kTrees(), TreeSum.Form.LONG),
                new TreeSum("tree-sum-1k-fn", 10, s.tree1kTrees(), TreeSum.Form.FUNCTION),
                new TinyInstall(s.tinyInstalls()),
                new QuickSort(s.sortLength()),
                new MergeSort(s.sortLength()),
                new MatMul(s.matmulN()),
                new CoarsePair(coarsePairSteps),
                new CoarsePair(CoarsePair.Shape.NESTED, coarsePairSteps),
                new CoarsePair(CoarsePair.Shape.NESTED_SILENT, coarsePairSteps),
                new Noop(1, s.noopMillis()),
                new Noop(10, s.noopMillis()),
                new Sparse(s.sparseMillis(), s.wakeMillis()),
                new Tick(s.tickIterations()),
                new Idle(s.idleMillis()),
                new Oversubscribed(s.oversubscribedFib()),
                new ParSum(s.parSumLength()),
                new ParMapCollect(s.parMapLength()),
                new ParSort(s.parSortLength()),
                Echo.pingPong(1, s.echoMillis()),
                Echo.pingPong(16, s.echoMillis()),
                Echo.pingPong(64, s.echoMillis()),
                Echo.pingPong(256, s.echoMillis()),
                Echo.multiplexed(16, s.echoMillis()),
                Echo.sparse(1, 1, Math.max(100, s.echoMillis())),
                Echo.sparse(1, 10, Math.max(20, s.echoMillis() / 10)),
                Echo.sparse(16, 1, Math.max(100, s.echoMillis())),
                Echo.sparse(16, 10, Math.max(20, s.echoMillis() / 10)),
                new IoIdle(s.ioIdleMillis()),
                Echo.compute(s.echoMillis()),
                new IoStarvation(s.starvationBusyMillis()),
                new BlockingMix(true, s.blockingMixTasks()),
                new BlockingMix(false, s.blockingMixTasks()));
    }
}
