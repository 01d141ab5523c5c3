package io.spindle.internal.par;

import java.util.Arrays;
import java.util.OptionalLong;
import java.util.function.LongBinaryOperator;
import java.util.function.LongConsumer;
import java.util.function.LongPredicate;

/**
 * The terminal operations of {@code ParallelLongs}: one accumulator class per operation, each a {@link LongConsumer}
 * so that {@code long} elements reach it unboxed, and a factory for its {@link Terminal}. See {@link IntFolds}.
 */
public final class LongFolds {
    private LongFolds() {}

    /**
     * @param action the action, shared by every leaf
     * @return the terminal of {@code forEach}
     */
    public static Terminal<LongConsumer, LongConsumer> forEach(LongConsumer action) {
        return Terminal.of(key -> action, (l, r) -> l);
    }

    /** @return the terminal of {@code sum} */
    public static Terminal<LongConsumer, Sum> sum() {
        return Terminal.of(key -> new Sum(), (l, r) -> {
            l.sum += r.sum;
            return l;
        });
    }

    /**
     * @param identity the identity of {@code op}
     * @param op       an associative operator
     * @return the terminal of {@code reduce(identity, op)}
     */
    public static Terminal<LongConsumer, Reduce> reduce(long identity, LongBinaryOperator op) {
        return Terminal.of(key -> new Reduce(op, true, identity), Reduce::merge);
    }

    /**
     * @param op an associative operator
     * @return the terminal of {@code reduce(op)}
     */
    public static Terminal<LongConsumer, Reduce> reduce(LongBinaryOperator op) {
        return Terminal.of(key -> new Reduce(op, false, 0), Reduce::merge);
    }

    /**
     * @param out the result array, exactly as long as the pipeline's output
     * @return the terminal of {@code toArray} for a pipeline of exact size: leaf {@code k} writes from index {@code k}
     */
    public static Terminal<LongConsumer, Writer> writeInto(long[] out) {
        return Terminal.of(key -> new Writer(out, (int) key), (l, r) -> l);
    }

    /** @return the terminal of {@code toArray} for a pipeline of unknown size */
    public static Terminal<LongConsumer, Buffer> buffer() {
        return Terminal.of(key -> new Buffer(), Buffer::append);
    }

    /**
     * @param predicate the predicate
     * @return the terminal of {@code anyMatch}: stops every piece at the first element found
     */
    public static Terminal<LongConsumer, AnyMatch> anyMatch(LongPredicate predicate) {
        EarlyExit exit = new EarlyExit();
        return Terminal.stoppable(key -> new AnyMatch(predicate, exit), (l, r) -> l.found ? l : r, exit);
    }

    /**
     * @param first whether the operation wants the first element in encounter order ({@code findFirst}) rather than
     *              any ({@code findAny})
     * @return the terminal of {@code findFirst} or {@code findAny}
     */
    public static Terminal<LongConsumer, Find> find(boolean first) {
        EarlyExit exit = new EarlyExit();
        return Terminal.stoppable(key -> new Find(exit, first, key), (l, r) -> l.found ? l : r, exit);
    }

    /** Sums, wrapping around on overflow as {@code LongStream.sum} does. */
    public static final class Sum implements LongConsumer, IndexedSource.LongArraySink {
        private long sum;

        /** @return the sum */
        public long value() {
            return sum;
        }

        @Override
        public void accept(long v) {
            sum += v;
        }

        @Override
        public void acceptAll(long[] a, int from, int to) {
            long s = 0;
            for (int i = from; i < to; i++) {
                s += a[i];
            }
            sum += s;
        }
    }

    /** Folds with an operator, from its identity or from the first element. */
    public static final class Reduce implements LongConsumer {
        private final LongBinaryOperator op;
        private boolean seen;
        private long value;

        Reduce(LongBinaryOperator op, boolean seen, long value) {
            this.op = op;
            this.seen = seen;
            this.value = value;
        }

        /** @return the result; for {@code reduce(identity, op)} always present */
        public OptionalLong value() {
            return seen ? OptionalLong.of(value) : OptionalLong.empty();
        }

        @Override
        public void accept(long v) {
            if (seen) {
                value = op.applyAsLong(value, v);
            } else {
                value = v;
                seen = true;
            }
        }

        Reduce merge(Reduce right) {
            if (right.seen) {
                accept(right.value);
            }
            return this;
        }
    }

    /** Writes a leaf's elements into its slice of the result. */
    public static final class Writer implements LongConsumer, IndexedSource.LongArraySink {
        private final long[] out;
        private int at;

        Writer(long[] out, int from) {
            this.out = out;
            this.at = from;
        }

        @Override
        public void accept(long v) {
            out[at++] = v;
        }

        @Override
        public void acceptAll(long[] a, int from, int to) {
            System.arraycopy(a, from, out, at, to - from);
            at += to - from;
        }
    }

    /** Collects a leaf's elements when the result size is unknown. */
    public static final class Buffer extends Chunk<Buffer> implements LongConsumer {
        private static final long[] EMPTY = {};

        private long[] data = EMPTY;

        @Override
        public void accept(long v) {
            if (size == data.length) {
                data = Arrays.copyOf(data, grownCapacity(size));
            }
            data[size++] = v;
        }

        @Override
        Object array() {
            return data;
        }

        /**
         * @return the elements of this chain of buffers, in order
         * @throws IllegalStateException if they do not fit in one array
         */
        public long[] toArray() {
            long[] out = new long[chainSize()];
            copyChainInto(out);
            return out;
        }
    }

    /** Looks for an element that matches. */
    public static final class AnyMatch implements LongConsumer {
        private final LongPredicate predicate;
        private final EarlyExit exit;
        private boolean found;

        AnyMatch(LongPredicate predicate, EarlyExit exit) {
            this.predicate = predicate;
            this.exit = exit;
        }

        /** @return whether this piece found a match */
        public boolean found() {
            return found;
        }

        @Override
        public void accept(long v) {
            if (predicate.test(v)) {
                found = true;
                exit.stopAll();
            }
        }
    }

    /** Keeps the first element that reaches it. */
    public static final class Find implements LongConsumer {
        private final EarlyExit exit;
        private final boolean first;
        private final long key;
        private boolean found;
        private long value;

        Find(EarlyExit exit, boolean first, long key) {
            this.exit = exit;
            this.first = first;
            this.key = key;
        }

        /** @return the element found, if any */
        public OptionalLong value() {
            return found ? OptionalLong.of(value) : OptionalLong.empty();
        }

        @Override
        public void accept(long v) {
            if (found) {
                return; // the leaf polls the exit only before the next element
            }
            found = true;
            value = v;
            if (first) {
                exit.foundAt(key);
            } else {
                exit.stopAll();
            }
        }
    }
}
