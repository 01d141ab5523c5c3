package io.spindle.internal.par;

import java.util.Arrays;
import java.util.function.BiConsumer;
import java.util.function.BinaryOperator;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The terminal operations of {@code ParallelItems}: one accumulator class per operation, each a {@link Consumer},
 * and a factory for its {@link Terminal}. See {@link IntFolds}.
 */
public final class ItemFolds {
    private ItemFolds() {}

    /**
     * @param action the action, shared by every leaf
     * @param <T>    the element type
     * @return the terminal of {@code forEach}
     */
    public static <T> Terminal<Consumer<T>, Consumer<T>> forEach(Consumer<T> action) {
        return Terminal.of(key -> action, (l, r) -> l);
    }

    /**
     * @param identity the identity of {@code op}
     * @param op       an associative operator
     * @param <T>      the element type
     * @return the terminal of {@code reduce(identity, op)}
     */
    public static <T> Terminal<Consumer<T>, Reduce<T>> reduce(T identity, BinaryOperator<T> op) {
        return Terminal.of(key -> new Reduce<>(op, true, identity), Reduce::merge);
    }

    /**
     * @param op  an associative operator
     * @param <T> the element type
     * @return the terminal of {@code reduce(op)}
     */
    public static <T> Terminal<Consumer<T>, Reduce<T>> reduce(BinaryOperator<T> op) {
        return Terminal.of(key -> new Reduce<>(op, false, null), Reduce::merge);
    }

    /**
     * @param supplier    makes an empty container per leaf
     * @param accumulator adds an element to a container
     * @param combiner    adds the second container's contents to the first
     * @param <T>         the element type
     * @param <R>         the container type
     * @return the terminal of {@code collect}
     */
    public static <T, R> Terminal<Consumer<T>, Collect<T, R>> collect(Supplier<R> supplier,
            BiConsumer<R, ? super T> accumulator, BiConsumer<R, R> combiner) {
        return Terminal.of(key -> new Collect<>(supplier.get(), accumulator), (l, r) -> {
            combiner.accept(l.container, r.container);
            return l;
        });
    }

    /**
     * @param out the result array, exactly as long as the pipeline's output
     * @param <T> the element type
     * @return the terminal of {@code toArray}/{@code toList} for a pipeline of exact size: leaf {@code k} writes from
     *         index {@code k}
     */
    public static <T> Terminal<Consumer<T>, Writer<T>> writeInto(Object[] out) {
        return Terminal.of(key -> new Writer<>(out, (int) key), (l, r) -> l);
    }

    /**
     * @param <T> the element type
     * @return the terminal of {@code toArray}/{@code toList} for a pipeline of unknown size
     */
    public static <T> Terminal<Consumer<T>, Buffer<T>> buffer() {
        return Terminal.of(key -> new Buffer<>(), Buffer::append);
    }

    /**
     * @param predicate the predicate
     * @param <T>       the element type
     * @return the terminal of {@code anyMatch}: stops every piece at the first element found
     */
    public static <T> Terminal<Consumer<T>, AnyMatch<T>> anyMatch(Predicate<? super T> predicate) {
        EarlyExit exit = new EarlyExit();
        return Terminal.stoppable(key -> new AnyMatch<>(predicate, exit), (l, r) -> l.found ? l : r, exit);
    }

    /**
     * @param first whether the operation wants the first element in encounter order ({@code findFirst}) rather than
     *              any ({@code findAny})
     * @param <T>   the element type
     * @return the terminal of {@code findFirst} or {@code findAny}
     */
    public static <T> Terminal<Consumer<T>, Find<T>> find(boolean first) {
        EarlyExit exit = new EarlyExit();
        return Terminal.stoppable(key -> new Find<>(exit, first, key), (l, r) -> l.found ? l : r, exit);
    }

    /**
     * Folds with an operator, from its identity or from the first element.
     *
     * @param <T> the element type
     */
    public static final class Reduce<T> implements Consumer<T> {
        private final BinaryOperator<T> op;
        private boolean seen;
        private T value;

        Reduce(BinaryOperator<T> op, boolean seen, T value) {
            this.op = op;
            this.seen = seen;
            this.value = value;
        }

        /** @return whether there is a result (always, for {@code reduce(identity, op)}) */
        public boolean present() {
            return seen;
        }

        /** @return the result, which may be null; meaningful only if {@link #present()} */
        public T value() {
            return value;
        }

        @Override
        public void accept(T v) {
            if (seen) {
                value = op.apply(value, v);
            } else {
                value = v;
                seen = true;
            }
        }

        Reduce<T> merge(Reduce<T> right) {
            if (right.seen) {
                accept(right.value);
            }
            return this;
        }
    }

    /**
     * Accumulates into a container of the leaf's own.
     *
     * @param <T> the element type
     * @param <R> the container type
     */
    public static final class Collect<T, R> implements Consumer<T> {
        private final R container;
        private final BiConsumer<R, ? super T> accumulator;

        Collect(R container, BiConsumer<R, ? super T> accumulator) {
            this.container = container;
            this.accumulator = accumulator;
        }

        /** @return the container, holding every element combined into it */
        public R container() {
            return container;
        }

        @Override
        public void accept(T v) {
            accumulator.accept(container, v);
        }
    }

    /**
     * Writes a leaf's elements into its slice of the result.
     *
     * @param <T> the element type
     */
    public static final class Writer<T> implements Consumer<T> {
        private final Object[] out;
        private int at;

        Writer(Object[] out, int from) {
            this.out = out;
            this.at = from;
        }

        @Override
        public void accept(T v) {
            out[at++] = v;
        }
    }

    /**
     * Collects a leaf's elements when the result size is unknown.
     *
     * @param <T> the element type
     */
    public static final class Buffer<T> extends Chunk<Buffer<T>> implements Consumer<T> {
        private static final Object[] EMPTY = {};

        private Object[] data = EMPTY;

        @Override
        public void accept(T v) {
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
         * @return the number of elements in this chain of buffers
         * @throws IllegalStateException if they do not fit in one array
         */
        public int totalSize() {
            return chainSize();
        }

        /**
         * Copies the elements of this chain of buffers, in order, into {@code out} from index 0.
         *
         * @param out an array at least {@link #totalSize()} long, whose component type accepts every element
         * @throws ArrayStoreException if it does not
         */
        public void copyInto(Object[] out) {
            copyChainInto(out);
        }
    }

    /**
     * Looks for an element that matches.
     *
     * @param <T> the element type
     */
    public static final class AnyMatch<T> implements Consumer<T> {
        private final Predicate<? super T> predicate;
        private final EarlyExit exit;
        private boolean found;

        AnyMatch(Predicate<? super T> predicate, EarlyExit exit) {
            this.predicate = predicate;
            this.exit = exit;
        }

        /** @return whether this piece found a match */
        public boolean found() {
            return found;
        }

        @Override
        public void accept(T v) {
            if (predicate.test(v)) {
                found = true;
                exit.stopAll();
            }
        }
    }

    /**
     * Keeps the first element that reaches it.
     *
     * @param <T> the element type
     */
    public static final class Find<T> implements Consumer<T> {
        private final EarlyExit exit;
        private final boolean first;
        private final long key;
        private boolean found;
        private T value;

        Find(EarlyExit exit, boolean first, long key) {
            this.exit = exit;
            this.first = first;
            this.key = key;
        }

        /** @return whether an element was found */
        public boolean found() {
            return found;
        }

        /** @return the element found, which may be null; meaningful only if {@link #found()} */
        public T value() {
            return value;
        }

        @Override
        public void accept(T v) {
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
