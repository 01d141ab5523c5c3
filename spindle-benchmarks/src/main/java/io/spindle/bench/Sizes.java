package io.spindle.bench;

/**
 * Workload sizes: those of docs/DESIGN.md §4.2 for a full run, smaller ones for {@code --quick} (the whole quick run
 * must stay under 3 minutes on 2 cores with every pool present). Names keep their meaning in both: join-depth-20 is
 * always depth 20, fib-naive always fib(30), fib-cutoff fib(35), and so on; what shrinks is the data (tree, arrays,
 * matrix), the oversubscribed fib and the time windows, except idle's; tree-sum-1k always sums 1,000 trees and
 * coarse-pair's halves are always about 20 ms.
 *
 * @param treeDepth     tree-sum: a balanced tree of 2^depth - 1 nodes
 * @param tree1kTrees   tree-sum-1k: sums of the 1,023-node tree per run, all inside one install / invoke (issue 14:
 *                      1,000, as Spice and Chili measure it)
 * @param tinyInstalls  tiny-install: calls into the pool per run (one install / invoke per tree), so that a run is
 *                      long enough to time
 * @param wakeMillis    sparse: the window of the second, 8-worker load that counts threads woken per job
 * @param idleMillis    idle: the window after the burst; 2 s in both, so idle_cpu_ms always means "in 2 s"
 * @param parSumLength  par-sum: ints summed (10^8 = 400 MB of int[]: the default heap, a quarter of RAM, holds it
 *                      from about 3 GB of RAM up; ParSum fails early, naming -Xmx, where it does not)
 * @param parMapLength  par-map-collect: elements mapped to a Long and collected
 * @param parSortLength par-sort: ints sorted
 * @param echoMillis    the IO workloads (issue 15): echo's and echo-compute's window of ping-pong per run, and
 *                      echo-sparse's number of 1 ms requests (a tenth as many 10 ms ones), at least 100 and 20
 * @param ioIdleMillis  echo-idle-50conn: the window with idle connections open; reported per 2 s in both
 * @param starvationBusyMillis io-starvation: how long the channel's owning worker is kept busy
 * @param blockingMixTasks the blocking-mix rows: tasks per run, a third of them blocking (with the managed wrappers
 *                      at 2 workers on 2 cores about 1 s at full size)
 */
public record Sizes(int joinDepth, int fibNaive, int fibCutoff, int treeDepth, int tree1kTrees, int tinyInstalls,
                    int sortLength, int matmulN, int noopMillis, int sparseMillis, int wakeMillis, int idleMillis,
                    int tickIterations, int oversubscribedFib, int parSumLength, int parMapLength,
                    int parSortLength, int echoMillis, int ioIdleMillis, int starvationBusyMillis,
                    int blockingMixTasks) {
    public static Sizes full() {
        return new Sizes(20, 30, 35, 24, 1_000, 2_000, 10_000_000, 512, 2_000, 3_000, 3_000, 2_000, 500, 35,
                100_000_000, 10_000_000, 10_000_000, 2_000, 2_000, 1_000, 3_000);
    }

    public static Sizes quick() {
        return new Sizes(20, 30, 35, 20, 1_000, 500, 1_000_000, 256, 500, 1_000, 500, 2_000, 100, 33,
                10_000_000, 1_000_000, 1_000_000, 100, 300, 200, 600);
    }
}
