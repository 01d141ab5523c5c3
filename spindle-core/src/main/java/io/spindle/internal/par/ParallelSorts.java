package io.spindle.internal.par;

import io.spindle.Spindle;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Objects;

/**
 * Parallel sorts of whole arrays, for {@code io.spindle.Parallel.sort}: a parallel merge sort whose results equal
 * {@link Arrays#sort} element for element.
 *
 * <h2>Contract</h2>
 * Call these on a worker of the pool that should do the work (inside {@code pool.install(...)}): every split is a
 * {@link Spindle#join(Runnable, Runnable)}, which runs on the caller's pool. Off a worker, the first join hands the
 * work to the global pool and blocks the caller, so the sort still works, on the global pool.
 * <ul>
 *   <li>{@code int[]}, {@code long[]}: ascending numeric order.</li>
 *   <li>{@code double[]}: the total order of {@link Double#compare}, as {@link Arrays#sort(double[])}: {@code -0.0}
 *       before {@code 0.0}, NaNs last.</li>
 *   <li>{@code T[]}: stable (equal elements keep their relative order), as {@link Arrays#sort(Object[], Comparator)}.
 *       A {@code null} comparator is a {@link NullPointerException}, not natural order: callers that want natural
 *       order pass {@link Comparator#naturalOrder()}, which keeps the element type checked by the compiler. If the
 *       comparator throws, its throwable (the first, others added as suppressed by the joins) propagates once every
 *       task of the sort has ended, so nothing writes to the array after the call returns; the array is then in an
 *       unspecified state. As with {@link Arrays#sort}, whose TimSort does not restore its merges either, that state
 *       need not even be a permutation of the input.</li>
 *   <li>A {@code null} array is a {@link NullPointerException} naming {@code a}.</li>
 * </ul>
 *
 * <h2>Design</h2>
 * Small arrays, and pools of one thread, go straight to {@link Arrays#sort}: a split cannot pay for itself there.
 * Otherwise the array is halved {@code levels} times into {@code 2^levels} leaves of near-equal length (they differ by
 * at most one element), each leaf sorted by {@link Arrays#sort} on its own range, and the sorted runs are merged
 * pairwise back up the tree. Both halvings and merges are joins, so idle workers steal leaves and merge pieces alike.
 * <ul>
 *   <li><b>One scratch array, ping-pong.</b> Every level merges out of one array into the other: the level at depth
 *       {@code d} (root at 0) writes into {@code a} when {@code d} is even and into the scratch buffer when it is
 *       odd, so the root's merge lands in {@code a}. A leaf is sorted in place in {@code a}; when {@code levels} is odd
 *       its parent reads the buffer, so the leaf task then copies its sorted range there, while it is still in cache:
 *       a copy costs a fraction of the merge pass that rounding {@code levels} up to even would add. The scratch
 *       array is the only allocation proportional to the input; {@code T[]} leaves also let TimSort allocate its own
 *       temporary array, as {@link Arrays#sort} always does.</li>
 *   <li><b>Parallel merge.</b> Merging two runs of total length {@code n} is a join of two independent merges, so the
 *       merges near the root, which are as long as the array, do not serialise the sort: the longer run is cut at its
 *       middle element {@code p}, the other run is binary-searched for where {@code p} belongs, and the output is cut
 *       where the two first parts end. Pieces up to {@link SortTuning#MERGE_GRAIN} elements merge sequentially.</li>
 *   <li><b>Stability of the cut.</b> Equal elements must leave the merge left run first. When the left run is cut at
 *       {@code p}, the right run is cut before its first element {@code >= p} (right elements equal to {@code p} go
 *       after it); when the right run is cut at {@code p}, the left run is cut after its last element
 *       {@code <= p} (left elements equal to {@code p} go before it). The sequential merge takes the right element
 *       only when it is strictly smaller. Together with TimSort's stable leaves this makes the {@code T[]} sort
 *       stable. Primitives need no stability: values that compare equal are the same bits, except NaNs with
 *       different payloads, which {@link Double#compare} and {@link Arrays#equals(double[], double[])} treat as one
 *       value and whose order among themselves Arrays.sort does not specify either.</li>
 * </ul>
 * One class per element type ({@link IntMergeSort}, {@link LongMergeSort}, {@link DoubleMergeSort},
 * {@link ObjectMergeSort}) holds the same algorithm: primitive arrays have no common type, and a shared abstraction
 * would cost a virtual call per comparison.
 */
public final class ParallelSorts {
    private ParallelSorts() {}

    /**
     * Sorts {@code a} into ascending numeric order, in parallel on the caller's pool.
     *
     * @param a the array
     * @throws NullPointerException if {@code a} is null
     */
    public static void sort(int[] a) {
        Objects.requireNonNull(a, "a");
        int levels = SortTuning.levels(a.length, Spindle.currentThreadCount());
        if (levels == 0) {
            Arrays.sort(a);
        } else {
            IntMergeSort.sort(a, levels);
        }
    }

    /**
     * Sorts {@code a} into ascending numeric order, in parallel on the caller's pool.
     *
     * @param a the array
     * @throws NullPointerException if {@code a} is null
     */
    public static void sort(long[] a) {
        Objects.requireNonNull(a, "a");
        int levels = SortTuning.levels(a.length, Spindle.currentThreadCount());
        if (levels == 0) {
            Arrays.sort(a);
        } else {
            LongMergeSort.sort(a, levels);
        }
    }

    /**
     * Sorts {@code a} into the total order of {@link Double#compare} ({@code -0.0} before {@code 0.0}, NaNs last),
     * in parallel on the caller's pool; the result equals {@link Arrays#sort(double[])}'s.
     *
     * @param a the array
     * @throws NullPointerException if {@code a} is null
     */
    public static void sort(double[] a) {
        Objects.requireNonNull(a, "a");
        int levels = SortTuning.levels(a.length, Spindle.currentThreadCount());
        if (levels == 0) {
            Arrays.sort(a);
        } else {
            DoubleMergeSort.sort(a, levels);
        }
    }

    /**
     * Sorts {@code a} stably by {@code comparator}, in parallel on the caller's pool. If the comparator throws, its
     * throwable propagates after every task of the sort ended and {@code a} is left in an unspecified state (see the
     * class documentation).
     *
     * @param a          the array
     * @param comparator the order; {@code null} is not natural order but an error
     * @param <T>        the element type
     * @throws NullPointerException if {@code a} or {@code comparator} is null
     */
    public static <T> void sort(T[] a, Comparator<? super T> comparator) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(comparator, "comparator");
        int levels = SortTuning.levels(a.length, Spindle.currentThreadCount());
        if (levels == 0) {
            Arrays.sort(a, comparator);
        } else {
            ObjectMergeSort.sort(a, comparator, levels);
        }
    }
}
