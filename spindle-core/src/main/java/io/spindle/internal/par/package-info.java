/**
 * The engine behind {@code io.spindle.Parallel}: each fluent type wraps a {@link Pipeline} (a {@link Source}, the
 * stages as sink wrappers, the pool and {@code minPieceLength}), and a terminal operation is a {@link Terminal} from
 * {@link IntFolds}, {@link LongFolds}, {@link DoubleFolds}, {@link ItemFolds} or {@link Counter}: each leaf piece fills
 * a fresh accumulator, and sibling accumulators are combined left (earlier) first. {@link Pipeline#run} runs on the
 * configured pool, else the {@link CurrentPool}, through {@code ThreadPool.install}, inline on that pool's workers.
 *
 * <p><b>Sources and drivers.</b> An {@link IndexedSource} (ranges, arrays, random-access lists) splits by index, into
 * pieces of exact length; a {@link SpliteratorSource} (other collections, or a caller's spliterator, good for one
 * terminal operation) splits with {@code trySplit} on size estimates. Its driver ({@link IndexedDriver},
 * {@link SpliteratorDriver}) recurses: a piece either splits in two, forked with an eager join ({@link EagerJoin}, on
 * pools whose own joins are lazy too: a leaf loop makes no heartbeat check, so lazy halves would wait unshared), or runs
 * as a leaf, one plain loop feeding its elements to its accumulator.
 *
 * <p><b>Splitting.</b> {@link Splitter} uses rayon's adaptive budget, not a fixed grain: the root's budget is the
 * thread count and each split gives both halves half of it; a piece whose budget is spent runs as a leaf. A second
 * half that runs on another thread than its forker was stolen, a sign of uneven load, so its budget is reset to
 * {@code max(threads, budget / 2)} and it splits again. No split makes a half shorter than {@code minPieceLength}
 * (as far as a spliterator's size estimates are right).
 *
 * <p><b>Early exit.</b> {@code anyMatch}, {@code findAny} and {@code findFirst} share one {@link EarlyExit} flag per
 * operation, checked by the drivers before a piece splits or runs and by the leaf loops before each element.
 * {@code anyMatch} and {@code findAny} stop every piece; {@code findFirst} only the finding piece and those after it.
 *
 * <p><b>Order and failures.</b> Left-first combining keeps encounter order. With a known output size (indexed source,
 * no filter) {@code toArray} allocates once and each leaf writes its own slice; otherwise leaves buffer into
 * {@link Chunk}s, linked in order as pieces combine and copied once at the end. A leaf whose code throws sets its
 * driver's {@code failed} flag, so pieces not yet started are skipped; the throwable travels up through the joins.
 *
 * <p><b>Sorts.</b> {@link ParallelSorts} is a parallel merge sort whose results equal {@link java.util.Arrays#sort}'s:
 * small arrays and one-thread pools go straight to {@code Arrays.sort}; otherwise the array is halved as
 * {@link SortTuning} plans, the leaves are sorted by {@code Arrays.sort} and merged back up, ping-ponging with one
 * scratch buffer, long merges themselves split in two by binary search. {@link IntMergeSort}, {@link LongMergeSort},
 * {@link DoubleMergeSort} and {@link ObjectMergeSort} (stable) are the per-type copies.
 */
package io.spindle.internal.par;
