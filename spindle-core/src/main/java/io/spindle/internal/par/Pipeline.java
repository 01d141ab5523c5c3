package io.spindle.internal.par;

import io.spindle.ThreadPool;

import java.util.Objects;
import java.util.function.Function;

/**
 * The state behind one fluent parallel operation ({@code ParallelInts} and its siblings): a source, the chain of
 * stages ({@code map}, {@code filter}, ...) between the source and the terminal operation, and the configuration
 * ({@code on}, {@code minPieceLength}). Immutable: every fluent call returns a new pipeline, so a partly built one can
 * be reused.
 *
 * <h2>Stages as sink wrappers</h2>
 * A stage is a function from the sink it feeds (downstream) to the sink it accepts (upstream): {@code map(f)} turns a
 * downstream {@code d} into {@code v -> d.accept(f(v))}. The {@code chain} composes all stages, so applying it to a
 * leaf's accumulator gives the sink the source feeds. That costs a few small objects per leaf, none per element, and
 * primitive elements stay unboxed all the way.
 *
 * <h2>Exact sizes</h2>
 * When the source is indexed and no stage drops elements, the output index of an element equals its source index:
 * {@code toArray} then allocates the result once and every leaf writes its own slice of it, with no buffers to
 * concatenate, and {@code count} needs no traversal at all.
 *
 * @param <S> the sink type the source feeds
 * @param <D> the sink type the last stage feeds
 */
public final class Pipeline<S, D> {
    private final Source<S> source;
    private final Function<D, S> chain;
    private final boolean keepsSize;
    private final ThreadPool pool; // null: the current pool at the terminal operation
    private final int minPieceLength;

    private Pipeline(Source<S> source, Function<D, S> chain, boolean keepsSize, ThreadPool pool,
            int minPieceLength) {
        this.source = source;
        this.chain = chain;
        this.keepsSize = keepsSize;
        this.pool = pool;
        this.minPieceLength = minPieceLength;
    }

    /**
     * @param source the source
     * @param <S>    the sink type it feeds
     * @return a pipeline with no stages, on the current pool, pieces at least one element long
     */
    public static <S> Pipeline<S, S> of(Source<S> source) {
        return new Pipeline<>(source, Function.identity(), true, null, 1);
    }

    /**
     * @param stage a stage that feeds exactly one element downstream per element it accepts
     * @param <E>   the sink type the new stage feeds
     * @return this pipeline followed by {@code stage}
     */
    public <E> Pipeline<S, E> thenMapping(Function<E, D> stage) {
        return new Pipeline<>(source, chain.compose(stage), keepsSize, pool, minPieceLength);
    }

    /**
     * @param stage a stage that may drop elements
     * @param <E>   the sink type the new stage feeds
     * @return this pipeline followed by {@code stage}
     */
    public <E> Pipeline<S, E> thenFiltering(Function<E, D> stage) {
        return new Pipeline<>(source, chain.compose(stage), false, pool, minPieceLength);
    }

    /**
     * @param pool the pool to run terminal operations on
     * @return this pipeline on {@code pool}
     * @throws NullPointerException if {@code pool} is null
     */
    public Pipeline<S, D> on(ThreadPool pool) {
        Objects.requireNonNull(pool, "pool");
        return new Pipeline<>(source, chain, keepsSize, pool, minPieceLength);
    }

    /**
     * @param n the shortest piece a split may produce
     * @return this pipeline with that minimum
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public Pipeline<S, D> minPieceLength(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("minPieceLength must be at least 1, got " + n);
        }
        return new Pipeline<>(source, chain, keepsSize, pool, n);
    }

    /**
     * @return the number of elements the last stage feeds, or -1 if only running the pipeline can tell (a filtering
     *         stage, or a source of unknown size). When known, the element with source index {@code i} is output
     *         element {@code i}, so a leaf's key is where its output starts.
     */
    public long exactSize() {
        return keepsSize ? source.exactSize() : -1;
    }

    /**
     * @return {@link #exactSize()} as an array length, or -1 if the size is not known in advance
     * @throws IllegalStateException if the output is known to be too long for one array
     */
    public int exactArrayLength() {
        long n = exactSize();
        if (n > Chunk.MAX_ARRAY_LENGTH) {
            throw Chunk.tooManyElements(n);
        }
        return (int) n;
    }

    /**
     * Runs {@code terminal} on the configured pool: inline when the caller is one of its workers, else through
     * {@link ThreadPool#install}, which blocks the caller until it is done.
     *
     * @param terminal what to do with the elements
     * @param <A>      the accumulator type
     * @return the combined accumulator; null only for a short-circuiting terminal that skipped every piece
     */
    public <A extends D> A run(Terminal<D, A> terminal) {
        ThreadPool p = pool != null ? pool : CurrentPool.get();
        return p.install(() -> source.drive(p, chain, terminal, minPieceLength));
    }
}
