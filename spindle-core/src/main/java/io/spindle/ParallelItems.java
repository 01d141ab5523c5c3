package io.spindle;

import io.spindle.internal.par.Counter;
import io.spindle.internal.par.ItemFolds;
import io.spindle.internal.par.Pipeline;

import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.BinaryOperator;
import java.util.function.Consumer;
import java.util.function.DoubleConsumer;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import java.util.function.LongConsumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * A parallel operation over object elements, the counterpart of {@link java.util.stream.Stream}: built by
 * {@link Parallel#of(Object[])}, {@link Parallel#of(java.util.Collection)}, {@link Parallel#of(java.util.Spliterator)}
 * or a {@code mapToObj}, lazy until a terminal operation. Elements may be null, except where a result is an
 * {@link Optional}. See {@link Parallel} for how operations run, split, stop early and fail.
 *
 * <pre>{@code
 * List<Report> reports = Parallel.of(files).on(pool).map(Report::parse).toList();       // in the order of files
 * Map<String, Long> byHost = Parallel.of(requests).collect(HashMap::new,
 *         (m, r) -> m.merge(r.host(), 1L, Long::sum), (m, n) -> n.forEach((k, v) -> m.merge(k, v, Long::sum)));
 * Optional<User> admin = Parallel.of(users).filter(User::isAdmin).findFirst();
 * }</pre>
 *
 * Instances are immutable and safe to share between threads.
 *
 * @param <T> the element type
 */
public final class ParallelItems<T> {
    private final Pipeline<?, Consumer<T>> pipe;

    ParallelItems(Pipeline<?, Consumer<T>> pipe) {
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
    public ParallelItems<T> on(ThreadPool pool) {
        return new ParallelItems<>(pipe.on(pool));
    }

    /**
     * Returns this operation with a floor on splitting: a piece splits only if both halves get at least {@code n}
     * source elements, so no leaf loop is shorter unless the whole input is.
     *
     * @param n the shortest piece, in source elements, that splitting may produce (default 1); for a spliterator
     *          source this relies on its size estimates
     * @return this operation with that minimum
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public ParallelItems<T> minPieceLength(int n) {
        return new ParallelItems<>(pipe.minPieceLength(n));
    }

    // --- intermediate operations ------------------------------------------------------------------------------------

    /**
     * Returns an operation that applies {@code mapper} to each element; like every intermediate operation, it runs
     * nothing until a terminal operation does.
     *
     * @param mapper applied to each element
     * @param <R>    the element type of the result
     * @return the mapped elements
     * @throws NullPointerException if {@code mapper} is null
     */
    public <R> ParallelItems<R> map(Function<? super T, ? extends R> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return new ParallelItems<>(pipe.thenMapping((Consumer<R> d) -> v -> d.accept(mapper.apply(v))));
    }

    /**
     * Returns an operation that keeps only the elements that satisfy {@code predicate}, in their encounter order.
     *
     * @param predicate which elements to keep
     * @return the elements that satisfy {@code predicate}
     * @throws NullPointerException if {@code predicate} is null
     */
    public ParallelItems<T> filter(Predicate<? super T> predicate) {
        Objects.requireNonNull(predicate, "predicate");
        return new ParallelItems<>(pipe.thenFiltering((Consumer<T> d) -> v -> {
            if (predicate.test(v)) {
                d.accept(v);
            }
        }));
    }

    /**
     * Returns an operation that maps each element to an {@code int} with {@code mapper}.
     *
     * @param mapper applied to each element
     * @return the mapped elements
     * @throws NullPointerException if {@code mapper} is null
     */
    public ParallelInts mapToInt(ToIntFunction<? super T> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return new ParallelInts(pipe.thenMapping((IntConsumer d) -> v -> d.accept(mapper.applyAsInt(v))));
    }

    /**
     * Returns an operation that maps each element to a {@code long} with {@code mapper}.
     *
     * @param mapper applied to each element
     * @return the mapped elements
     * @throws NullPointerException if {@code mapper} is null
     */
    public ParallelLongs mapToLong(ToLongFunction<? super T> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return new ParallelLongs(pipe.thenMapping((LongConsumer d) -> v -> d.accept(mapper.applyAsLong(v))));
    }

    /**
     * Returns an operation that maps each element to a {@code double} with {@code mapper}.
     *
     * @param mapper applied to each element
     * @return the mapped elements
     * @throws NullPointerException if {@code mapper} is null
     */
    public ParallelDoubles mapToDouble(ToDoubleFunction<? super T> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return new ParallelDoubles(pipe.thenMapping((DoubleConsumer d) -> v -> d.accept(mapper.applyAsDouble(v))));
    }

    // --- terminal operations ----------------------------------------------------------------------------------------

    /**
     * Runs {@code action} on every element, concurrently and in no particular order.
     *
     * @param action the action
     * @throws NullPointerException if {@code action} is null
     */
    public void forEach(Consumer<? super T> action) {
        Objects.requireNonNull(action, "action");
        pipe.run(ItemFolds.forEach(action::accept));
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
    public T reduce(T identity, BinaryOperator<T> op) {
        Objects.requireNonNull(op, "op");
        return pipe.run(ItemFolds.reduce(identity, op)).value();
    }

    /**
     * Folds the elements with {@code op}, without an identity: each piece starts from its first element, and the
     * pieces' results are combined in encounter order.
     *
     * @param op an associative operator
     * @return the elements combined in encounter order, or empty if there are none
     * @throws NullPointerException if {@code op} is null, or if the result is null
     */
    public Optional<T> reduce(BinaryOperator<T> op) {
        Objects.requireNonNull(op, "op");
        ItemFolds.Reduce<T> r = pipe.run(ItemFolds.reduce(op));
        return r.present() ? Optional.of(r.value()) : Optional.empty();
    }

    /**
     * A mutable reduction: each piece accumulates into a container of its own from {@code supplier}, and the
     * containers of neighbouring pieces are merged in encounter order, the later one into the earlier one.
     *
     * <pre>{@code
     * ArrayList<String> names = Parallel.of(users).map(User::name).collect(ArrayList::new, ArrayList::add,
     *         ArrayList::addAll);
     * }</pre>
     *
     * @param supplier    makes a new, empty container; called once per piece
     * @param accumulator adds an element to a container
     * @param combiner    adds everything in its second argument to its first
     * @param <R>         the container type
     * @return the container holding every element
     * @throws NullPointerException if {@code supplier}, {@code accumulator} or {@code combiner} is null
     */
    public <R> R collect(Supplier<R> supplier, BiConsumer<R, ? super T> accumulator, BiConsumer<R, R> combiner) {
        Objects.requireNonNull(supplier, "supplier");
        Objects.requireNonNull(accumulator, "accumulator");
        Objects.requireNonNull(combiner, "combiner");
        return pipe.run(ItemFolds.collect(supplier, accumulator, combiner)).container();
    }

    /**
     * Returns the smallest element by {@code comparator}.
     *
     * @param comparator the order
     * @return the smallest element (the first of equal smallest ones in encounter order), or empty if there are none
     * @throws NullPointerException if {@code comparator} is null, or if the result is null
     */
    public Optional<T> min(Comparator<? super T> comparator) {
        Objects.requireNonNull(comparator, "comparator");
        return reduce(BinaryOperator.minBy(comparator));
    }

    /**
     * Returns the largest element by {@code comparator}.
     *
     * @param comparator the order
     * @return the largest element (the first of equal largest ones in encounter order), or empty if there are none
     * @throws NullPointerException if {@code comparator} is null, or if the result is null
     */
    public Optional<T> max(Comparator<? super T> comparator) {
        Objects.requireNonNull(comparator, "comparator");
        return reduce(BinaryOperator.maxBy(comparator));
    }

    /**
     * The number of elements. When it is known without running the operation (no {@code filter}, and an array or a
     * random-access list as the source), it is returned at once and the mapping functions are not called, as
     * {@link java.util.stream.Stream#count()} also may do.
     *
     * @return the number of elements
     */
    public long count() {
        long n = pipe.exactSize();
        return n >= 0 ? n : pipe.run(Counter.<T>items()).count();
    }

    /**
     * Collects the elements, in encounter order, into a new {@code Object[]}.
     *
     * @return the elements in encounter order, in an {@code Object[]}
     * @throws IllegalStateException if there are more than fit in one array
     */
    public Object[] toArray() {
        return toArray(Object[]::new);
    }

    /**
     * Collects the elements, in encounter order, into a new array made by {@code generator}.
     *
     * @param generator makes the result array, given its length
     * @param <A>       the component type of the result
     * @return the elements in encounter order
     * @throws NullPointerException  if {@code generator} is null
     * @throws ArrayStoreException   if an element is not an instance of the array's component type
     * @throws IllegalStateException if there are more elements than fit in one array, or if {@code generator} returns
     *                               an array of the wrong length
     */
    public <A> A[] toArray(IntFunction<A[]> generator) {
        Objects.requireNonNull(generator, "generator");
        int n = pipe.exactArrayLength();
        if (n < 0) {
            ItemFolds.Buffer<T> chunks = pipe.run(ItemFolds.buffer());
            A[] out = allocate(generator, chunks.totalSize());
            chunks.copyInto(out);
            return out;
        }
        A[] out = allocate(generator, n);
        pipe.run(ItemFolds.writeInto(out));
        return out;
    }

    /**
     * Collects the elements, in encounter order, into a new unmodifiable list.
     *
     * @return the elements in encounter order, in an unmodifiable list that may hold nulls (as
     *         {@link java.util.stream.Stream#toList()})
     * @throws IllegalStateException if there are more than fit in one array
     */
    public List<T> toList() {
        @SuppressWarnings("unchecked") // an Object[] posing as T[]: it is only ever read back as T, through the list
        T[] elements = (T[]) toArray();
        return Collections.unmodifiableList(Arrays.asList(elements));
    }

    /**
     * Tells whether some element satisfies {@code predicate}, stopping every piece as soon as one is found.
     *
     * @param predicate the predicate
     * @return whether some element satisfies {@code predicate}; false if there are none
     * @throws NullPointerException if {@code predicate} is null
     */
    public boolean anyMatch(Predicate<? super T> predicate) {
        Objects.requireNonNull(predicate, "predicate");
        ItemFolds.AnyMatch<T> found = pipe.run(ItemFolds.anyMatch(predicate));
        return found != null && found.found();
    }

    /**
     * Tells whether every element satisfies {@code predicate}, stopping every piece at the first element that does not.
     *
     * @param predicate the predicate
     * @return whether every element satisfies {@code predicate}; true if there are none
     * @throws NullPointerException if {@code predicate} is null
     */
    public boolean allMatch(Predicate<? super T> predicate) {
        Objects.requireNonNull(predicate, "predicate");
        return !anyMatch(v -> !predicate.test(v));
    }

    /**
     * Tells whether no element satisfies {@code predicate}, stopping every piece at the first element that does.
     *
     * @param predicate the predicate
     * @return whether no element satisfies {@code predicate}; true if there are none
     * @throws NullPointerException if {@code predicate} is null
     */
    public boolean noneMatch(Predicate<? super T> predicate) {
        return !anyMatch(predicate);
    }

    /**
     * Returns some element, not necessarily the first, stopping every piece as soon as one is found.
     *
     * @return some element, or empty if there are none
     * @throws NullPointerException if the element found is null
     */
    public Optional<T> findAny() {
        return found(pipe.run(ItemFolds.find(false)));
    }

    /**
     * Returns the first element in encounter order: once a piece has found one, the pieces after it are skipped, while
     * those before it still run.
     *
     * @return the first element in encounter order, or empty if there are none
     * @throws NullPointerException if the element found is null
     */
    public Optional<T> findFirst() {
        return found(pipe.run(ItemFolds.find(true)));
    }

    private static <T> Optional<T> found(ItemFolds.Find<T> f) {
        return f != null && f.found() ? Optional.of(f.value()) : Optional.empty();
    }

    private static <A> A[] allocate(IntFunction<A[]> generator, int length) {
        A[] out = generator.apply(length);
        if (out.length != length) {
            throw new IllegalStateException("the generator made an array of length " + out.length + " for "
                    + length + " elements");
        }
        return out;
    }
}
