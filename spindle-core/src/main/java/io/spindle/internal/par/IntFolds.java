package io.spindle.internal.par;

import java.util.Arrays;
import java.util.OptionalInt;
import java.util.function.IntBinaryOperator;
import java.util.function.IntConsumer;
import java.util.function.IntPredicate;

/**
 * The terminal operations of {@code ParallelInts}: one accumulator class per operation, each an {@link IntConsumer}
 * so that {@code int} elements reach it unboxed, and a factory for its {@link Terminal}. {@link LongFolds},
 * {@link DoubleFolds} and {@link ItemFolds} are the same for the other element types: Java has no generics over
 * primitives, and a shared boxed version would allocate per element.
 */
public final class IntFolds {
    private IntFolds() {}

    /**
     * @param action the action, shared by every leaf
     * @return the terminal of {@code forEach}
     */
    public static Terminal<IntConsumer, IntConsumer> forEach(IntConsumer action) {
        return Terminal.of(key -> action, (l, r) -> l);
    }

    /** @return the terminal of {@code sum} */
    public static Terminal<IntConsumer, Sum> sum() {
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
    public static Terminal<IntConsumer, Reduce> reduce(int identity, IntBinaryOperator op) {
        return Terminal.of(key -> new Reduce(op, true, identity), Reduce::merge);
    }

    /**
     * @param op an associative operator
     * @return the terminal of {@code reduce(op)}
     */
    public static Terminal<IntConsumer, Reduce> reduce(IntBinaryOperator op) {
        return Terminal.of(key -> new Reduce(op, false, 0), Reduce::merge);
    }

    /**
     * @param out the result array, exactly as long as the pipeline's output
     * @return the terminal of {@code toArray} for a pipeline of exact size: leaf {@code k} writes from index {@code k}
     */
    public static Terminal<IntConsumer, Writer> writeInto(int[] out) {
        return Terminal.of(key -> new Writer(out, (int) key), (l, r) -> l);
    }

    /** @return the terminal of {@code toArray} for a pipeline of unknown size */
    public static Terminal<IntConsumer, Buffer> buffer() {
        return Terminal.of(key -> new Buffer(), Buffer::append);
    }

    /**
     * @param predicate the predicate
     * @return the terminal of {@code anyMatch}: stops every piece at the first element found
     */
    public static Terminal<IntConsumer, AnyMatch> anyMatch(IntPredicate predicate) {
        EarlyExit exit = new EarlyExit();
        return Terminal.stoppable(key -> new AnyMatch(predicate, exit), (l, r) -> l.found ? l : r, exit);
    }

    /**
     * @param first whether the operation wants the first element in encounter order ({@code findFirst}) rather than
     *              any ({@code findAny})
     * @return the terminal of {@code findFirst} or {@code findAny}
     */
    public static Terminal<IntConsumer, Find> find(boolean first) {
        EarlyExit exit = new EarlyExit();
        return Terminal.stoppable(key -> new Find(exit, first, key), (l, r) -> l.found ? l : r, exit);
    }

    /** Sums into a {@code long}, so that sums of many ints do not overflow. */
    public static final class Sum implements IntConsumer, IndexedSource.IntArraySink {
        private long sum;

        /** @return the sum */
        public long value() {
            return sum;
        }

        @Override
        public void accept(int v) {
            sum += v;
        }

        @Override
        public void acceptAll(int[] a, int from, int to) {
            long s = 0;
            for (int i = from; i < to; i++) {
                s += a[i];
            }
            sum += s;
        }
    }

    /** Folds with an operator, from its identity or from the first element. */
    public static final class Reduce implements IntConsumer {
        private final IntBinaryOperator op;
        private boolean seen;
        private int value;

        Reduce(IntBinaryOperator op, boolean seen, int value) {
            this.op = op;
            this.seen = seen;
            this.value = value;
        }

        /** @return the result; for {@code reduce(identity, op)} always present */
        public OptionalInt value() {
            return seen ? OptionalInt.of(value) : OptionalInt.empty();
        }

        @Override
        public void accept(int v) {
            if (seen) {
                value = op.applyAsInt(value, v);
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
    public static final class Writer implements IntConsumer, IndexedSource.IntArraySink {
        private final int[] out;
        private int at;

        Writer(int[] out, int from) {
            this.out = out;
            this.at = from;
        }

        @Override
        public void accept(int v) {
            out[at++] = v;
        }

        @Override
        public void acceptAll(int[] a, int from, int to) {
            System.arraycopy(a, from, out, at, to - from);
            at += to - from;
        }
    }

    /** Collects a leaf's elements when the result size is unknown. */
    public static final class Buffer extends Chunk<Buffer> implements IntConsumer {
        private static final int[] EMPTY = {};

        private int[] data = EMPTY;

        @Override
        public void accept(int v) {
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
        public int[] toArray() {
            int[] out = new int[chainSize()];
            copyChainInto(out);
            return out;
        }
    }

    /** Looks for an element that matches. */
    public static final class AnyMatch implements IntConsumer {
        private final IntPredicate predicate;
        private final EarlyExit exit;
        private boolean found;

        AnyMatch(IntPredicate predicate, EarlyExit exit) {
            this.predicate = predicate;
            this.exit = exit;
        }

        /** @return whether this piece found a match */
        public boolean found() {
            return found;
        }

        @Override
        public void accept(int v) {
            if (predicate.test(v)) {
                found = true;
                exit.stopAll();
            }
        }
    }

    /** Keeps the first element that reaches it. */
    public static final class Find implements IntConsumer {
        private final EarlyExit exit;
        private final boolean first;
        private final long key;
        private boolean found;
        private int value;

        Find(EarlyExit exit, boolean first, long key) {
            this.exit = exit;
            this.first = first;
            this.key = key;
        }

        /** @return the element found, if any */
        public OptionalInt value() {
            return found ? OptionalInt.of(value) : OptionalInt.empty();
        }

        @Override
        public void accept(int v) {
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
