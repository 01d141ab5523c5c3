package io.spindle.internal.par;

import java.util.function.BinaryOperator;
import java.util.function.LongFunction;

/**
 * What a terminal operation does with the pieces of its input: each leaf gets a fresh <em>accumulator</em>, which is
 * also the sink the pipeline feeds that leaf's elements into, and the accumulators of two sibling pieces are combined
 * into one, left (earlier in encounter order) first. In rayon's terms this is the consumer, folder and reducer in one.
 *
 * <p>Accumulators are confined to the leaf that fills them until the join that returns them, which publishes them to
 * the thread that combines them; they need no synchronisation of their own.
 *
 * <p>A piece that the driver skips (an early exit, or a failure elsewhere) has no accumulator: the driver returns
 * {@code null} for it and {@code combine} only ever sees two non-null accumulators. Only a terminal with an
 * {@link EarlyExit} can see {@code null} as the final result; for the others a skip means a failure is on its way to
 * the caller.
 *
 * @param <D> the sink type the pipeline's last stage feeds ({@code IntConsumer}, ..., {@code Consumer<T>})
 * @param <A> the accumulator type, a sink itself
 */
public final class Terminal<D, A extends D> {
    private final LongFunction<A> newPiece;
    private final BinaryOperator<A> combine;
    private final EarlyExit exit;

    private Terminal(LongFunction<A> newPiece, BinaryOperator<A> combine, EarlyExit exit) {
        this.newPiece = newPiece;
        this.combine = combine;
        this.exit = exit;
    }

    /**
     * A terminal that visits every element.
     *
     * @param newPiece makes the accumulator of the piece whose key (first encounter position) is its argument
     * @param combine  combines two sibling accumulators, left first; may return either, updated
     * @param <D>      the sink type
     * @param <A>      the accumulator type
     * @return the terminal
     */
    static <D, A extends D> Terminal<D, A> of(LongFunction<A> newPiece, BinaryOperator<A> combine) {
        return new Terminal<>(newPiece, combine, null);
    }

    /**
     * A short-circuiting terminal: its accumulators signal {@code exit}, and the driver skips the pieces it stops.
     *
     * @param newPiece as in {@link #of}
     * @param combine  as in {@link #of}
     * @param exit     the operation's stop signal
     * @param <D>      the sink type
     * @param <A>      the accumulator type
     * @return the terminal
     */
    static <D, A extends D> Terminal<D, A> stoppable(LongFunction<A> newPiece, BinaryOperator<A> combine,
            EarlyExit exit) {
        return new Terminal<>(newPiece, combine, exit);
    }

    A newPiece(long key) {
        return newPiece.apply(key);
    }

    /** Combines two sibling results, either of which may be a skipped piece's {@code null}. */
    A combine(A left, A right) {
        if (left == null) {
            return right;
        }
        return right == null ? left : combine.apply(left, right);
    }

    /** @return the stop signal, or null when every element is visited */
    EarlyExit exit() {
        return exit;
    }
}
