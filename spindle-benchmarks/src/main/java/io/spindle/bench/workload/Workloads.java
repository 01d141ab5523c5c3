package io.spindle.bench.workload;

import io.spindle.bench.Sizes;

import java.util.List;

/** Every SPEC §4 workload, in the order the runner runs and reports them. */
public final class Workloads {
    private Workloads() {}

    public static List<Workload> all(Sizes s) {
        return List.of(
                new JoinDepth(s.joinDepth()),
                new FibNaive(s.fibNaive()),
                new FibCutoff(s.fibCutoff()),
                new TreeSum("tree-sum", s.treeDepth(), 1),
                new TreeSum("tree-sum-1k", 10, s.tree1kTrees()),
                new TinyInstall(s.tinyInstalls()),
                new QuickSort(s.sortLength()),
                new MergeSort(s.sortLength()),
                new MatMul(s.matmulN()),
                new Noop(1, s.noopMillis()),
                new Noop(10, s.noopMillis()),
                new Sparse(s.sparseMillis(), s.wakeMillis()),
                new Tick(s.tickIterations()),
                new Idle(s.idleMillis()),
                new Oversubscribed(s.oversubscribedFib()),
                new ParSum(s.parSumLength()),
                new ParMapCollect(s.parMapLength()),
                new ParSort(s.parSortLength()));
    }
}
