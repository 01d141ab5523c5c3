package io.spindle.internal.par;


import java.lang.reflect.Array;
import java.util.Arrays;
import java.util.Comparator;

/**
 * {@link IntMergeSort}'s algorithm for object arrays and a comparator; see there and ParallelSorts. Stability is the
 * point here: the leaves are TimSort (stable), the sequential merge takes the right element only when the comparator
 * says it is strictly smaller, and the parallel cut sends equal elements to the side ParallelSorts describes.
 *
 * <p>The scratch buffer has {@code a}'s runtime element type, so copies between the two are plain copies rather than
 * System.arraycopy's element-by-element type-checked path; it only ever holds elements taken from {@code a}, so no
 * store into either can fail.
 */
final class ObjectMergeSort {
    private final Object[] a;
    private final Object[] buf;
    private final Comparator<Object> order;

    private ObjectMergeSort(Object[] a, Comparator<Object> order) {
        this.a = a;
        this.buf = (Object[]) Array.newInstance(a.getClass().getComponentType(), a.length);
        this.order = order;
    }

    /** Sorts {@code a} with {@code levels >= 1} halvings (see SortTuning.levels). */
    @SuppressWarnings("unchecked") // the comparator only ever sees elements of a, which are Ts
    static <T> void sort(T[] a, Comparator<? super T> comparator, int levels) {
        new ObjectMergeSort(a, (Comparator<Object>) comparator).sortRange(0, a.length, levels, false);
    }

    /**
     * Sorts the elements of {@code a[lo, hi)} and leaves them in {@code buf[lo, hi)} if {@code intoBuf}, else in
     * {@code a[lo, hi)}. Its two halves land in the other array, which its merge then reads.
     */
    private void sortRange(int lo, int hi, int levels, boolean intoBuf) {
        if (levels == 0) {
            Arrays.sort(a, lo, hi, order);
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
    private void merge(Object[] src, int lo1, int hi1, int lo2, int hi2, Object[] dst, int out) {
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

    private void mergeSequential(Object[] src, int i, int hi1, int j, int hi2, Object[] dst, int k) {
        Comparator<Object> c = order;
        if (i < hi1 && j < hi2 && c.compare(src[hi1 - 1], src[j]) > 0) { // else already in order: two copies
            Object x = src[i];
            Object y = src[j];
            while (true) {
                if (c.compare(y, x) < 0) { // strictly: on a tie the left (earlier) element goes first
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
    private int firstNotBelow(Object[] src, int lo, int hi, Object key) {
        while (lo < hi) {
            int m = (lo + hi) >>> 1;
            if (order.compare(src[m], key) < 0) lo = m + 1; else hi = m;
        }
        return lo;
    }

    /** @return the first index in the sorted {@code src[lo, hi)} whose element is above {@code key}, else hi */
    private int firstAbove(Object[] src, int lo, int hi, Object key) {
        while (lo < hi) {
            int m = (lo + hi) >>> 1;
            if (order.compare(src[m], key) <= 0) lo = m + 1; else hi = m;
        }
        return lo;
    }
}
