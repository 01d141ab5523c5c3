package io.spindle.bench.workload;

import io.spindle.Parallel;
import io.spindle.ThreadPool;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;

/**
 * par-sort: the libraries' own parallel sorts of random ints, {@code Parallel.sort(pool, a)} against
 * {@code Arrays.parallelSort(a)} run inside {@code fjp.submit}; the sequential row is {@code Arrays.sort}. Every run
 * sorts a fresh copy of the same input ({@link SortData}, the quicksort and mergesort input), copied before the clock
 * starts, and must equal {@code Arrays.sort}'s result exactly.
 */
final class ParSort extends ComputeWorkload {
    private final int length;
    private SortData data;
    private int[] expected;

    ParSort(int length) {
        super("par-sort");
        this.length = length;
    }

    @Override
    public String description() {
        return String.format("sort of %,d random ints, a fresh copy each run (copy untimed): Parallel.sort(pool, a) "
                + "vs Arrays.parallelSort(a) inside fjp.submit (%s); sequential: Arrays.sort", length,
                ParallelStreams.fjpNote());
    }

    @Override
    public void setUp() {
        data = new SortData(length);
        data.reset();
        expected = data.work.clone();
        Arrays.sort(expected);
    }

    @Override
    public void tearDown() {
        super.tearDown();
        data = null;
        expected = null;
    }

    @Override
    void beforeRun() {
        data.reset();
    }

    @Override
    boolean isJoinWorkload() {
        return false; // a data-parallel API, not hand-written joins: no --join-threads rows
    }

    @Override
    long onSpindle(ThreadPool pool) {
        Parallel.sort(pool, data.work);
        return 0;
    }

    @Override
    long onFjp(ForkJoinPool pool) {
        int[] a = data.work;
        pool.submit(() -> Arrays.parallelSort(a)).join();
        return 0;
    }

    @Override
    long onSequential() {
        Arrays.sort(data.work);
        return 0;
    }

    @Override
    void verify(long ignored) {
        if (!Arrays.equals(data.work, expected)) {
            data.verify(name()); // names the first unsorted index or a changed element set, if that is what it is
            throw new IllegalStateException(name() + ": sorted, but not equal to Arrays.sort's result");
        }
    }
}
