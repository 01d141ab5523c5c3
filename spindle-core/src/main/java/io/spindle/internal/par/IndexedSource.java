package io.spindle.internal.par;

import io.spindle.ThreadPool;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.DoubleConsumer;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;

/**
 * A source whose elements are addressed by index {@code 0 .. length-1}: integer ranges, arrays and random-access
 * lists. A piece is just an index interval, so splitting allocates nothing and every piece knows its exact length and
 * where its elements go in an ordered result. The sources are views: they copy nothing, and an array or list changed
 * while an operation runs gives unspecified results.
 *
 * <p>Each source has two leaf loops: {@link #feed}, which visits every element of a piece, and
 * {@link #feedUntilStopped}, which also polls the operation's {@link EarlyExit} before each element. The poll is one
 * opaque load, but keeping it out of the plain loop leaves that loop simple enough for the JIT to unroll.
 *
 * @param <S> the sink type fed
 */
public abstract class IndexedSource<S> extends Source<S> {
    IndexedSource() {}

    /** @return the number of elements */
    abstract long length();

    /** Feeds the elements at indices {@code lo .. hi-1} to {@code sink}, in order. */
    abstract void feed(long lo, long hi, S sink);

    /** As {@link #feed}, returning early once {@code exit} stops the piece whose key is {@code lo}. */
    abstract void feedUntilStopped(long lo, long hi, S sink, EarlyExit exit);

    @Override
    final long exactSize() {
        return length();
    }

    @Override
    final <D, A extends D> A drive(ThreadPool pool, Function<D, S> chain, Terminal<D, A> terminal,
            int minPieceLength) {
        return new IndexedDriver<>(pool, this, chain, terminal, minPieceLength).run();
    }

    // --- bulk sinks -------------------------------------------------------------------------------------------------

    /**
     * An accumulator that takes a whole slice of an {@code int[]} at once. When a pipeline has no stages, the
     * array source hands its slice over instead of calling {@code accept} per element, which turns, for example,
     * {@code Parallel.of(int[]).sum()} into a loop the JIT can vectorise.
     */
    interface IntArraySink {
        void acceptAll(int[] a, int from, int to);
    }

    /** As {@link IntArraySink}, for {@code long[]}. */
    interface LongArraySink {
        void acceptAll(long[] a, int from, int to);
    }

    /** As {@link IntArraySink}, for {@code double[]}. */
    interface DoubleArraySink {
        void acceptAll(double[] a, int from, int to);
    }

    // --- the sources ------------------------------------------------------------------------------------------------

    /**
     * @param start the first value
     * @param end   one past the last value ({@code >= start})
     * @return the ints {@code start .. end-1}
     */
    public static IndexedSource<IntConsumer> intRange(int start, int end) {
        return new IntRange(start, end);
    }

    /**
     * @param start the first value
     * @param end   one past the last value ({@code >= start}, at most {@code Long.MAX_VALUE} values)
     * @return the longs {@code start .. end-1}
     */
    public static IndexedSource<LongConsumer> longRange(long start, long end) {
        return new LongRange(start, end);
    }

    /**
     * @param a the array
     * @return its elements
     */
    public static IndexedSource<IntConsumer> of(int[] a) {
        return new IntArray(a);
    }

    /**
     * @param a the array
     * @return its elements
     */
    public static IndexedSource<LongConsumer> of(long[] a) {
        return new LongArray(a);
    }

    /**
     * @param a the array
     * @return its elements
     */
    public static IndexedSource<DoubleConsumer> of(double[] a) {
        return new DoubleArray(a);
    }

    /**
     * @param a   the array
     * @param <T> the element type
     * @return its elements
     */
    public static <T> IndexedSource<Consumer<T>> of(T[] a) {
        return new ItemArray<>(a);
    }

    /**
     * @param list a list with fast {@code get(int)} ({@code RandomAccess})
     * @param <T>  the element type
     * @return its elements
     */
    public static <T> IndexedSource<Consumer<T>> ofRandomAccess(List<? extends T> list) {
        return new ItemList<>(list);
    }

    private static final class IntRange extends IndexedSource<IntConsumer> {
        private final int start;
        private final int end;

        IntRange(int start, int end) {
            this.start = start;
            this.end = end;
        }

        @Override
        long length() {
            return (long) end - start;
        }

        // start + hi <= end, so neither bound overflows, and v < to <= Integer.MAX_VALUE keeps v++ in range
        @Override
        void feed(long lo, long hi, IntConsumer sink) {
            for (int v = (int) (start + lo), to = (int) (start + hi); v < to; v++) {
                sink.accept(v);
            }
        }

        @Override
        void feedUntilStopped(long lo, long hi, IntConsumer sink, EarlyExit exit) {
            for (int v = (int) (start + lo), to = (int) (start + hi); v < to && !exit.stopsPieceAt(lo); v++) {
                sink.accept(v);
            }
        }
    }

    private static final class LongRange extends IndexedSource<LongConsumer> {
        private final long start;
        private final long end;

        LongRange(long start, long end) {
            this.start = start;
            this.end = end;
        }

        @Override
        long length() {
            return end - start; // the caller checked that it does not overflow
        }

        @Override
        void feed(long lo, long hi, LongConsumer sink) {
            for (long v = start + lo, to = start + hi; v < to; v++) {
                sink.accept(v);
            }
        }

        @Override
        void feedUntilStopped(long lo, long hi, LongConsumer sink, EarlyExit exit) {
            for (long v = start + lo, to = start + hi; v < to && !exit.stopsPieceAt(lo); v++) {
                sink.accept(v);
            }
        }
    }

    private static final class IntArray extends IndexedSource<IntConsumer> {
        private final int[] a;

        IntArray(int[] a) {
            this.a = a;
        }

        @Override
        long length() {
            return a.length;
        }

        @Override
        void feed(long lo, long hi, IntConsumer sink) {
            int[] a = this.a;
            if (sink instanceof IntArraySink bulk) {
                bulk.acceptAll(a, (int) lo, (int) hi);
                return;
            }
            for (int i = (int) lo, to = (int) hi; i < to; i++) {
                sink.accept(a[i]);
            }
        }

        @Override
        void feedUntilStopped(long lo, long hi, IntConsumer sink, EarlyExit exit) {
            int[] a = this.a;
            for (int i = (int) lo, to = (int) hi; i < to && !exit.stopsPieceAt(lo); i++) {
                sink.accept(a[i]);
            }
        }
    }

    private static final class LongArray extends IndexedSource<LongConsumer> {
        private final long[] a;

        LongArray(long[] a) {
            this.a = a;
        }

        @Override
        long length() {
            return a.length;
        }

        @Override
        void feed(long lo, long hi, LongConsumer sink) {
            long[] a = this.a;
            if (sink instanceof LongArraySink bulk) {
                bulk.acceptAll(a, (int) lo, (int) hi);
                return;
            }
            for (int i = (int) lo, to = (int) hi; i < to; i++) {
                sink.accept(a[i]);
            }
        }

        @Override
        void feedUntilStopped(long lo, long hi, LongConsumer sink, EarlyExit exit) {
            long[] a = this.a;
            for (int i = (int) lo, to = (int) hi; i < to && !exit.stopsPieceAt(lo); i++) {
                sink.accept(a[i]);
            }
        }
    }

    private static final class DoubleArray extends IndexedSource<DoubleConsumer> {
        private final double[] a;

        DoubleArray(double[] a) {
            this.a = a;
        }

        @Override
        long length() {
            return a.length;
        }

        @Override
        void feed(long lo, long hi, DoubleConsumer sink) {
            double[] a = this.a;
            if (sink instanceof DoubleArraySink bulk) {
                bulk.acceptAll(a, (int) lo, (int) hi);
                return;
            }
            for (int i = (int) lo, to = (int) hi; i < to; i++) {
                sink.accept(a[i]);
            }
        }

        @Override
        void feedUntilStopped(long lo, long hi, DoubleConsumer sink, EarlyExit exit) {
            double[] a = this.a;
            for (int i = (int) lo, to = (int) hi; i < to && !exit.stopsPieceAt(lo); i++) {
                sink.accept(a[i]);
            }
        }
    }

    private static final class ItemArray<T> extends IndexedSource<Consumer<T>> {
        private final T[] a;

        ItemArray(T[] a) {
            this.a = a;
        }

        @Override
        long length() {
            return a.length;
        }

        @Override
        void feed(long lo, long hi, Consumer<T> sink) {
            T[] a = this.a;
            for (int i = (int) lo, to = (int) hi; i < to; i++) {
                sink.accept(a[i]);
            }
        }

        @Override
        void feedUntilStopped(long lo, long hi, Consumer<T> sink, EarlyExit exit) {
            T[] a = this.a;
            for (int i = (int) lo, to = (int) hi; i < to && !exit.stopsPieceAt(lo); i++) {
                sink.accept(a[i]);
            }
        }
    }

    private static final class ItemList<T> extends IndexedSource<Consumer<T>> {
        private final List<? extends T> list;

        ItemList(List<? extends T> list) {
            this.list = list;
        }

        // read at each terminal operation, so that one built over a list sees the list as it is then
        @Override
        long length() {
            return list.size();
        }

        @Override
        void feed(long lo, long hi, Consumer<T> sink) {
            List<? extends T> list = this.list;
            for (int i = (int) lo, to = (int) hi; i < to; i++) {
                sink.accept(list.get(i));
            }
        }

        @Override
        void feedUntilStopped(long lo, long hi, Consumer<T> sink, EarlyExit exit) {
            List<? extends T> list = this.list;
            for (int i = (int) lo, to = (int) hi; i < to && !exit.stopsPieceAt(lo); i++) {
                sink.accept(list.get(i));
            }
        }
    }
}
