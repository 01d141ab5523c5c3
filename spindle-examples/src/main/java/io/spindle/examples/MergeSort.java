package io.spindle.examples;

import io.spindle.Spindle;

import java.util.Arrays;
import java.util.concurrent.RecursiveAction;

/** Parallel merge sort of an int array: sort both halves in parallel, then merge them (sequentially). */
final class MergeSort {
    /** Ranges this short are sorted sequentially. */
    static final int CUTOFF = 4096;

    private MergeSort() {}

    /** Spindle: sorts {@code a} in place, using {@code tmp} (same length) for merging; returns {@code a}. */
    static int[] spindle(int[] a, int[] tmp) {
        sort(a, tmp, 0, a.length);
        return a;
    }

    private static void sort(int[] a, int[] tmp, int lo, int hi) {
        if (hi - lo <= CUTOFF) {
            Arrays.sort(a, lo, hi);
            return;
        }
        int mid = (lo + hi) >>> 1;
        Spindle.join(() -> sort(a, tmp, lo, mid), () -> sort(a, tmp, mid, hi));
        merge(a, tmp, lo, mid, hi);
    }

    /** ForkJoinPool: the same algorithm as a RecursiveAction. */
    @SuppressWarnings("serial")
    static final class Task extends RecursiveAction {
        private final int[] a;
        private final int[] tmp;
        private final int lo;
        private final int hi;

        Task(int[] a, int[] tmp, int lo, int hi) {
            this.a = a;
            this.tmp = tmp;
            this.lo = lo;
            this.hi = hi;
        }

        @Override
        protected void compute() {
            if (hi - lo <= CUTOFF) {
                Arrays.sort(a, lo, hi);
                return;
            }
            int mid = (lo + hi) >>> 1;
            invokeAll(new Task(a, tmp, lo, mid), new Task(a, tmp, mid, hi));
            merge(a, tmp, lo, mid, hi);
        }
    }

    /** Merges the sorted ranges a[lo, mid) and a[mid, hi) into a[lo, hi). */
    static void merge(int[] a, int[] tmp, int lo, int mid, int hi) {
        System.arraycopy(a, lo, tmp, lo, hi - lo);
        int i = lo, j = mid, k = lo;
        while (i < mid && j < hi) a[k++] = tmp[i] <= tmp[j] ? tmp[i++] : tmp[j++];
        while (i < mid) a[k++] = tmp[i++];
        while (j < hi) a[k++] = tmp[j++];
    }

    static boolean isSorted(int[] a) {
        for (int i = 1; i < a.length; i++) {
            if (a[i - 1] > a[i]) return false;
        }
        return true;
    }

    /** Sum of the elements: sorting must not change it. */
    static long checksum(int[] a) {
        long sum = 0;
        for (int x : a) sum += x;
        return sum;
    }
}
