package io.spindle.bench.workload;

import java.util.Random;

/** The sorting workloads' input: fixed random ints, a working copy refreshed before every run, and checks. */
final class SortData {
    /** Ranges this short are sorted sequentially (Arrays.sort) by every version. */
    static final int CUTOFF = 4096;

    private final int[] input;
    private final long checksum;
    final int[] work;
    final int[] tmp;

    SortData(int length) {
        input = new Random(42).ints(length).toArray();
        checksum = checksum(input);
        work = new int[length];
        tmp = new int[length];
    }

    /** Puts the unsorted input back into {@link #work}. */
    void reset() {
        System.arraycopy(input, 0, work, 0, input.length);
    }

    /** @throws IllegalStateException if {@link #work} is not a sorted permutation of the input (by checksum) */
    void verify(String algorithm) {
        for (int i = 1; i < work.length; i++) {
            if (work[i - 1] > work[i]) {
                throw new IllegalStateException(algorithm + " left the array unsorted at index " + i);
            }
        }
        if (checksum(work) != checksum) throw new IllegalStateException(algorithm + " changed the elements");
    }

    private static long checksum(int[] a) {
        long sum = 0;
        for (int x : a) sum += x;
        return sum;
    }
}
