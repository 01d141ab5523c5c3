package io.spindle;

import io.spindle.internal.par.Counter;
import io.spindle.internal.par.LongFolds;
import io.spindle.internal.par.Pipeline;

import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.DoubleConsumer;
import java.util.function.IntConsumer;
import java.util.function.LongBinaryOperator;
import java.util.function.LongConsumer;
import java.util.function.LongFunction;
import java.util.function.LongPredicate;
import java.util.function.LongToDoubleFunction;
import java.util.function.LongToIntFunction;
import java.util.function.LongUnaryOperator;

/**
 * A parallel operation over {@code long} elements, the counterpart of {@link java.util.stream.LongStream}: built by
 * {@link Parallel#range(long, long)}, {@link Parallel#of(long[])} or a {@code mapToLong}, lazy until a terminal
 * operation, elements never boxed. See {@link Parallel} for how operations run, split, stop early and fail.
 *
 * <pre>{@code
 * long primes = Parallel.range(2L, 10_000_000L).on(pool).minPieceLength(1_000).filter(Primes::isPrime).count();
 * long[] squares = Parallel.of(values).map(v -> v * v).toArray();           // in index order
 * }</pre>
 *
 * Instances are immutable and safe to share between threads.
 */
public final class ParallelLongs {
    private final Pipeline<?, LongConsumer> pipe;

    ParallelLongs(Pipeline<?, LongConsumer> pipe) {
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
    public ParallelLongs on(ThreadPool pool) {
        return new ParallelLongs(pipe.on(pool));
    }

    /**
     * Returns this operation with a floor on splitting: a piece splits only if both halves get at least {@code n}
     * source elements, so no leaf loop is shorter unless the whole input is.
     *
     * @param n the shortest piece, in source elements, that splitting may produce (default 1)
     * @return this operation with that minimum
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public ParallelLongs minPieceLength(int n) {
        return new ParallelLongs(pipe.minPieceLength(n));
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
    public ParallelLongs map(LongUnaryOperator mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return new ParallelLongs(pipe.thenMapping((LongConsumer d) -> v -> d.accept(mapper.applyAsLong(v))));
    }

    /**
     * Returns an operation that keeps only the elements that satisfy {@code predicate}, in their encounter order.
     *
     * @param predicate which elements to keep
     * @return the elements that satisfy {@code predicate}
     * @throws NullPointerException if {@code predicate} is null
     */
    public ParallelLongs filter(LongPredicate predicate) {
        Objects.requireNonNull(predicate, "predicate");
        return new ParallelLongs(pipe.thenFiltering((LongConsumer d) -> v -> {
            if (predicate.test(v)) {
                d.accept(v);
            }
        }));
    }

    /**
     * Returns an operation that maps each element to an {@code int} with {@code mapper}, without boxing.
     *
     * @param mapper applied to each element
     * @return the mapped elements
     * @throws NullPointerException if {@code mapper} is null
     */
    public ParallelInts mapToInt(LongToIntFunction mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return new ParallelInts(pipe.thenMapping((IntConsumer d) -> v -> d.accept(mapper.applyAsInt(v))));
    }

    /**
     * Returns an operation that maps each element to a {@code double} with {@code mapper}, without boxing.
     *
     * @param mapper applied to each element
     * @return the mapped elements
     * @throws NullPointerException if {@code mapper} is null
     */
    public ParallelDoubles mapToDouble(LongToDoubleFunction mapper) {
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
    public <U> ParallelItems<U> mapToObj(LongFunction<? extends U> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return new ParallelItems<>(pipe.thenMapping((Consumer<U> d) -> v -> d.accept(mapper.apply(v))));
    }

    /**
     * Returns an operation over the same elements, each boxed into a {@link Long}.
     *
     * @return the elements, boxed
     */
    public ParallelItems<Long> boxed() {
        return mapToObj(Long::valueOf);
    }

    // --- terminal operations ----------------------------------------------------------------------------------------

    /**
     * Runs {@code action} on every element, concurrently and in no particular order.
     *
     * @param action the action
     * @throws NullPointerException if {@code action} is null
     */
    public void forEach(LongConsumer action) {
        Objects.requireNonNull(action, "action");
        pipe.run(LongFolds.forEach(action));
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
    public long reduce(long identity, LongBinaryOperator op) {
        Objects.requireNonNull(op, "op");
        return pipe.run(LongFolds.reduce(identity, op)).value().getAsLong();
    }

    /**
     * Folds the elements with {@code op}, without an identity: each piece starts from its first element, and the
     * pieces' results are combined in encounter order.
     *
     * @param op an associative operator
     * @return the elements combined in encounter order, or empty if there are none
     * @throws NullPointerException if {@code op} is null
     */
    public OptionalLong reduce(LongBinaryOperator op) {
        Objects.requireNonNull(op, "op");
        return pipe.run(LongFolds.reduce(op)).value();
    }

    /**
     * The sum of the elements; like {@link java.util.stream.LongStream#sum()}, it wraps around on overflow.
     *
     * @return the sum, 0 if there are no elements
     */
    public long sum() {
        return pipe.run(LongFolds.sum()).value();
    }

    /**
     * Returns the smallest element.
     *
     * @return the smallest element, or empty if there are none
     */
    public OptionalLong min() {
        return reduce(Math::min);
    }

    /**
     * Returns the largest element.
     *
     * @return the largest element, or empty if there are none
     */
    public OptionalLong max() {
        return reduce(Math::max);
    }

    /**
     * The number of elements. When it is known without running the operation (no {@code filter}, and a range, an
     * array or a random-access list as the source), it is returned at once and the mapping functions are not called,
     * as {@link java.util.stream.LongStream#count()} also may do.
     *
     * @return the number of elements
     */
    public long count() {
        long n = pipe.exactSize();
        return n >= 0 ? n : pipe.run(Counter.longs()).count();
    }

    /**
     * Collects the elements, in encounter order, into a new {@code long[]}.
     *
     * @return the elements in encounter order
     * @throws IllegalStateException if there are more than fit in one array
     */
    public long[] toArray() {
        int n = pipe.exactArrayLength();
        if (n < 0) {
            return pipe.run(LongFolds.buffer()).toArray();
        }
        long[] out = new long[n];
        pipe.run(LongFolds.writeInto(out));
        return out;
    }

    /**
     * Tells whether some element satisfies {@code predicate}, stopping every piece as soon as one is found.
     *
     * @param predicate the predicate
     * @return whether some element satisfies {@code predicate}; false if there are none
     * @throws NullPointerException if {@code predicate} is null
     */
    public boolean anyMatch(LongPredicate predicate) {
        Objects.requireNonNull(predicate, "predicate");
        LongFolds.AnyMatch found = pipe.run(LongFolds.anyMatch(predicate));
        return found != null && found.found();
    }

    /**
     * Tells whether every element satisfies {@code predicate}, stopping every piece at the first element that does not.
     *
     * @param predicate the predicate
     * @return whether every element satisfies {@code predicate}; true if there are none
     * @throws NullPointerException if {@code predicate} is null
     */
    public boolean allMatch(LongPredicate predicate) {
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
    public boolean noneMatch(LongPredicate predicate) {
        return !anyMatch(predicate);
    }

    /**
     * Returns some element, not necessarily the first, stopping every piece as soon as one is found.
     *
     * @return some element, or empty if there are none
     */
    public OptionalLong findAny() {
        LongFolds.Find found = pipe.run(LongFolds.find(false));
        return found == null ? OptionalLong.empty() : found.value();
    }

    /**
     * Returns the first element in encounter order: once a piece has found one, the pieces after it are skipped, while
     * those before it still run.
     *
     * @return the first element in encounter order, or empty if there are none
     */
    public OptionalLong findFirst() {
        LongFolds.Find found = pipe.run(LongFolds.find(true));
        return found == null ? OptionalLong.empty() : found.value();
    }
}
