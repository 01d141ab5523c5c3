package io.spindle;

import io.spindle.internal.blocking.ManagedBlocking;
import io.spindle.internal.lazy.LazyWorker;
import io.spindle.internal.registry.Registry;
import io.spindle.internal.registry.WorkerThread;

import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongBinaryOperator;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

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

    /**
     * Runs {@code a} and {@code b}, potentially in parallel, on the current pool and returns both results: on a worker,
     * {@code b} may be stolen while {@code a} runs inline. Failures are rethrown as
     * {@link ThreadPool#join(Supplier, Supplier)} says.
     *
     * @param a   the first closure
     * @param b   the second closure
     * @param <A> the first result type
     * @param <B> the second result type
     * @return both results
     * @throws NullPointerException if {@code a} or {@code b} is null
     */
    public static <A, B> Pair<A, B> join(Supplier<A> a, Supplier<B> b) {
        WorkerThread w = WorkerThread.current();
        if (w != null) { // the hot path: straight to the worker's join, one thread lookup per join
            Objects.requireNonNull(a, "a");
            Objects.requireNonNull(b, "b");
            return Registry.joinOn(w, a, b);
        }
        return ThreadPool.global().join(a, b);
    }

    /**
     * Runs {@code a} and {@code b}, potentially in parallel, on the current pool; see
     * {@link ThreadPool#join(Runnable, Runnable)}.
     *
     * <pre>{@code
     * Spindle.join(() -> sort(left), () -> sort(right));
     * }</pre>
     *
     * @param a the first closure
     * @param b the second closure
     * @throws NullPointerException if {@code a} or {@code b} is null
     */
    public static void join(Runnable a, Runnable b) {
        WorkerThread w = WorkerThread.current();
        if (w != null) {
            Objects.requireNonNull(a, "a");
            Objects.requireNonNull(b, "b");
            Registry.joinOn(w, a, b);
        } else {
            ThreadPool.global().join(a, b);
        }
    }

    /**
     * Runs {@code a} and {@code b}, potentially in parallel, on the current pool and returns
     * {@code combine(a's result, b's result)}, with no {@code Pair} and no boxing; see
     * {@link ThreadPool#join(LongSupplier, LongSupplier, LongBinaryOperator)}.
     *
     * <pre>{@code
     * static long fib(int n) {
     *     return n < 2 ? n : Spindle.join(() -> fib(n - 1), () -> fib(n - 2), Long::sum);
     * }
     * }</pre>
     *
     * @param a       the first closure
     * @param b       the second closure
     * @param combine combines the two results
     * @return {@code combine.applyAsLong(a.getAsLong(), b.getAsLong())}
     * @throws NullPointerException if {@code a}, {@code b} or {@code combine} is null
     */
    public static long join(LongSupplier a, LongSupplier b, LongBinaryOperator combine) {
        WorkerThread w = WorkerThread.current();
        if (w != null) {
            Objects.requireNonNull(a, "a");
            Objects.requireNonNull(b, "b");
            Objects.requireNonNull(combine, "combine");
            return Registry.joinOn(w, a, b, combine);
        }
        return ThreadPool.global().join(a, b, combine);
    }

    /**
     * Applies {@code f} to {@code x} and to {@code y}, potentially in parallel, on the current pool and returns
     * {@code combine(f(x), f(y))}, with no closure to allocate when {@code f} and {@code combine} capture nothing; see
     * {@link ThreadPool#join(ToLongFunction, Object, Object, LongBinaryOperator)}.
     *
     * <pre>{@code
     * static long sum(Node n) {
     *     return n.left == null ? n.value : n.value + Spindle.join(Sums::sum, n.left, n.right, Long::sum);
     * }
     * }</pre>
     *
     * @param f       the function applied to both arguments
     * @param x       the first argument
     * @param y       the second argument
     * @param combine combines the two results
     * @param <T>     the arguments' type
     * @return {@code combine.applyAsLong(f.applyAsLong(x), f.applyAsLong(y))}
     * @throws NullPointerException if {@code f} or {@code combine} is null
     */
    public static <T> long join(ToLongFunction<? super T> f, T x, T y, LongBinaryOperator combine) {
        WorkerThread w = WorkerThread.current();
        if (w != null) {
            Objects.requireNonNull(f, "f");
            Objects.requireNonNull(combine, "combine");
            return Registry.joinOn(w, f, x, y, combine);
        }
        return ThreadPool.global().join(f, x, y, combine);
    }

    /**
     * Gives the current worker's waiting join halves a chance to be shared: call it between pieces of a long loop that
     * makes no join. A {@link JoinStrategy#LAZY lazy} join's second half becomes stealable only at a heartbeat check
     * (docs/DESIGN.md §7), and joins make those checks; a loop that runs for milliseconds without joining would
     * meanwhile keep the second halves of the joins it runs inside to itself while other workers sit idle. With this
     * call in the loop the worker checks for a beat as a join would: about once per
     * {@link ThreadPool.Builder#heartbeatInterval heartbeat interval} it promotes its oldest waiting halves, as many as
     * the sleep protocol counts idle workers (workers still searching count with the default protocol only) and all of
     * them when the calls are a quarter interval apart or more.
     *
     * <pre>{@code
     * static long burn(long[] data, int lo, int hi) {
     *     long acc = 0;
     *     for (int i = lo; i < hi; i++) {
     *         acc += expensive(data[i]);
     *         if ((i & 255) == 0) Spindle.heartbeat();
     *     }
     *     return acc;
     * }
     * }</pre>
     *
     * <p>Most calls cost a thread lookup and a decrement: the worker reads the clock about four times per interval
     * when the calls are more than about 25 ns apart, and at most once per 1,024 calls when they come faster. It does
     * nothing when the caller is not a Spindle worker, when its pool's joins are {@link JoinStrategy#EAGER eager}
     * (their halves are stealable from the start) or when no half of the caller's joins is still latent (none
     * waits, or all were promoted already).
     */
    public static void heartbeat() {
        WorkerThread w = WorkerThread.current();
        if (w != null) {
            LazyWorker lazy = w.lazy();
            if (lazy != null) {
                lazy.heartbeatCheck();
            }
        }
    }

    /**
     * Opens a {@link Scope} on the current pool and returns once {@code body} and every task spawned into the scope
     * ended; see {@link ThreadPool#scope(Consumer)}.
     *
     * @param body the body
     * @throws NullPointerException if {@code body} is null
     */
    public static void scope(Consumer<Scope> body) {
        current().scope(body);
    }

    /**
     * As {@link #scope(Consumer)}, for a body that returns a value; see {@link ThreadPool#scopeWithResult(Function)}.
     *
     * @param body the body
     * @param <T>  its result type
     * @return what {@code body} returned
     * @throws NullPointerException if {@code body} is null
     */
    public static <T> T scopeWithResult(Function<Scope, T> body) {
        return current().scopeWithResult(body);
    }

    /**
     * Runs {@code task} asynchronously on the current pool (fire and forget); see {@link ThreadPool#spawn(Runnable)}.
     * Use a {@link #scope(Consumer) scope} to wait for spawned tasks.
     *
     * @param task the task
     * @throws NullPointerException if {@code task} is null
     */
    public static void spawn(Runnable task) {
        current().spawn(task);
    }

    /**
     * Returns the index of the calling thread in its Spindle pool.
     *
     * @return the calling worker's index in its pool, or empty when the caller is not a Spindle worker; empty too on
     *         a thread back from {@link #blocking} or {@link #managedBlock} that handed its index to a stand-in (the
     *         stand-in answers that index now, and per-index state must not have two writers)
     */
    public static OptionalInt currentThreadIndex() {
        WorkerThread w = WorkerThread.current();
        return w == null || w.isDetached() ? OptionalInt.empty() : OptionalInt.of(w.index());
    }

    /**
     * Returns the number of workers of the current pool: how many ways work can split usefully from here.
     *
     * @return the size of the calling worker's pool, or of the global pool when the caller is not a worker
     */
    public static int currentThreadCount() {
        return current().threadCount();
    }

    /**
     * Blocks the calling thread in {@code blocker}, keeping the pool's parallelism: ForkJoinPool's
     * {@link ForkJoinPool#managedBlock(ForkJoinPool.ManagedBlocker) managedBlock} contract, so a
     * {@link ForkJoinPool.ManagedBlocker} written for ForkJoinPool works unchanged.
     *
     * <p>On a Spindle worker, unless {@code blocker.isReleasable()} at once, the worker hands its place in the pool
     * (its index, its share of the sleep protocol, its IO) to a stand-in thread, and then calls {@code block()} until
     * it or {@code isReleasable()} returns true; meanwhile the pool keeps {@code threadCount()} workers running, and
     * the join halves this thread's task left waiting are stealable. The thread then finishes its task outside the
     * pool's count of workers (its joins still spread to the pool), and afterwards stands in for a later blocking call
     * or ends after the pool's {@link ThreadPool.Builder#blockingKeepAlive keep-alive}. Past the pool's
     * {@link ThreadPool.Builder#maxBlockingThreads maxBlockingThreads}, inside a start or exit hook, or on a thread
     * already back from such a call, it blocks where it is. On a {@link java.util.concurrent.ForkJoinWorkerThread},
     * and on any other thread, this is {@code ForkJoinPool.managedBlock(blocker)}.
     *
     * @param blocker the wait, as for ForkJoinPool
     * @throws InterruptedException if {@code blocker.block()} throws it (the hand-off, if any, stands)
     * @throws NullPointerException if {@code blocker} is null
     */
    public static void managedBlock(ForkJoinPool.ManagedBlocker blocker) throws InterruptedException {
        Objects.requireNonNull(blocker, "blocker");
        ManagedBlocking.managedBlock(blocker);
    }

    /**
     * Runs {@code body}, a block of code that may block (a JDBC query, a file read, a lock, a {@code Future.get} on
     * something outside the pool), keeping the pool's parallelism as {@link #managedBlock} does.
     *
     * <pre>{@code
     * ResultSet rows = Spindle.blocking(() -> query(connection, sql));
     * }</pre>
     *
     * @param body the blocking code; it runs on the calling thread
     * @param <T>  its result type
     * @return what {@code body} returned
     * @throws NullPointerException if {@code body} is null
     *                              (whatever {@code body} throws is thrown as it is)
     */
    public static <T> T blocking(Supplier<T> body) {
        Objects.requireNonNull(body, "body");
        return ManagedBlocking.blocking(body);
    }

    private static ThreadPool current() {
        WorkerThread w = WorkerThread.current();
        return w == null ? ThreadPool.global() : (ThreadPool) w.registry().publicPool();
    }
}
