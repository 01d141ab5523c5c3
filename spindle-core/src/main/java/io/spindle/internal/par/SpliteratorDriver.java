package io.spindle.internal.par;

import io.spindle.Pair;
import io.spindle.ThreadPool;

import java.util.Spliterator;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs one terminal operation over a {@link Spliterator}: the recursion that splits pieces off with
 * {@code trySplit} by the {@link Splitter} rule, forks them with {@link ThreadPool#join}, runs each leaf with
 * {@code forEachRemaining} (or {@code tryAdvance}, when it may stop early) and combines the results on the way back up
 * (rayon's {@code bridge_unindexed}).
 *
 * <h2>Sizes</h2>
 * The length given to the splitter is {@code estimateSize()}. A spliterator of unknown size reports
 * {@code Long.MAX_VALUE}, so it is split as far as the budget allows and until {@code trySplit} gives up;
 * {@code minPieceLength} then holds only as far as the estimates are right.
 *
 * <h2>Keys</h2>
 * {@code trySplit} returns the prefix of the encounter order and keeps the rest, so the pieces form a tree in encounter
 * order but have no indices. For {@link EarlyExit} each piece gets an interval {@code [keyLo, keyHi)} of a virtual key
 * space {@code [0, Long.MAX_VALUE)}: a split gives the prefix the lower part, in proportion to the two estimated sizes
 * but never less than 1/64 nor more than 63/64 of the width. Proportion matters for the right-leaning trees of
 * iterator-backed spliterators, which split off small batches and keep a remainder of unknown size: halving would
 * use up one bit of key space per batch, while the remainder here keeps 63/64 of its width. The bounds keep a small
 * prefix splittable in turn. A piece whose interval is down to one key does not split again; that costs parallelism,
 * never correctness.
 *
 * @param <T> the element type
 * @param <D> the sink type of the pipeline's last stage
 * @param <A> the accumulator type
 */
final class SpliteratorDriver<T, D, A extends D> {
    /** The smallest share of a piece's key interval either side of a split gets, as a fraction. */
    private static final double MIN_KEY_SHARE = 1.0 / 64;

    private final ThreadPool pool;
    private final Function<D, Consumer<T>> chain;
    private final Terminal<D, A> terminal;
    private final EarlyExit exit;
    private final int minPieceLength;
    private final int threads;

    /** As in {@link IndexedDriver}: set by a failing leaf so that pieces not yet started are skipped. */
    private volatile boolean failed;

    SpliteratorDriver(ThreadPool pool, Function<D, Consumer<T>> chain, Terminal<D, A> terminal, int minPieceLength) {
        this.pool = pool;
        this.chain = chain;
        this.terminal = terminal;
        this.exit = terminal.exit();
        this.minPieceLength = minPieceLength;
        this.threads = pool.threadCount();
    }

    A run(Spliterator<? extends T> root) {
        return piece(root, 0, Long.MAX_VALUE, Splitter.initialBudget(threads), false);
    }

    private A piece(Spliterator<? extends T> rest, long keyLo, long keyHi, int budget, boolean stolen) {
        if (failed || (exit != null && exit.stopsPieceAt(keyLo))) {
            return null;
        }
        if (keyHi - keyLo >= 2) {
            int halfBudget = Splitter.splitBudget(budget, stolen, threads, rest.estimateSize(), minPieceLength);
            Spliterator<? extends T> prefix = halfBudget == Splitter.NO_SPLIT ? null : rest.trySplit();
            if (prefix != null) {
                long keyMid = splitKeys(keyLo, keyHi, prefix.estimateSize(), rest.estimateSize());
                Thread forker = Thread.currentThread();
                Pair<A, A> halves = EagerJoin.join(pool,
                        () -> piece(prefix, keyLo, keyMid, halfBudget, false),
                        () -> piece(rest, keyMid, keyHi, halfBudget, Thread.currentThread() != forker));
                return terminal.combine(halves.first(), halves.second());
            }
        }
        return leaf(rest, keyLo);
    }

    private A leaf(Spliterator<? extends T> s, long key) {
        try {
            A acc = terminal.newPiece(key);
            Consumer<T> sink = chain.apply(acc);
            if (exit == null) {
                s.forEachRemaining(sink);
            } else {
                while (!exit.stopsPieceAt(key) && s.tryAdvance(sink)) {
                    // the advance is the work
                }
            }
            return acc;
        } catch (Throwable t) {
            failed = true;
            throw t;
        }
    }

    /**
     * @return where the prefix's key interval ends, so that both sides get at least one key ({@code keyHi - keyLo}
     *         is at least 2)
     */
    static long splitKeys(long keyLo, long keyHi, long prefixEstimate, long restEstimate) {
        long width = keyHi - keyLo;
        double total = (double) prefixEstimate + restEstimate;
        double share = total > 0 ? prefixEstimate / total : 0.5;
        share = Math.min(Math.max(share, MIN_KEY_SHARE), 1 - MIN_KEY_SHARE);
        long prefixWidth = Math.min(Math.max((long) (width * share), 1), width - 1);
        return keyLo + prefixWidth;
    }
}
