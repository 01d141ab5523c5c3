package io.spindle.bench.workload;

import io.spindle.Parallel;
import io.spindle.ThreadPool;

import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.ForkJoinPool;

/**
 * par-sum: the sum of a large random int[] as a long, through each library's data-parallel API rather than
 * hand-written joins: {@code Parallel.of(a).on(pool).sum()} against {@code Arrays.stream(a).parallel()
 * .asLongStream().sum()} run inside {@code fjp.submit}. Memory-bound: it measures how well splitting and
 * scheduling keep every worker streaming.
 */
final class ParSum extends ComputeWorkload {
    private final int length;
    private int[] data;
    private long expected;

    ParSum(int length) {
        super("par-sum");
        this.length = length;
    }

    @Override
    public String description() {
        return String.format("sum of %,d random ints as a long: Parallel.of(a).on(pool).sum() vs "
                + "Arrays.stream(a).parallel().asLongStream().sum() inside fjp.submit (%s)", length,
                ParallelStreams.fjpNote());
    }

    @Override
    public void setUp() {
        ParallelStreams.requireHeap(name(), 4L * length);
        data = new Random(42).ints(length).toArray();
        long sum = 0;
        for (int x : data) sum += x; // a plain loop, independent of every contender's code
        expected = sum;
    }

    @Override
    public void tearDown() {
        super.tearDown();
        data = null;
    }

    @Override
    boolean isJoinWorkload() {
        return false; // a data-parallel API, not hand-written joins: no --join-threads rows
    }

    @Override
    long onSpindle(ThreadPool pool) {
        return Parallel.of(data).on(pool).sum();
    }

    @Override
    long onFjp(ForkJoinPool pool) {
        int[] a = data;
        return pool.submit(() -> Arrays.stream(a).parallel().asLongStream().sum()).join();
    }

    @Override
    long onSequential() {
        return Arrays.stream(data).asLongStream().sum();
    }

    @Override
    void verify(long result) {
        expect("sum of " + length + " ints", result, expected);
    }
}
