package io.spindle;

import io.spindle.internal.registry.WorkerThread;

import java.util.OptionalInt;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Free functions that use the pool of the calling worker thread, or the {@link ThreadPool#global() global pool} when
 * the caller is not a Spindle worker.
 *
 * <pre>{@code
 * static long sum(int[] a, int lo, int hi) {
 *     if (hi - lo < 10_000) { long s = 0; for (int i = lo; i < hi; i++) s += a[i]; return s; }
 *     int mid = (lo + hi) >>> 1;
 *     Pair<Long, Long> r = Spindle.join(() -> sum(a, lo, mid), () -> sum(a, mid, hi));
 *     return r.first() + r.second();
 * }
 * }</pre>
 */
public final class Spindle {
    private Spindle() {}

    /** {@link ThreadPool#join(Supplier, Supplier)} on the current pool. */
    public static <A, B> Pair<A, B> join(Supplier<A> a, Supplier<B> b) {
        return current().join(a, b);
    }

    /** {@link ThreadPool#join(Runnable, Runnable)} on the current pool. */
    public static void join(Runnable a, Runnable b) {
        current().join(a, b);
    }

    /** {@link ThreadPool#scope(Function)} on the current pool. */
    public static <T> T scope(Function<Scope, T> body) {
        return current().scope(body);
    }

    /** {@link ThreadPool#scope(Consumer)} on the current pool. */
    public static void scope(Consumer<Scope> body) {
        current().scope(body);
    }

    /** {@link ThreadPool#spawn(Runnable)} on the current pool. */
    public static void spawn(Runnable task) {
        current().spawn(task);
    }

    /** @return the calling worker's index in its pool, or empty when the caller is not a Spindle worker */
    public static OptionalInt currentThreadIndex() {
        WorkerThread w = WorkerThread.current();
        return w == null ? OptionalInt.empty() : OptionalInt.of(w.index());
    }

    /** @return the size of the calling worker's pool, or of the global pool when the caller is not a worker */
    public static int currentThreadCount() {
        return current().threadCount();
    }

    private static ThreadPool current() {
        WorkerThread w = WorkerThread.current();
        return w == null ? ThreadPool.global() : (ThreadPool) w.registry().publicPool();
    }
}
