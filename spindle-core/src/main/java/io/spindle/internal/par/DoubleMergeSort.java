package io.spindle.internal.par;


import java.util.Arrays;

/**
 * {@link IntMergeSort}'s algorithm for {@code double[]}; see there and ParallelSorts. Every comparison is
 * {@link Double#compare}, never {@code <}: the leaves come out of {@link Arrays#sort(double[], int, int)} in its total
 * order ({@code -0.0} before {@code 0.0}, NaNs last), and the merges must keep that order, which {@code <} cannot see
 * ({@code -0.0 < 0.0} is false, and so is every comparison with NaN). Double.compare starts with the two plain
 * comparisons and only then looks at the bits, so distinct ordinary values cost no more than {@code <}.
 */
final class DoubleMergeSort {
    private final double[] a;
    private final double[] buf;

    private DoubleMergeSort(double[] a) {
        this.a = a;
        this.buf = new double[a.length];
    }

    /** Sorts {@code a} with {@code levels >= 1} halvings (see SortTuning.levels). */
    static void sort(double[] a, int levels) {
        new DoubleMergeSort(a).sortRange(0, a.length, levels, false);
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
    private static void merge(double[] src, int lo1, int hi1, int lo2, int hi2, double[] dst, int out) {
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

    /** Branches, unlike IntMergeSort's loop: with Double.compare in it the branch-free select measured slower. */
    private static void mergeSequential(double[] src, int i, int hi1, int j, int hi2, double[] dst, int k) {
        // otherwise the runs are already in order: two copies
        if (i < hi1 && j < hi2 && Double.compare(src[hi1 - 1], src[j]) > 0) {
            double x = src[i];
            double y = src[j];
            while (true) {
                if (Double.compare(y, x) < 0) { // strictly: on a tie the left (earlier) element goes first
                    dst[k++] = y;
                    if (++j == hi2) break;
                    y = src[j];
                } else {
                    dst[k++] = x;
                    if (++i == hi1) break;
                    x = src[i];
                }
            }
        }
        System.arraycopy(src, i, dst, k, hi1 - i);
        System.arraycopy(src, j, dst, k + (hi1 - i), hi2 - j);
    }

    /** @return the first index in the sorted {@code src[lo, hi)} whose element is not below {@code key}, else hi */
    private static int firstNotBelow(double[] src, int lo, int hi, double key) {
        while (lo < hi) {
            int m = (lo + hi) >>> 1;
            if (Double.compare(src[m], key) < 0) lo = m + 1; else hi = m;
        }
        return lo;
    }

    /** @return the first index in the sorted {@code src[lo, hi)} whose element is above {@code key}, else hi */
    private static int firstAbove(double[] src, int lo, int hi, double key) {
        while (lo < hi) {
            int m = (lo + hi) >>> 1;
            if (Double.compare(src[m], key) <= 0) lo = m + 1; else hi = m;
        }
        return lo;
    }
}
