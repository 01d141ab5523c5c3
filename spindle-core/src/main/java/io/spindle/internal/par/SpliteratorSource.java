package io.spindle.internal.par;

import io.spindle.ThreadPool;

import java.util.Collection;
import java.util.Spliterator;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A source that is only reachable through a {@link Spliterator}: a collection without random access, or a
 * spliterator handed over by the caller. Pieces are split off with {@code trySplit} by {@link SpliteratorDriver}.
 *
 * <p>A collection gives a fresh spliterator to every terminal operation. A caller's spliterator can be traversed only
 * once, so the first terminal operation takes it and any later one fails.
 *
 * @param <T> the element type
 */
public final class SpliteratorSource<T> extends Source<Consumer<T>> {
    private final Collection<? extends T> collection; // null when built from a caller's spliterator
    private final AtomicReference<Spliterator<? extends T>> untraversed;

    private SpliteratorSource(Collection<? extends T> collection, Spliterator<? extends T> spliterator) {
        this.collection = collection;
        this.untraversed = new AtomicReference<>(spliterator);
    }

    /**
     * @param c   the collection
     * @param <T> the element type
     * @return a source that traverses {@code c.spliterator()} once per terminal operation
     */
    public static <T> SpliteratorSource<T> of(Collection<? extends T> c) {
        return new SpliteratorSource<>(c, null);
    }

    /**
     * @param s   the spliterator
     * @param <T> the element type
     * @return a source for one terminal operation
     */
    public static <T> SpliteratorSource<T> ofOnce(Spliterator<? extends T> s) {
        return new SpliteratorSource<>(null, s);
    }

    @Override
    long exactSize() {
        return -1; // keys of spliterator pieces are not indices, so exact sizes would buy nothing (see Pipeline)
    }

    @Override
    <D, A extends D> A drive(ThreadPool pool, Function<D, Consumer<T>> chain, Terminal<D, A> terminal,
            int minPieceLength) {
        return new SpliteratorDriver<>(pool, chain, terminal, minPieceLength).run(take());
    }

    private Spliterator<? extends T> take() {
        if (collection != null) {
            return collection.spliterator();
        }
        // getAndSet, not get: two terminal operations racing from different threads must not share the spliterator
        Spliterator<? extends T> s = untraversed.getAndSet(null);
        if (s == null) {
            throw new IllegalStateException("a parallel operation built from a Spliterator can run only one terminal "
                    + "operation, and one already ran");
        }
        return s;
    }
}
