package io.spindle.internal.par;


import java.util.Arrays;

/** {@link IntMergeSort}'s algorithm for {@code long[]}; see there and ParallelSorts. */
final class LongMergeSort {
    private final long[] a;
    private final long[] buf;

    private LongMergeSort(long[] a) {
        this.a = a;
        this.buf = new long[a.length];
    }

    /** Sorts {@code a} with {@code levels >= 1} halvings (see SortTuning.levels). */
    static void sort(long[] a, int levels) {
        new LongMergeSort(a).sortRange(0, a.length, levels, false);
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
    private static void merge(long[] src, int lo1, int hi1, int lo2, int hi2, long[] dst, int out) {
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
    private static void mergeSequential(long[] src, int i, int hi1, int j, int hi2, long[] dst, int k) {
        if (i < hi1 && j < hi2 && src[hi1 - 1] > src[j]) { // otherwise the runs are already in order: two copies
            while (i < hi1 && j < hi2) {
                long x = src[i];
                long y = src[j];
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
    private static int firstNotBelow(long[] src, int lo, int hi, long key) {
        while (lo < hi) {
            int m = (lo + hi) >>> 1;
            if (src[m] < key) lo = m + 1; else hi = m;
        }
        return lo;
    }

    /** @return the first index in the sorted {@code src[lo, hi)} whose element is {@code > key}, else {@code hi} */
    private static int firstAbove(long[] src, int lo, int hi, long key) {
        while (lo < hi) {
            int m = (lo + hi) >>> 1;
            if (src[m] <= key) lo = m + 1; else hi = m;
        }
        return lo;
    }
}
