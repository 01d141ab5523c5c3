package io.spindle;

import io.spindle.internal.par.CurrentPool;
import io.spindle.internal.par.IndexedSource;
import io.spindle.internal.par.ParallelSorts;
import io.spindle.internal.par.Pipeline;
import io.spindle.internal.par.SpliteratorSource;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.Spliterator;

/**
 * Parallel operations over ranges, arrays and collections, in the style of {@code java.util.stream} but on a Spindle
 * pool of your choice: the entry points of {@link ParallelInts}, {@link ParallelLongs}, {@link ParallelDoubles} and
 * {@link ParallelItems}, and parallel sorts.
 *
 * <pre>{@code
 * try (ThreadPool pool = ThreadPool.builder().threads(8).build()) {
 *     long total = Parallel.of(values).on(pool).sum();                      // int[] values; a long: no overflow
 *     List<String> labels = Parallel.range(0, 1_000).mapToObj(i -> "#" + i).on(pool).toList(); // in order
 *     boolean anyNegative = Parallel.of(values).on(pool).anyMatch(v -> v < 0); // stops at the first one found
 *     Parallel.sort(pool, values);
 * }
 * }</pre>
 *
 * <h2>How operations run</h2>
 * The fluent types are immutable descriptions: {@code map}, {@code filter} and the configuration methods return new
 * objects and run nothing. A <em>terminal</em> operation ({@code sum}, {@code toList}, {@code forEach}, ...) runs the
 * whole description on a pool and returns once it is done: on the pool given to {@code on(pool)}, else on the
 * <em>current</em> pool, which is the pool of the thread calling the terminal operation if that thread is a Spindle
 * worker and the {@link ThreadPool#global() global pool} otherwise. Called from one of that pool's workers, the
 * operation runs inline on the caller (which then also runs other pieces while it waits); called from anywhere else,
 * it goes through {@link ThreadPool#install} and the caller blocks. A description can run any number of terminal
 * operations, from any threads, except one built from a {@link Spliterator} (see {@link #of(Spliterator)}).
 *
 * <h2>Splitting</h2>
 * The input is split adaptively, as in rayon: it starts with a budget of about one split per worker, each split halves
 * the budget, and a piece that another worker stole gets its budget back so that it splits again where the load is
 * uneven. A piece that stops splitting runs as one plain loop: there is no task object per element.
 * {@code minPieceLength(n)} forbids pieces shorter than {@code n} elements; raise it when the work per element is tiny
 * and the input is short.
 *
 * <h2>The functions you pass</h2>
 * They run concurrently on the pool's workers, each piece's elements in encounter order but the pieces in no
 * particular order, so they must be safe to call from several threads at once and must not modify the source. The
 * operators of {@code reduce} must be associative (not necessarily commutative: pieces are combined in encounter
 * order) and {@code identity} must be an identity for them, as for {@code java.util.stream}.
 *
 * <h2>Order</h2>
 * {@code toArray}, {@code toList}, {@code findFirst}, {@code reduce}, {@code collect}, {@code min} and {@code max}
 * respect the encounter order of the source (index order for ranges, arrays and lists; the spliterator's order
 * otherwise). {@code forEach} and {@code findAny} do not.
 *
 * <h2>Early exit</h2>
 * {@code anyMatch}, {@code allMatch}, {@code noneMatch}, {@code findAny} and {@code findFirst} stop working as soon as
 * the answer is known: pieces check a shared flag before they split and before each element, so the rest of the input
 * is skipped, not computed and discarded. Elements already being processed finish, so a function may still see a few
 * elements after the answer was found. {@code findFirst} keeps working on the pieces before the one that found a match.
 *
 * <h2>Failures</h2>
 * If a function throws, the terminal operation throws that same throwable (unchecked exceptions and errors as they
 * are) once every piece that had started has ended; when several pieces fail, the failure of the earliest of them in
 * encounter order is thrown, with the others reachable from it as (possibly nested) suppressed exceptions. After a
 * failure, pieces that had not started yet are skipped, but pieces already running finish, so side effects (of
 * {@code forEach}, say) may have happened for any subset of the elements. The pool is unaffected. Called from
 * outside a pool that was shut down, a terminal operation throws
 * {@link java.util.concurrent.RejectedExecutionException}.
 *
 * <h2>Sources</h2>
 * Arrays and lists are used in place, not copied: changing them while an operation runs gives unspecified results.
 */
public final class Parallel {
    private Parallel() {}

    /**
     * A half-open range of {@code int} values, split by index arithmetic with no array behind it; empty when the two
     * bounds are equal.
     *
     * @param startInclusive the first value
     * @param endExclusive   one past the last value
     * @return the ints {@code startInclusive .. endExclusive - 1}, in increasing order
     * @throws IllegalArgumentException if {@code startInclusive > endExclusive}
     */
    public static ParallelInts range(int startInclusive, int endExclusive) {
        checkRange(startInclusive, endExclusive);
        return new ParallelInts(Pipeline.of(IndexedSource.intRange(startInclusive, endExclusive)));
    }

    /**
     * A half-open range of {@code long} values, split by index arithmetic with no array behind it; empty when the two
     * bounds are equal.
     *
     * @param startInclusive the first value
     * @param endExclusive   one past the last value
     * @return the longs {@code startInclusive .. endExclusive - 1}, in increasing order
     * @throws IllegalArgumentException if {@code startInclusive > endExclusive}, or if the range has more than
     *                                  {@code Long.MAX_VALUE} elements
     */
    public static ParallelLongs range(long startInclusive, long endExclusive) {
        checkRange(startInclusive, endExclusive);
        if (endExclusive - startInclusive < 0) {
            throw new IllegalArgumentException("range [" + startInclusive + ", " + endExclusive + ") has more than "
                    + "Long.MAX_VALUE elements");
        }
        return new ParallelLongs(Pipeline.of(IndexedSource.longRange(startInclusive, endExclusive)));
    }

    /**
     * The elements of an {@code int} array, split by index and read in place: the array is never copied and its
     * elements are never boxed.
     *
     * @param a the array, used in place
     * @return its elements, in index order
     * @throws NullPointerException if {@code a} is null
     */
    public static ParallelInts of(int[] a) {
        Objects.requireNonNull(a, "a");
        return new ParallelInts(Pipeline.of(IndexedSource.of(a)));
    }

    /**
     * The elements of a {@code long} array, split by index and read in place: the array is never copied and its
     * elements are never boxed.
     *
     * @param a the array, used in place
     * @return its elements, in index order
     * @throws NullPointerException if {@code a} is null
     */
    public static ParallelLongs of(long[] a) {
        Objects.requireNonNull(a, "a");
        return new ParallelLongs(Pipeline.of(IndexedSource.of(a)));
    }

    /**
     * The elements of a {@code double} array, split by index and read in place: the array is never copied and its
     * elements are never boxed.
     *
     * @param a the array, used in place
     * @return its elements, in index order
     * @throws NullPointerException if {@code a} is null
     */
    public static ParallelDoubles of(double[] a) {
        Objects.requireNonNull(a, "a");
        return new ParallelDoubles(Pipeline.of(IndexedSource.of(a)));
    }

    /**
     * The elements of an object array, split by index and read in place: the array is never copied.
     *
     * @param a   the array, used in place; its elements may be null
     * @param <T> the element type
     * @return its elements, in index order
     * @throws NullPointerException if {@code a} is null
     */
    public static <T> ParallelItems<T> of(T[] a) {
        Objects.requireNonNull(a, "a");
        return new ParallelItems<>(Pipeline.of(IndexedSource.of(a)));
    }

    /**
     * A collection's elements. A {@link List} that is {@link RandomAccess} is split by index, like an array; any
     * other collection through its {@link Collection#spliterator() spliterator}, taken anew by each terminal
     * operation.
     *
     * @param c   the collection, used in place; its elements may be null
     * @param <T> the element type
     * @return its elements, in the collection's encounter order
     * @throws NullPointerException if {@code c} is null
     */
    public static <T> ParallelItems<T> of(Collection<? extends T> c) {
        Objects.requireNonNull(c, "c");
        if (c instanceof List<? extends T> list && c instanceof RandomAccess) {
            return new ParallelItems<>(Pipeline.of(IndexedSource.ofRandomAccess(list)));
        }
        return new ParallelItems<>(Pipeline.of(SpliteratorSource.of(c)));
    }

    /**
     * A spliterator's elements, split with {@link Spliterator#trySplit()}; spliterators of unknown size are split as
     * far as the split budget allows and {@code trySplit} agrees. A spliterator can be traversed only once, so the
     * result (and everything built from it) can run <em>one</em> terminal operation; a second one throws
     * {@link IllegalStateException}.
     *
     * @param s   the spliterator, which must not be used elsewhere afterwards; its elements may be null
     * @param <T> the element type
     * @return its elements, in its encounter order
     * @throws NullPointerException if {@code s} is null
     */
    public static <T> ParallelItems<T> of(Spliterator<? extends T> s) {
        Objects.requireNonNull(s, "s");
        return new ParallelItems<>(Pipeline.of(SpliteratorSource.ofOnce(s)));
    }

    // --- sorts ------------------------------------------------------------------------------------------------------

    /**
     * Sorts {@code a} into ascending order in parallel on the current pool (see the class documentation); the result
     * equals {@link java.util.Arrays#sort(int[])}'s.
     *
     * @param a the array
     * @throws NullPointerException if {@code a} is null
     */
    public static void sort(int[] a) {
        Objects.requireNonNull(a, "a"); // before CurrentPool.get(), which may start the global pool
        sort(CurrentPool.get(), a);
    }

    /**
     * Sorts {@code a} into ascending order in parallel on {@code pool}; the result equals
     * {@link java.util.Arrays#sort(int[])}'s.
     *
     * @param pool the pool to sort on
     * @param a    the array
     * @throws NullPointerException if {@code pool} or {@code a} is null
     */
    public static void sort(ThreadPool pool, int[] a) {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(a, "a");
        pool.install(() -> {
            ParallelSorts.sort(a);
            return null;
        });
    }

    /**
     * Sorts {@code a} into ascending order in parallel on the current pool (see the class documentation); the result
     * equals {@link java.util.Arrays#sort(long[])}'s.
     *
     * @param a the array
     * @throws NullPointerException if {@code a} is null
     */
    public static void sort(long[] a) {
        Objects.requireNonNull(a, "a"); // before CurrentPool.get(), which may start the global pool
        sort(CurrentPool.get(), a);
    }

    /**
     * Sorts {@code a} into ascending order in parallel on {@code pool}; the result equals
     * {@link java.util.Arrays#sort(long[])}'s.
     *
     * @param pool the pool to sort on
     * @param a    the array
     * @throws NullPointerException if {@code pool} or {@code a} is null
     */
    public static void sort(ThreadPool pool, long[] a) {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(a, "a");
        pool.install(() -> {
            ParallelSorts.sort(a);
            return null;
        });
    }

    /**
     * Sorts {@code a} into the order of {@link Double#compare} ({@code -0.0} before {@code 0.0}, NaNs last) in
     * parallel on the current pool (see the class documentation); the result equals
     * {@link java.util.Arrays#sort(double[])}'s.
     *
     * @param a the array
     * @throws NullPointerException if {@code a} is null
     */
    public static void sort(double[] a) {
        Objects.requireNonNull(a, "a"); // before CurrentPool.get(), which may start the global pool
        sort(CurrentPool.get(), a);
    }

    /**
     * Sorts {@code a} into the order of {@link Double#compare} ({@code -0.0} before {@code 0.0}, NaNs last) in
     * parallel on {@code pool}; the result equals {@link java.util.Arrays#sort(double[])}'s.
     *
     * @param pool the pool to sort on
     * @param a    the array
     * @throws NullPointerException if {@code pool} or {@code a} is null
     */
    public static void sort(ThreadPool pool, double[] a) {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(a, "a");
        pool.install(() -> {
            ParallelSorts.sort(a);
            return null;
        });
    }

    /**
     * Sorts {@code a} stably by {@code comparator} in parallel on the current pool (see the class documentation). If
     * the comparator throws, its throwable propagates once every task of the sort has ended, and {@code a} is left in
     * an unspecified state.
     *
     * @param a          the array
     * @param comparator the order; for natural order pass {@link Comparator#naturalOrder()} ({@code null} is an error,
     *                   not natural order)
     * @param <T>        the element type
     * @throws NullPointerException if {@code a} or {@code comparator} is null
     */
    public static <T> void sort(T[] a, Comparator<? super T> comparator) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(comparator, "comparator");
        sort(CurrentPool.get(), a, comparator);
    }

    /**
     * Sorts {@code a} stably by {@code comparator} in parallel on {@code pool}. If the comparator throws, its
     * throwable propagates once every task of the sort has ended, and {@code a} is left in an unspecified state.
     *
     * @param pool       the pool to sort on
     * @param a          the array
     * @param comparator the order; for natural order pass {@link Comparator#naturalOrder()} ({@code null} is an error,
     *                   not natural order)
     * @param <T>        the element type
     * @throws NullPointerException if {@code pool}, {@code a} or {@code comparator} is null
     */
    public static <T> void sort(ThreadPool pool, T[] a, Comparator<? super T> comparator) {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(comparator, "comparator");
        pool.install(() -> {
            ParallelSorts.sort(a, comparator);
            return null;
        });
    }

    private static void checkRange(long startInclusive, long endExclusive) {
        if (startInclusive > endExclusive) {
            throw new IllegalArgumentException("startInclusive (" + startInclusive + ") must not be greater than "
                    + "endExclusive (" + endExclusive + ")");
        }
    }
}
