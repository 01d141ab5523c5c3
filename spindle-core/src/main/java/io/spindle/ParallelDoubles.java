package io.spindle;

import io.spindle.internal.par.Counter;
import io.spindle.internal.par.DoubleFolds;
import io.spindle.internal.par.Pipeline;

import java.util.Objects;
import java.util.OptionalDouble;
import java.util.function.Consumer;
import java.util.function.DoubleConsumer;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleFunction;
import java.util.function.DoublePredicate;
import java.util.function.DoubleToIntFunction;
import java.util.function.DoubleToLongFunction;
import java.util.function.DoubleUnaryOperator;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;

/**
 * A parallel operation over {@code double} elements, the counterpart of {@link java.util.stream.DoubleStream}: built
 * by {@link Parallel#of(double[])} or a {@code mapToDouble}, lazy until a terminal operation, elements never boxed.
 * See {@link Parallel} for how operations run, split, stop early and fail.
 *
 * <pre>{@code
 * double norm = Math.sqrt(Parallel.of(xs).on(pool).map(x -> x * x).sum());
 * double area = Parallel.range(0, n).mapToDouble(i -> f((i + 0.5) * h) * h).sum();   // midpoint rule
 * }</pre>
 *
 * Instances are immutable and safe to share between threads.
 */
public final class ParallelDoubles {
    private final Pipeline<?, DoubleConsumer> pipe;

    ParallelDoubles(Pipeline<?, DoubleConsumer> pipe) {
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
    public ParallelDoubles on(ThreadPool pool) {
        return new ParallelDoubles(pipe.on(pool));
    }

    /**
     * Returns this operation with a floor on splitting: a piece splits only if both halves get at least {@code n}
     * source elements, so no leaf loop is shorter unless the whole input is.
     *
     * @param n the shortest piece, in source elements, that splitting may produce (default 1)
     * @return this operation with that minimum
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public ParallelDoubles minPieceLength(int n) {
        return new ParallelDoubles(pipe.minPieceLength(n));
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
    public ParallelDoubles map(DoubleUnaryOperator mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return new ParallelDoubles(pipe.thenMapping((DoubleConsumer d) -> v -> d.accept(mapper.applyAsDouble(v))));
    }

    /**
     * Returns an operation that keeps only the elements that satisfy {@code predicate}, in their encounter order.
     *
     * @param predicate which elements to keep
     * @return the elements that satisfy {@code predicate}
     * @throws NullPointerException if {@code predicate} is null
     */
    public ParallelDoubles filter(DoublePredicate predicate) {
        Objects.requireNonNull(predicate, "predicate");
        return new ParallelDoubles(pipe.thenFiltering((DoubleConsumer d) -> v -> {
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
    public ParallelInts mapToInt(DoubleToIntFunction mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return new ParallelInts(pipe.thenMapping((IntConsumer d) -> v -> d.accept(mapper.applyAsInt(v))));
    }

    /**
     * Returns an operation that maps each element to a {@code long} with {@code mapper}, without boxing.
     *
     * @param mapper applied to each element
     * @return the mapped elements
     * @throws NullPointerException if {@code mapper} is null
     */
    public ParallelLongs mapToLong(DoubleToLongFunction mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return new ParallelLongs(pipe.thenMapping((LongConsumer d) -> v -> d.accept(mapper.applyAsLong(v))));
    }

    /**
     * Returns an operation that maps each element to an object with {@code mapper}.
     *
     * @param mapper applied to each element
     * @param <U>    the element type of the result
     * @return the mapped elements
     * @throws NullPointerException if {@code mapper} is null
     */
    public <U> ParallelItems<U> mapToObj(DoubleFunction<? extends U> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return new ParallelItems<>(pipe.thenMapping((Consumer<U> d) -> v -> d.accept(mapper.apply(v))));
    }

    /**
     * Returns an operation over the same elements, each boxed into a {@link Double}.
     *
     * @return the elements, boxed
     */
    public ParallelItems<Double> boxed() {
        return mapToObj(Double::valueOf);
    }

    // --- terminal operations ----------------------------------------------------------------------------------------

    /**
     * Runs {@code action} on every element, concurrently and in no particular order.
     *
     * @param action the action
     * @throws NullPointerException if {@code action} is null
     */
    public void forEach(DoubleConsumer action) {
        Objects.requireNonNull(action, "action");
        pipe.run(DoubleFolds.forEach(action));
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
    public double reduce(double identity, DoubleBinaryOperator op) {
        Objects.requireNonNull(op, "op");
        return pipe.run(DoubleFolds.reduce(identity, op)).value().getAsDouble();
    }

    /**
     * Folds the elements with {@code op}, without an identity: each piece starts from its first element, and the
     * pieces' results are combined in encounter order.
     *
     * @param op an associative operator
     * @return the elements combined in encounter order, or empty if there are none
     * @throws NullPointerException if {@code op} is null
     */
    public OptionalDouble reduce(DoubleBinaryOperator op) {
        Objects.requireNonNull(op, "op");
        return pipe.run(DoubleFolds.reduce(op)).value();
    }

    /**
     * The sum of the elements, computed with compensated (Kahan-Neumaier) summation in each piece and when pieces are
     * combined, so the rounding error does not grow with the number of elements. The exact result may still differ
     * in the last bits from {@link java.util.stream.DoubleStream#sum()}'s, and between pools of different sizes,
     * because floating-point addition is not associative and the pieces differ. If any element is NaN, or the
     * elements include infinities of both signs, the result is NaN.
     *
     * @return the sum, 0 if there are no elements
     */
    public double sum() {
        return pipe.run(DoubleFolds.sum()).value();
    }

    /**
     * Returns the smallest element, compared as {@link java.util.stream.DoubleStream#min()} compares them (by
     * {@link Math#min(double, double)}, not {@link Double#compare}).
     *
     * @return the smallest element as {@link Math#min(double, double)} orders them (NaN if any element is NaN,
     *         {@code -0.0} below {@code 0.0}), or empty if there are none
     */
    public OptionalDouble min() {
        return reduce(Math::min);
    }

    /**
     * Returns the largest element, compared as {@link java.util.stream.DoubleStream#max()} compares them (by
     * {@link Math#max(double, double)}, not {@link Double#compare}).
     *
     * @return the largest element as {@link Math#max(double, double)} orders them (NaN if any element is NaN,
     *         {@code 0.0} above {@code -0.0}), or empty if there are none
     */
    public OptionalDouble max() {
        return reduce(Math::max);
    }

    /**
     * The number of elements. When it is known without running the operation (no {@code filter}, and an array, a range
     * or a random-access list as the source), it is returned at once and the mapping functions are not called,
     * as {@link java.util.stream.DoubleStream#count()} also may do.
     *
     * @return the number of elements
     */
    public long count() {
        long n = pipe.exactSize();
        return n >= 0 ? n : pipe.run(Counter.doubles()).count();
    }

    /**
     * Collects the elements, in encounter order, into a new {@code double[]}.
     *
     * @return the elements in encounter order
     * @throws IllegalStateException if there are more than fit in one array
     */
    public double[] toArray() {
        int n = pipe.exactArrayLength();
        if (n < 0) {
            return pipe.run(DoubleFolds.buffer()).toArray();
        }
        double[] out = new double[n];
        pipe.run(DoubleFolds.writeInto(out));
        return out;
    }

    /**
     * Tells whether some element satisfies {@code predicate}, stopping every piece as soon as one is found.
     *
     * @param predicate the predicate
     * @return whether some element satisfies {@code predicate}; false if there are none
     * @throws NullPointerException if {@code predicate} is null
     */
    public boolean anyMatch(DoublePredicate predicate) {
        Objects.requireNonNull(predicate, "predicate");
        DoubleFolds.AnyMatch found = pipe.run(DoubleFolds.anyMatch(predicate));
        return found != null && found.found();
    }

    /**
     * Tells whether every element satisfies {@code predicate}, stopping every piece at the first element that does not.
     *
     * @param predicate the predicate
     * @return whether every element satisfies {@code predicate}; true if there are none
     * @throws NullPointerException if {@code predicate} is null
     */
    public boolean allMatch(DoublePredicate predicate) {
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
    public boolean noneMatch(DoublePredicate predicate) {
        return !anyMatch(predicate);
    }

    /**
     * Returns some element, not necessarily the first, stopping every piece as soon as one is found.
     *
     * @return some element, or empty if there are none
     */
    public OptionalDouble findAny() {
        DoubleFolds.Find found = pipe.run(DoubleFolds.find(false));
        return found == null ? OptionalDouble.empty() : found.value();
    }

    /**
     * Returns the first element in encounter order: once a piece has found one, the pieces after it are skipped, while
     * those before it still run.
     *
     * @return the first element in encounter order, or empty if there are none
     */
    public OptionalDouble findFirst() {
        DoubleFolds.Find found = pipe.run(DoubleFolds.find(true));
        return found == null ? OptionalDouble.empty() : found.value();
    }
}
