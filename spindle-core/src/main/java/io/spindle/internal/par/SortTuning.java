package io.spindle.internal.par;

/**
 * How finely the parallel sorts split: the shape of the merge tree (how many halvings) and the merge grain. Shared by
 * the four element types so that they split alike.
 */
final class SortTuning {
    private SortTuning() {}

    /**
     * The shortest leaf worth a task of its own: below it, the join and the extra merge level cost more than the
     * parallelism gains.
     */
    static final int MIN_LEAF = 1 << 13;

    /**
     * Leaves wanted per worker. A few per worker would let thieves even out a slow or preempted worker, but each
     * factor of two costs a whole merge pass over the array, and the passes are what the sort is made of once the
     * leaves are sorted by the JDK's (vectorised, on recent JDKs) {@code Arrays.sort}: on 2 workers, 10^7 ints, one
     * leaf per worker sorted in 118-126 ms against 167-168 ms with four (JDK 25), 0.97 against 1.07 of
     * {@code Arrays.parallelSort}'s time on JDK 17. The merges themselves still split and get stolen.
     */
    static final int LEAVES_PER_THREAD = 1;

    /** Merges of at most this many elements in all run sequentially; longer ones split (see ParallelSorts). */
    static final int MERGE_GRAIN = 1 << 13;

    /**
     * Plans the merge tree for {@code length} elements on {@code threads} workers: enough halvings for
     * {@link #LEAVES_PER_THREAD} leaves per worker, fewer where leaves would drop below {@link #MIN_LEAF}.
     *
     * @return the number of halvings, 0 when the array should be sorted sequentially
     */
    static int levels(int length, int threads) {
        if (threads <= 1 || length < 4 * MIN_LEAF) {
            return 0;
        }
        long wantedLeaves = (long) threads * LEAVES_PER_THREAD;
        int levels = 64 - Long.numberOfLeadingZeros(wantedLeaves - 1); // ceil(log2(wantedLeaves))
        while ((length >> levels) < MIN_LEAF) {
            levels--; // ends by 2 at the latest: length >= 4 * MIN_LEAF
        }
        return levels;
    }
}
