package io.spindle.internal.par;

import io.spindle.Pair;
import io.spindle.ThreadPool;

import java.util.function.Function;

/**
 * Runs one terminal operation over an {@link IndexedSource}: the recursion that halves index intervals by the
 * {@link Splitter} rule, forks the halves with {@link ThreadPool#join}, runs each leaf as one plain loop into a fresh
 * accumulator and combines the results on the way back up (rayon's {@code bridge_producer_consumer}).
 *
 * <p>A piece's key (see {@link EarlyExit}) is its first index. Before a piece splits or runs, it is skipped if the
 * operation already failed elsewhere or its early exit stops it; the check costs one load per piece, not per element.
 *
 * <p>One instance per terminal operation; it is shared by every piece of that operation, read-only except for
 * {@link #failed}.
 *
 * @param <S> the sink type the source feeds
 * @param <D> the sink type of the pipeline's last stage
 * @param <A> the accumulator type
 */
final class IndexedDriver<S, D, A extends D> {
    private final ThreadPool pool;
    private final IndexedSource<S> source;
    private final Function<D, S> chain;
    private final Terminal<D, A> terminal;
    private final EarlyExit exit;
    private final int minPieceLength;
    private final int threads;

    /**
     * Set by a leaf whose user code threw: the pieces not yet started are skipped, since the operation's result is
     * that failure anyway. Volatile: a plain field read could be satisfied from a stale value for the whole
     * operation; ordering is not needed, the failure itself travels through the joins.
     */
    private volatile boolean failed;

    IndexedDriver(ThreadPool pool, IndexedSource<S> source, Function<D, S> chain, Terminal<D, A> terminal,
            int minPieceLength) {
        this.pool = pool;
        this.source = source;
        this.chain = chain;
        this.terminal = terminal;
        this.exit = terminal.exit();
        this.minPieceLength = minPieceLength;
        this.threads = pool.threadCount();
    }

    A run() {
        return piece(0, source.length(), Splitter.initialBudget(threads), false);
    }

    private A piece(long lo, long hi, int budget, boolean stolen) {
        if (failed || (exit != null && exit.stopsPieceAt(lo))) {
            return null;
        }
        int halfBudget = Splitter.splitBudget(budget, stolen, threads, hi - lo, minPieceLength);
        if (halfBudget == Splitter.NO_SPLIT) {
            return leaf(lo, hi);
        }
        long mid = lo + (hi - lo) / 2;
        Thread forker = Thread.currentThread();
        Pair<A, A> halves = EagerJoin.join(pool,
                () -> piece(lo, mid, halfBudget, false),
                () -> piece(mid, hi, halfBudget, Thread.currentThread() != forker));
        return terminal.combine(halves.first(), halves.second());
    }

    private A leaf(long lo, long hi) {
        try {
            A acc = terminal.newPiece(lo);
            S sink = chain.apply(acc);
            if (exit == null) {
                source.feed(lo, hi, sink);
            } else {
                source.feedUntilStopped(lo, hi, sink, exit);
            }
            return acc;
        } catch (Throwable t) {
            failed = true;
            throw t;
        }
    }
}
