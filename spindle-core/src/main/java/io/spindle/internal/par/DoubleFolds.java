package io.spindle.internal.par;

import java.util.Arrays;
import java.util.OptionalDouble;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleConsumer;
import java.util.function.DoublePredicate;

/**
 * The terminal operations of {@code ParallelDoubles}: one accumulator class per operation, each a
 * {@link DoubleConsumer} so that {@code double} elements reach it unboxed, and a factory for its {@link Terminal}. See
 * {@link IntFolds}.
 */
public final class DoubleFolds {
    private DoubleFolds() {}

    /**
     * @param action the action, shared by every leaf
     * @return the terminal of {@code forEach}
     */
    public static Terminal<DoubleConsumer, DoubleConsumer> forEach(DoubleConsumer action) {
        return Terminal.of(key -> action, (l, r) -> l);
    }

    /** @return the terminal of {@code sum} */
    public static Terminal<DoubleConsumer, Sum> sum() {
        return Terminal.of(key -> new Sum(), Sum::merge);
    }

    /**
     * @param identity the identity of {@code op}
     * @param op       an associative operator
     * @return the terminal of {@code reduce(identity, op)}
     */
    public static Terminal<DoubleConsumer, Reduce> reduce(double identity, DoubleBinaryOperator op) {
        return Terminal.of(key -> new Reduce(op, true, identity), Reduce::merge);
    }

    /**
     * @param op an associative operator
     * @return the terminal of {@code reduce(op)}
     */
    public static Terminal<DoubleConsumer, Reduce> reduce(DoubleBinaryOperator op) {
        return Terminal.of(key -> new Reduce(op, false, 0), Reduce::merge);
    }

    /**
     * @param out the result array, exactly as long as the pipeline's output
     * @return the terminal of {@code toArray} for a pipeline of exact size: leaf {@code k} writes from index {@code k}
     */
    public static Terminal<DoubleConsumer, Writer> writeInto(double[] out) {
        return Terminal.of(key -> new Writer(out, (int) key), (l, r) -> l);
    }

    /** @return the terminal of {@code toArray} for a pipeline of unknown size */
    public static Terminal<DoubleConsumer, Buffer> buffer() {
        return Terminal.of(key -> new Buffer(), Buffer::append);
    }

    /**
     * @param predicate the predicate
     * @return the terminal of {@code anyMatch}: stops every piece at the first element found
     */
    public static Terminal<DoubleConsumer, AnyMatch> anyMatch(DoublePredicate predicate) {
        EarlyExit exit = new EarlyExit();
        return Terminal.stoppable(key -> new AnyMatch(predicate, exit), (l, r) -> l.found ? l : r, exit);
    }

    /**
     * @param first whether the operation wants the first element in encounter order ({@code findFirst}) rather than
     *              any ({@code findAny})
     * @return the terminal of {@code findFirst} or {@code findAny}
     */
    public static Terminal<DoubleConsumer, Find> find(boolean first) {
        EarlyExit exit = new EarlyExit();
        return Terminal.stoppable(key -> new Find(exit, first, key), (l, r) -> l.found ? l : r, exit);
    }

    /**
     * Sums with compensation (Neumaier's variant of Kahan summation): the rounding error of each addition is kept
     * and added back at the end, so the result does not drift with the number of elements or with how the input was
     * split. As in {@code DoubleStream.sum}, a plain sum is kept beside it: when the compensated sum turns out NaN
     * because the values overflowed to infinities of one sign, the plain sum has the right infinite answer.
     */
    public static final class Sum implements DoubleConsumer, IndexedSource.DoubleArraySink {
        private double sum;
        private double compensation;
        private double plainSum;

        /** @return the sum */
        public double value() {
            double s = sum + compensation;
            return Double.isNaN(s) && Double.isInfinite(plainSum) ? plainSum : s;
        }

        @Override
        public void accept(double v) {
            addCompensated(v);
            plainSum += v;
        }

        @Override
        public void acceptAll(double[] a, int from, int to) {
            for (int i = from; i < to; i++) {
                accept(a[i]);
            }
        }

        private void addCompensated(double v) {
            double t = sum + v;
            if (Math.abs(sum) >= Math.abs(v)) {
                compensation += (sum - t) + v;
            } else {
                compensation += (v - t) + sum;
            }
            sum = t;
        }

        Sum merge(Sum right) {
            addCompensated(right.sum);
            addCompensated(right.compensation);
            plainSum += right.plainSum;
            return this;
        }
    }

    /** Folds with an operator, from its identity or from the first element. */
    public static final class Reduce implements DoubleConsumer {
        private final DoubleBinaryOperator op;
        private boolean seen;
        private double value;

        Reduce(DoubleBinaryOperator op, boolean seen, double value) {
            this.op = op;
            this.seen = seen;
            this.value = value;
        }

        /** @return the result; for {@code reduce(identity, op)} always present */
        public OptionalDouble value() {
            return seen ? OptionalDouble.of(value) : OptionalDouble.empty();
        }

        @Override
        public void accept(double v) {
            if (seen) {
                value = op.applyAsDouble(value, v);
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
    public static final class Writer implements DoubleConsumer, IndexedSource.DoubleArraySink {
        private final double[] out;
        private int at;

        Writer(double[] out, int from) {
            this.out = out;
            this.at = from;
        }

        @Override
        public void accept(double v) {
            out[at++] = v;
        }

        @Override
        public void acceptAll(double[] a, int from, int to) {
            System.arraycopy(a, from, out, at, to - from);
            at += to - from;
        }
    }

    /** Collects a leaf's elements when the result size is unknown. */
    public static final class Buffer extends Chunk<Buffer> implements DoubleConsumer {
        private static final double[] EMPTY = {};

        private double[] data = EMPTY;

        @Override
        public void accept(double v) {
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
        public double[] toArray() {
            double[] out = new double[chainSize()];
            copyChainInto(out);
            return out;
        }
    }

    /** Looks for an element that matches. */
    public static final class AnyMatch implements DoubleConsumer {
        private final DoublePredicate predicate;
        private final EarlyExit exit;
        private boolean found;

        AnyMatch(DoublePredicate predicate, EarlyExit exit) {
            this.predicate = predicate;
            this.exit = exit;
        }

        /** @return whether this piece found a match */
        public boolean found() {
            return found;
        }

        @Override
        public void accept(double v) {
            if (predicate.test(v)) {
                found = true;
                exit.stopAll();
            }
        }
    }

    /** Keeps the first element that reaches it. */
    public static final class Find implements DoubleConsumer {
        private final EarlyExit exit;
        private final boolean first;
        private final long key;
        private boolean found;
        private double value;

        Find(EarlyExit exit, boolean first, long key) {
            this.exit = exit;
            this.first = first;
            this.key = key;
        }

        /** @return the element found, if any */
        public OptionalDouble value() {
            return found ? OptionalDouble.of(value) : OptionalDouble.empty();
        }

        @Override
        public void accept(double v) {
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
