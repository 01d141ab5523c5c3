package io.spindle.bench.workload;

import io.spindle.Spindle;
import io.spindle.ThreadPool;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/** quicksort: Hoare partition, then both sides in parallel; Arrays.sort below {@link SortData#CUTOFF}. */
final class QuickSort extends ComputeWorkload {
    private final int length;
    private SortData data;

    QuickSort(int length) {
        super("quicksort");
        this.length = length;
    }

    @Override
    public String description() {
        return String.format("quicksort of %,d random ints, sequential below %,d", length, SortData.CUTOFF);
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
        pool.install(() -> {
            spindle(a, 0, a.length);
            return null;
        });
        return 0;
    }

    @Override
    long onFjp(ForkJoinPool pool) {
        pool.invoke(new Task(data.work, 0, data.work.length));
        return 0;
    }

    @Override
    long onSequential() {
        sequential(data.work, 0, data.work.length);
        return 0;
    }

    @Override
    void verify(long result) {
        data.verify(name());
    }

    static void spindle(int[] a, int lo, int hi) {
        if (hi - lo <= SortData.CUTOFF) {
            Arrays.sort(a, lo, hi);
            return;
        }
        int split = partition(a, lo, hi);
        Spindle.join(() -> spindle(a, lo, split), () -> spindle(a, split, hi));
    }

    static void sequential(int[] a, int lo, int hi) {
        if (hi - lo <= SortData.CUTOFF) {
            Arrays.sort(a, lo, hi);
            return;
        }
        int split = partition(a, lo, hi);
        sequential(a, lo, split);
        sequential(a, split, hi);
    }

    /**
     * Hoare's partition of a[lo, hi) around its middle element.
     *
     * @return s with lo < s < hi, every element of a[lo, s) &lt;= every element of a[s, hi)
     */
    static int partition(int[] a, int lo, int hi) {
        int pivot = a[(lo + hi - 1) >>> 1];
        int i = lo - 1;
        int j = hi;
        while (true) {
            do i++; while (a[i] < pivot);
            do j--; while (a[j] > pivot);
            if (i >= j) return j + 1;
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }

    @SuppressWarnings("serial")
    static final class Task extends RecursiveAction {
        private final int[] a;
        private final int lo;
        private final int hi;

        Task(int[] a, int lo, int hi) {
            this.a = a;
            this.lo = lo;
            this.hi = hi;
        }

        @Override
        protected void compute() {
            if (hi - lo <= SortData.CUTOFF) {
                Arrays.sort(a, lo, hi);
                return;
            }
            int split = partition(a, lo, hi);
            invokeAll(new Task(a, lo, split), new Task(a, split, hi));
        }
    }
}
