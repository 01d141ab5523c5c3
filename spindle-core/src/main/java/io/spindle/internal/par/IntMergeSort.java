package io.spindle.internal.par;


import java.util.Arrays;

/**
 * The parallel merge sort of {@link ParallelSorts} for {@code int[]}: leaves by {@link Arrays#sort}, merges in
 * parallel, ping-ponging between the array and one scratch buffer. See ParallelSorts for the design and the rule that
 * keeps the merge cut stable; {@link LongMergeSort}, {@link DoubleMergeSort} and {@link ObjectMergeSort} are the same
 * algorithm for their types.
 */
final class IntMergeSort {
    private final int[] a;
    private final int[] buf;

    private IntMergeSort(int[] a) {
        this.a = a;
        this.buf = new int[a.length];
    }

    /** Sorts {@code a} with {@code levels >= 1} halvings (see SortTuning.levels). */
    static void sort(int[] a, int levels) {
        new IntMergeSort(a).sortRange(0, a.length, levels, false);
    }

    /**
     * Sorts the elements of {@code a[lo, hi)} and leaves them in {@code buf[lo, hi)} if {@code intoBuf}, else in
     * {@code a[lo, hi)}. Its two halves land in the other array, which its merge then reads.
     */
    private void sortRange(int lo, int hi, int levels, boolean intoBuf) {
        if (levels == 0) {
            Arrays.sort(a, lo, hi);
            if (intoBuf) { // odd levels: copied while the leaf is still in cache (see ParallelSorts)
                System.arraycopy(a, lo, buf, lo, hi - lo);
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        EagerJoin.join(() -> sortRange(lo, mid, levels - 1, !intoBuf), () -> sortRange(mid, hi, levels - 1, !intoBuf));
        if (intoBuf) {
            merge(a, lo, mid, mid, hi, buf, lo);
        } else {
            merge(buf, lo, mid, mid, hi, a, lo);
        }
    }

    /** Merges the sorted runs {@code src[lo1, hi1)} and {@code src[lo2, hi2)} into {@code dst} from {@code out}. */
    private static void merge(int[] src, int lo1, int hi1, int lo2, int hi2, int[] dst, int out) {
        int n1 = hi1 - lo1;
        int n2 = hi2 - lo2;
        if (n1 + n2 <= SortTuning.MERGE_GRAIN) {
            mergeSequential(src, lo1, hi1, lo2, hi2, dst, out);
            return;
        }
        int cut1;
        int cut2;
        if (n1 >= n2) {
            cut1 = (lo1 + hi1) >>> 1;
            cut2 = firstNotBelow(src, lo2, hi2, src[cut1]);
        } else {
            cut2 = (lo2 + hi2) >>> 1;
            cut1 = firstAbove(src, lo1, hi1, src[cut2]);
        }
        int outCut = out + (cut1 - lo1) + (cut2 - lo2);
        EagerJoin.join(() -> merge(src, lo1, cut1, lo2, cut2, dst, out),
                () -> merge(src, cut1, hi1, cut2, hi2, dst, outCut));
    }

    /**
     * The merge loop is branch-free (the JIT turns the selects into conditional moves): on random data which run
     * supplies the next element is a coin toss, so a branch would be mispredicted every other element; measured about
     * 15-25% faster than the branching loop. DoubleMergeSort keeps the branch, where Double.compare's own branches
     * make the select slower instead.
     */
    private static void mergeSequential(int[] src, int i, int hi1, int j, int hi2, int[] dst, int k) {
        if (i < hi1 && j < hi2 && src[hi1 - 1] > src[j]) { // otherwise the runs are already in order: two copies
            while (i < hi1 && j < hi2) {
                int x = src[i];
                int y = src[j];
                boolean right = y < x; // strictly: on a tie the left (earlier) element goes first
                dst[k++] = right ? y : x;
                i += right ? 0 : 1;
                j += right ? 1 : 0;
            }
        }
        System.arraycopy(src, i, dst, k, hi1 - i);
        System.arraycopy(src, j, dst, k + (hi1 - i), hi2 - j);
    }

    /** @return the first index in the sorted {@code src[lo, hi)} whose element is {@code >= key}, else {@code hi} */
    private static int firstNotBelow(int[] src, int lo, int hi, int key) {
        while (lo < hi) {
            int m = (lo + hi) >>> 1;
            if (src[m] < key) lo = m + 1; else hi = m;
        }
        return lo;
    }

    /** @return the first index in the sorted {@code src[lo, hi)} whose element is {@code > key}, else {@code hi} */
    private static int firstAbove(int[] src, int lo, int hi, int key) {
        while (lo < hi) {
            int m = (lo + hi) >>> 1;
            if (src[m] <= key) lo = m + 1; else hi = m;
        }
        return lo;
    }
}
