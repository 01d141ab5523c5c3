package io.spindle.bench.workload;

import io.spindle.Parallel;
import io.spindle.ThreadPool;

import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;

/**
 * par-map-collect: map 0..n-1 to boxed Longs and collect them in order into a List:
 * {@code Parallel.range(0, n).on(pool).mapToObj(f).toList()} against {@code IntStream.range(0, n).parallel()
 * .mapToObj(f).toList()} run inside {@code fjp.submit}. Allocation-heavy (one Long per element) and order-preserving:
 * it measures splitting plus assembling the pieces in order. Both sides use {@code toList()}, the faster of the
 * stream's two idioms (a sized parallel stream writes straight into one array; {@code collect(toList())} would merge
 * ArrayLists).
 *
 * <p>Each run starts from a collected heap ({@link System#gc()} before the clock starts, for every contender): a run
 * leaves a whole list of garbage behind, and without it the next contender, whichever it is, would pay for collecting
 * its predecessor's list inside its own timed region.
 */
final class ParMapCollect extends ComputeWorkload {
    private final int length;
    private List<Long> result;

    ParMapCollect(int length) {
        super("par-map-collect");
        this.length = length;
    }

    /**
     * SplitMix64's finaliser: a few multiplies and shifts, cheap beside the allocation, and every output depends on
     * every input bit, so the JIT cannot fold it away or share boxes (outside Long's small cache, every value is a
     * fresh Long).
     */
    static Long mix(int i) {
        long z = i + 0x9E37_79B9_7F4A_7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }

    @Override
    public String description() {
        return String.format("%,d ints mapped to boxed Longs (SplitMix64 mix), collected in order: "
                + "Parallel.range(0, n).on(pool).mapToObj(f).toList() vs IntStream.range(0, n).parallel()"
                + ".mapToObj(f).toList() inside fjp.submit (%s)", length, ParallelStreams.fjpNote());
    }

    @Override
    public void setUp() {
        ParallelStreams.requireHeap(name(), 2 * 28L * length); // one live result list (Long + reference) and garbage
    }

    @Override
    public void tearDown() {
        super.tearDown();
        result = null;
    }

    @Override
    void beforeRun() {
        System.gc();
    }

    @Override
    boolean isJoinWorkload() {
        return false; // a data-parallel API, not hand-written joins: no --join-threads rows
    }

    @Override
    long onSpindle(ThreadPool pool) {
        result = Parallel.range(0, length).on(pool).mapToObj(ParMapCollect::mix).toList();
        return result.size();
    }

    @Override
    long onFjp(ForkJoinPool pool) {
        int n = length;
        result = pool.submit(() -> IntStream.range(0, n).parallel().mapToObj(ParMapCollect::mix).toList()).join();
        return result.size();
    }

    @Override
    long onSequential() {
        result = IntStream.range(0, length).mapToObj(ParMapCollect::mix).toList();
        return result.size();
    }

    @Override
    void verify(long size) {
        List<Long> r = result;
        result = null; // not kept alive through the next run, where it would only make its collections slower
        expect("list size", size, length);
        for (int i = 0; i < length; i++) {
            if (r.get(i).longValue() != mix(i)) {
                throw new IllegalStateException("wrong result: element " + i + " is " + r.get(i) + ", expected "
                        + mix(i) + " (mapped out of order?)");
            }
        }
    }
}
