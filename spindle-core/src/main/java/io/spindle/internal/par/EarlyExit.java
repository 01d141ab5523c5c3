package io.spindle.internal.par;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The shared stop signal of one short-circuiting operation ({@code anyMatch}, {@code findAny}, {@code findFirst}, ...):
 * once a piece found what the operation looks for, the pieces that can no longer change the answer are skipped
 * before they split and abandoned inside their leaf loops, instead of being computed and thrown away.
 *
 * <h2>Keys and the cutoff</h2>
 * Every piece has a <em>key</em>: the encounter position of its first element (a source index for indexed sources, a
 * position in a virtual key space for spliterators, see {@code SpliteratorDriver}). Pieces are disjoint intervals of
 * keys, in encounter order. The signal is one {@code long}, the <em>cutoff</em>, which only ever decreases:
 * <ul>
 *   <li>{@link #stopAll()} sets it to {@code Long.MIN_VALUE}: every piece stops ({@code anyMatch}, {@code findAny}).
 *   <li>{@link #foundAt(long)} lowers it to the key of a piece that found a match ({@code findFirst}).
 *   <li>A piece with key {@code k} stops once {@code cutoff <= k} ({@link #stopsPieceAt}).
 * </ul>
 * <b>E1 (findFirst skips only later pieces).</b> If a piece with key {@code k} is skipped, some piece with key
 * {@code c <= k} found a match. Either {@code c == k} and it is the same piece, which already has its first match, or
 * {@code c < k} and, the pieces being disjoint, that piece lies wholly before this one. So a skipped piece never holds
 * an element earlier than a match that was found, and combining found results left-first yields the first match.
 * This holds whichever value of the cutoff a reader sees, because every value it can see was written by a piece
 * that found a match.
 *
 * <h2>Memory ordering</h2>
 * The cutoff is read with {@code getOpaque} and lowered with {@code compareAndExchange} or {@code setOpaque}. Opaque
 * is enough because the cutoff carries no data: it only decides whether work is skipped, E1 holds for any value read,
 * and the results themselves travel through the joins, which order everything before them. What opaque adds over a
 * plain read is that the JIT cannot hoist the read out of a leaf loop, so a running leaf does see the stop eventually.
 */
final class EarlyExit {
    private static final VarHandle CUTOFF;

    static {
        try {
            CUTOFF = MethodHandles.lookup().findVarHandle(EarlyExit.class, "cutoff", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through CUTOFF only
    private long cutoff = Long.MAX_VALUE;

    /**
     * @param key a piece's key ({@code >= 0})
     * @return whether the piece may stop: something at or before it was found
     */
    boolean stopsPieceAt(long key) {
        return (long) CUTOFF.getOpaque(this) <= key;
    }

    /** Stops every piece. */
    void stopAll() {
        // Long.MIN_VALUE is the floor of a value that only decreases, so no concurrent foundAt can raise it again:
        // its compareAndExchange expects the value it read, which is no longer there.
        CUTOFF.setOpaque(this, Long.MIN_VALUE);
    }

    /**
     * Records that the piece with key {@code key} found a match: it and every later piece stop (E1).
     *
     * @param key the finding piece's key
     */
    void foundAt(long key) {
        long seen = (long) CUTOFF.getOpaque(this);
        while (key < seen) {
            // compareAndExchange (volatile) so that two finders racing both end with the smaller key kept
            long witness = (long) CUTOFF.compareAndExchange(this, seen, key);
            if (witness == seen) {
                return;
            }
            seen = witness;
        }
    }
}
