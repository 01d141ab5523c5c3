package io.spindle.bench.workload;

import io.spindle.Spindle;
import io.spindle.ThreadPool;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/** mergesort: both halves in parallel, then a sequential merge; Arrays.sort below {@link SortData#CUTOFF}. */
final class MergeSort extends ComputeWorkload {
    private final int length;
    private SortData data;

    MergeSort(int length) {
        super("mergesort");
        this.length = length;
    }

    @Override
    public String description() {
        return String.format("merge sort of %,d random ints, sequential below %,d", length, SortData.CUTOFF);
    }

    @Override
    public void setUp() {
        data = new SortData(length);
    }

    @Override
    public void tearDown() {
        super.tearDown();
        data = null;
    }

    @Override
    void beforeRun() {
        data.reset();
    }

    @Override
    long onSpindle(ThreadPool pool) {
        int[] a = data.work;
        int[] tmp = data.tmp;
        pool.install(() -> {
            spindle(a, tmp, 0, a.length);
            return null;
        });
        return 0;
    }

    @Override
    long onFjp(ForkJoinPool pool) {
        pool.invoke(new Task(data.work, data.tmp, 0, data.work.length));
        return 0;
    }

    @Override
    long onSequential() {
        sequential(data.work, data.tmp, 0, data.work.length);
        return 0;
    }

    @Override
    void verify(long result) {
        data.verify(name());
    }

    static void spindle(int[] a, int[] tmp, int lo, int hi) {
        if (hi - lo <= SortData.CUTOFF) {
            Arrays.sort(a, lo, hi);
            return;
        }
        int mid = (lo + hi) >>> 1;
        Spindle.join(() -> spindle(a, tmp, lo, mid), () -> spindle(a, tmp, mid, hi));
        merge(a, tmp, lo, mid, hi);
    }

    static void sequential(int[] a, int[] tmp, int lo, int hi) {
        if (hi - lo <= SortData.CUTOFF) {
            Arrays.sort(a, lo, hi);
            return;
        }
        int mid = (lo + hi) >>> 1;
        sequential(a, tmp, lo, mid);
        sequential(a, tmp, mid, hi);
        merge(a, tmp, lo, mid, hi);
    }

    /** Merges the sorted ranges a[lo, mid) and a[mid, hi) into a[lo, hi), through tmp. */
    static void merge(int[] a, int[] tmp, int lo, int mid, int hi) {
        System.arraycopy(a, lo, tmp, lo, hi - lo);
        int i = lo, j = mid, k = lo;
        while (i < mid && j < hi) a[k++] = tmp[i] <= tmp[j] ? tmp[i++] : tmp[j++];
        while (i < mid) a[k++] = tmp[i++];
        while (j < hi) a[k++] = tmp[j++];
    }

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
            if (hi - lo <= SortData.CUTOFF) {
                Arrays.sort(a, lo, hi);
                return;
            }
            int mid = (lo + hi) >>> 1;
            invokeAll(new Task(a, tmp, lo, mid), new Task(a, tmp, mid, hi));
            merge(a, tmp, lo, mid, hi);
        }
    }
}
