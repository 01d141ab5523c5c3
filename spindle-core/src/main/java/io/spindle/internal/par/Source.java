package io.spindle.internal.par;

import io.spindle.ThreadPool;

import java.util.function.Function;

/**
 * Where a parallel operation's elements come from. Two kinds, each with its own driver (the recursion that splits
 * the input and runs the leaves): {@link IndexedSource} (ranges, arrays, random-access lists; split by index
 * arithmetic, exact sizes) and {@link SpliteratorSource} (anything else; split with {@code trySplit}, sizes possibly
 * unknown).
 *
 * @param <S> the sink type the source feeds ({@code IntConsumer} for int elements, ..., {@code Consumer<T>})
 */
public abstract class Source<S> {
    Source() {}

    /** @return the number of elements, or -1 if only a traversal can tell */
    abstract long exactSize();

    /**
     * Runs {@code terminal} over every element, fed through {@code chain}. Called on a worker of {@code pool}.
     *
     * @param pool           the pool whose joins split the input
     * @param chain          turns the terminal's accumulator into the sink this source feeds (the pipeline's stages)
     * @param terminal       what to do with each piece
     * @param minPieceLength the shortest piece a split may produce
     * @param <D>            the sink type of the pipeline's last stage
     * @param <A>            the accumulator type
     * @return the combined accumulator (null only if an early exit skipped every piece that had one)
     */
    abstract <D, A extends D> A drive(ThreadPool pool, Function<D, S> chain, Terminal<D, A> terminal,
            int minPieceLength);
}
