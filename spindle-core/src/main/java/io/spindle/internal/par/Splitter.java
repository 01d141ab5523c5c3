package io.spindle.internal.par;

/**
 * The adaptive splitting rule of the parallel operations: decides, for each piece of the input, whether it is worth
 * halving once more or should run as one sequential leaf.
 *
 * <h2>Why a budget and not a fixed grain</h2>
 * A fixed grain (split until pieces are shorter than {@code g}) needs {@code g} tuned per workload: too small and the
 * joins cost more than the work, too large and a few long leaves leave workers idle. Instead each piece carries a
 * <em>split budget</em>. The root starts with one unit per worker; every split halves it, so without any stealing the
 * input ends up in about {@code 2 × threads} leaves, enough to keep every worker busy while the splits stay few.
 *
 * <p>When a piece runs on a thread other than the one that forked it, it was <em>stolen</em>: some worker ran out of
 * work, so the load is uneven and more parallelism is wanted exactly here. A stolen piece's budget is reset to
 * {@code max(threads, budget / 2)}, so it splits again and the thief's siblings can in turn steal from it. Pieces that
 * nobody steals keep halving their budget and soon run as plain loops. The cost of a split is thus paid only where
 * it buys parallelism, and cheap per-element work on a busy pool runs in long sequential leaves.
 *
 * <p>Independently of the budget, a piece is never split into halves shorter than the operation's
 * {@code minPieceLength}: {@code length / 2 >= minPieceLength} guarantees both halves (floor and ceiling) are at least
 * that long.
 *
 * <h2>Detecting a steal</h2>
 * Without looking into the engine: the forking code reads {@code Thread.currentThread()} before the join, and the
 * second closure compares it with the thread it runs on. The first closure always runs inline on the forking thread.
 *
 * <p>The budget travels as a plain {@code int} argument of the recursion, so splitting allocates nothing.
 */
final class Splitter {
    /** Returned by {@link #splitBudget} when the piece must not split. Budgets are never negative. */
    static final int NO_SPLIT = -1;

    private Splitter() {}

    /**
     * @param threads the pool's worker count
     * @return the root piece's budget: one split per worker
     */
    static int initialBudget(int threads) {
        return threads;
    }

    /**
     * Decides whether a piece splits.
     *
     * @param budget         the piece's budget ({@code >= 0})
     * @param stolen         whether the piece runs on a thread other than the one that forked it
     * @param threads        the pool's worker count
     * @param length         the piece's length in elements (an estimate where only that is known)
     * @param minPieceLength the shortest piece allowed ({@code >= 1})
     * @return the budget each half gets, or {@link #NO_SPLIT} if the piece runs as one leaf
     */
    static int splitBudget(int budget, boolean stolen, int threads, long length, long minPieceLength) {
        if (length / 2 < minPieceLength) {
            return NO_SPLIT;
        }
        if (stolen) {
            return Math.max(threads, budget / 2);
        }
        return budget > 0 ? budget / 2 : NO_SPLIT;
    }
}
