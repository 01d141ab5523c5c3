package io.spindle;

import io.spindle.internal.par.Counter;
import io.spindle.internal.par.IntFolds;
import io.spindle.internal.par.Pipeline;

import java.util.Objects;
import java.util.OptionalInt;
import java.util.function.Consumer;
import java.util.function.DoubleConsumer;
import java.util.function.IntBinaryOperator;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import java.util.function.IntToDoubleFunction;
import java.util.function.IntToLongFunction;
import java.util.function.IntUnaryOperator;
import java.util.function.LongConsumer;

/**
 * A parallel operation over {@code int} elements, the counterpart of {@link java.util.stream.IntStream}: built by
 * {@link Parallel#range(int, int)}, {@link Parallel#of(int[])} or a {@code mapToInt}, lazy until a terminal operation,
 * elements never boxed. See {@link Parallel} for how operations run, split, stop early and fail.
 *
 * <pre>{@code
 * long sumOfSquares = Parallel.range(0, 1_000_000).on(pool).mapToLong(i -> (long) i * i).sum();
 * int[] evens = Parallel.of(values).filter(v -> v % 2 == 0).toArray();      // in index order
 * OptionalInt firstBig = Parallel.of(values).filter(v -> v > limit).findFirst();
 * }</pre>
 *
 * Instances are immutable and safe to share between threads.
 */
public final class ParallelInts {
    private final Pipeline<?, IntConsumer> pipe;

    ParallelInts(Pipeline<?, IntConsumer> pipe) {
        this.pipe = pipe;
    }

    // --- configuration ----------------------------------------------------------------------------------------------

    /**
     * Returns this operation set to run its terminal operations on {@code pool} rather than on the current pool.
     *
     * @param pool the pool that runs this operation's terminal operations
     * @return this operation on {@code pool} (by default it runs on the current pool: see {@link Parallel})
     * @throws NullPointerException if {@code pool} is null
     */
    public ParallelInts on(ThreadPool pool) {
        return new ParallelInts(pipe.on(pool));
    }

    /**
     * Returns this operation with a floor on splitting: a piece splits only if both halves get at least {@code n}
     * source elements, so no leaf loop is shorter unless the whole input is.
     *
     * @param n the shortest piece, in source elements, that splitting may produce (default 1)
     * @return this operation with that minimum
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public ParallelInts minPieceLength(int n) {
        return new ParallelInts(pipe.minPieceLength(n));
    }

    // --- intermediate operations ------------------------------------------------------------------------------------

    /**
     * Returns an operation that applies {@code mapper} to each element; like every intermediate operation, it runs
     * nothing until a terminal operation does.
     *
     * @param mapper applied to each element
     * @return the mapped elements
     * @throws NullPointerException if {@code mapper} is null
     */
    public ParallelInts map(IntUnaryOperator mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return new ParallelInts(pipe.thenMapping((IntConsumer d) -> v -> d.accept(mapper.applyAsInt(v))));
    }

    /**
     * Returns an operation that keeps only the elements that satisfy {@code predicate}, in their encounter order.
     *
     * @param predicate which elements to keep
     * @return the elements that satisfy {@code predicate}
     * @throws NullPointerException if {@code predicate} is null
     */
    public ParallelInts filter(IntPredicate predicate) {
        Objects.requireNonNull(predicate, "predicate");
        return new ParallelInts(pipe.thenFiltering((IntConsumer d) -> v -> {
            if (predicate.test(v)) {
                d.accept(v);
            }
        }));
    }

    /**
     * Returns an operation that maps each element to a {@code long} with {@code mapper}, without boxing.
     *
     * @param mapper applied to each element
     * @return the mapped elements
     * @throws NullPointerException if {@code mapper} is null
     */
    public ParallelLongs mapToLong(IntToLongFunction mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return new ParallelLongs(pipe.thenMapping((LongConsumer d) -> v -> d.accept(mapper.applyAsLong(v))));
    }

    /**
     * Returns an operation that maps each element to a {@code double} with {@code mapper}, without boxing.
     *
     * @param mapper applied to each element
     * @return the mapped elements
     * @throws NullPointerException if {@code mapper} is null
     */
    public ParallelDoubles mapToDouble(IntToDoubleFunction mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return new ParallelDoubles(pipe.thenMapping((DoubleConsumer d) -> v -> d.accept(mapper.applyAsDouble(v))));
    }

    /**
     * Returns an operation that maps each element to an object with {@code mapper}.
     *
     * @param mapper applied to each element
     * @param <U>    the element type of the result
     * @return the mapped elements
     * @throws NullPointerException if {@code mapper} is null
     */
    public <U> ParallelItems<U> mapToObj(IntFunction<? extends U> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return new ParallelItems<>(pipe.thenMapping((Consumer<U> d) -> v -> d.accept(mapper.apply(v))));
    }

    /**
     * Returns an operation over the same elements, each boxed into an {@link Integer}.
     *
     * @return the elements, boxed
     */
    public ParallelItems<Integer> boxed() {
        return mapToObj(Integer::valueOf);
    }

    // --- terminal operations ----------------------------------------------------------------------------------------

    /**
     * Runs {@code action} on every element, concurrently and in no particular order.
     *
     * @param action the action
     * @throws NullPointerException if {@code action} is null
     */
    public void forEach(IntConsumer action) {
        Objects.requireNonNull(action, "action");
        pipe.run(IntFolds.forEach(action));
    }

    /**
     * Folds the elements with {@code op}: each piece starts from {@code identity}, and the pieces' results are combined
     * in encounter order.
     *
     * @param identity the identity of {@code op}
     * @param op       an associative operator
     * @return {@code identity} combined with every element in encounter order; {@code identity} if there are none
     * @throws NullPointerException if {@code op} is null
     */
    public int reduce(int identity, IntBinaryOperator op) {
        Objects.requireNonNull(op, "op");
        return pipe.run(IntFolds.reduce(identity, op)).value().getAsInt();
    }

    /**
     * Folds the elements with {@code op}, without an identity: each piece starts from its first element, and the
     * pieces' results are combined in encounter order.
     *
     * @param op an associative operator
     * @return the elements combined in encounter order, or empty if there are none
     * @throws NullPointerException if {@code op} is null
     */
    public OptionalInt reduce(IntBinaryOperator op) {
        Objects.requireNonNull(op, "op");
        return pipe.run(IntFolds.reduce(op)).value();
    }

    /**
     * The sum of the elements as a {@code long}. Unlike {@link java.util.stream.IntStream#sum()}, which returns an
     * {@code int} that silently wraps around, this cannot overflow for fewer than 2<sup>32</sup> elements: the sum of
     * a million large ints is common, and a {@code long} accumulator costs nothing more.
     *
     * @return the sum, 0 if there are no elements
     */
    public long sum() {
        return pipe.run(IntFolds.sum()).value();
    }

    /**
     * Returns the smallest element.
     *
     * @return the smallest element, or empty if there are none
     */
    public OptionalInt min() {
        return reduce(Math::min);
    }

    /**
     * Returns the largest element.
     *
     * @return the largest element, or empty if there are none
     */
    public OptionalInt max() {
        return reduce(Math::max);
    }

    /**
     * The number of elements. When it is known without running the operation (no {@code filter}, and a range, an
     * array or a random-access list as the source), it is returned at once and the mapping functions are not called,
     * as {@link java.util.stream.IntStream#count()} also may do.
     *
     * @return the number of elements
     */
    public long count() {
        long n = pipe.exactSize();
        return n >= 0 ? n : pipe.run(Counter.ints()).count();
    }

    /**
     * Collects the elements, in encounter order, into a new {@code int[]}.
     *
     * @return the elements in encounter order
     * @throws IllegalStateException if there are more than fit in one array
     */
    public int[] toArray() {
        int n = pipe.exactArrayLength();
        if (n < 0) {
            return pipe.run(IntFolds.buffer()).toArray();
        }
        int[] out = new int[n];
        pipe.run(IntFolds.writeInto(out));
        return out;
    }

    /**
     * Tells whether some element satisfies {@code predicate}, stopping every piece as soon as one is found.
     *
     * @param predicate the predicate
     * @return whether some element satisfies {@code predicate}; false if there are none
     * @throws NullPointerException if {@code predicate} is null
     */
    public boolean anyMatch(IntPredicate predicate) {
        Objects.requireNonNull(predicate, "predicate");
        IntFolds.AnyMatch found = pipe.run(IntFolds.anyMatch(predicate));
        return found != null && found.found();
    }

    /**
     * Tells whether every element satisfies {@code predicate}, stopping every piece at the first element that does not.
     *
     * @param predicate the predicate
     * @return whether every element satisfies {@code predicate}; true if there are none
     * @throws NullPointerException if {@code predicate} is null
     */
    public boolean allMatch(IntPredicate predicate) {
        Objects.requireNonNull(predicate, "predicate");
        return !anyMatch(predicate.negate());
    }

    /**
     * Tells whether no element satisfies {@code predicate}, stopping every piece at the first element that does.
     *
     * @param predicate the predicate
     * @return whether no element satisfies {@code predicate}; true if there are none
     * @throws NullPointerException if {@code predicate} is null
     */
    public boolean noneMatch(IntPredicate predicate) {
        return !anyMatch(predicate);
    }

    /**
     * Returns some element, not necessarily the first, stopping every piece as soon as one is found.
     *
     * @return some element, or empty if there are none
     */
    public OptionalInt findAny() {
        IntFolds.Find found = pipe.run(IntFolds.find(false));
        return found == null ? OptionalInt.empty() : found.value();
    }

    /**
     * Returns the first element in encounter order: once a piece has found one, the pieces after it are skipped, while
     * those before it still run.
     *
     * @return the first element in encounter order, or empty if there are none
     */
    public OptionalInt findFirst() {
        IntFolds.Find found = pipe.run(IntFolds.find(true));
        return found == null ? OptionalInt.empty() : found.value();
    }
}
