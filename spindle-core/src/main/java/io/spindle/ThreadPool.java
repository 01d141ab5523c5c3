package io.spindle;

import io.spindle.internal.executor.PoolCompletableFuture;
import io.spindle.internal.registry.PoolConfig;
import io.spindle.internal.registry.Registry;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import java.util.function.LongBinaryOperator;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * A pool of worker threads that run fork-join work: {@link #join join}, {@link #scope scope}, {@link #spawn spawn},
 * {@link #install install} and {@link #broadcast broadcast}, on per-worker work-stealing deques, with idle workers
 * sleeping by the chosen {@link SleepStrategy}. It is also a full {@link ExecutorService}.
 *
 * <pre>{@code
 * try (ThreadPool pool = ThreadPool.builder().threads(8).build()) {
 *     long n = pool.install(() -> fib(35));          // fib uses Spindle.join inside
 * }
 *
 * static long fib(int n) {
 *     if (n < 20) return fibSequential(n);
 *     Pair<Long, Long> r = Spindle.join(() -> fib(n - 1), () -> fib(n - 2));
 *     return r.first() + r.second();
 * }
 * }</pre>
 *
 * <h2>Where work runs</h2>
 * A call is <em>internal</em> when the calling thread is one of this pool's workers and <em>external</em> otherwise.
 * External calls of {@code install}, {@code join}, {@code scope} and {@code broadcast} hand the work to the pool and
 * block the caller until it ends. When the caller is a worker of <em>another</em> Spindle pool, that worker keeps
 * running its own pool's jobs while it waits (as rayon does), so pools may call into each other without idling their
 * threads.
 *
 * <h2>Failures</h2>
 * {@code install}, {@code join}, {@code scope} and {@code broadcast} rethrow the failures of their closures as they are
 * (errors and unchecked exceptions included), combining several failures as their documentation says. Failures of
 * {@code spawn} and {@code execute} tasks go to the pool's uncaught-exception handler; failures of {@code submit}ted
 * tasks go into their {@link Future}.
 *
 * <h2>Shutdown</h2>
 * {@link #shutdown()} rejects new external submissions with {@link RejectedExecutionException}, lets everything
 * already accepted run (including work spawned by it), then ends the workers, each after running its exit hook.
 * {@link #close()} is shutdown plus waiting for termination. The {@link #global() global pool} never terminates.
 */
public final class ThreadPool implements ExecutorService, AutoCloseable {
    /** The largest number of workers a pool can have: the sleep counters keep thread counts in 16-bit fields. */
    public static final int MAX_THREADS = 0xFFFF;

    private final Registry registry;
    private final boolean isGlobal;

    private ThreadPool(PoolConfig config, boolean isGlobal) {
        this.isGlobal = isGlobal;
        this.registry = new Registry(config, this); // on failure, releases what it acquired
        registry.start(); // on failure, terminates the workers it started
    }

    /**
     * Returns a builder with the defaults: {@code availableProcessors()} daemon threads and
     * {@link SleepStrategy#JOBS_EVENT_COUNTER}.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the global pool, created on first use. Its size is the system property {@code spindle.threads}, else the
     * environment variable {@code SPINDLE_THREADS}, else {@code availableProcessors()}; its threads are daemons and it
     * never terminates ({@code shutdown} and {@code close} do nothing on it).
     *
     * @return the global pool
     * @throws IllegalArgumentException if {@code spindle.threads} or {@code SPINDLE_THREADS} is not a number in
     *                                  {@code 1..MAX_THREADS}
     */
    public static ThreadPool global() {
        ThreadPool pool = GlobalHolder.pool;
        return pool != null ? pool : GlobalHolder.create();
    }

    /**
     * Returns the number of worker threads, fixed when the pool was built.
     *
     * @return the number of worker threads
     */
    public int threadCount() {
        return registry.threadCount();
    }

    /**
     * Returns the sleep protocol chosen with {@link Builder#sleepStrategy(SleepStrategy)}.
     *
     * @return the sleep protocol this pool's idle workers follow
     */
    public SleepStrategy sleepStrategy() {
        return registry.sleepStrategy();
    }

    /**
     * Returns when the second half of a join on this pool becomes stealable.
     *
     * @return this pool's join strategy
     */
    public JoinStrategy joinStrategy() {
        return registry.config().joinStrategy();
    }

    /**
     * Runs {@code op} on one of this pool's workers and returns its result. Called from a worker of this pool, it runs
     * {@code op} inline. Inside {@code op}, the {@link Spindle} free functions use this pool.
     *
     * @param op  the operation
     * @param <T> its result type
     * @return what {@code op} returned
     * @throws NullPointerException       if {@code op} is null
     * @throws RejectedExecutionException if called from outside after {@link #shutdown()}
     */
    public <T> T install(Supplier<T> op) {
        Objects.requireNonNull(op, "op");
        return registry.install(op);
    }

    /**
     * Runs {@code op} on one of this pool's workers and returns once it ended: {@link #install(Supplier)} for an
     * operation that returns nothing. Called from a worker of this pool, it runs {@code op} inline. Inside
     * {@code op}, the {@link Spindle} free functions use this pool. A failure of {@code op} is rethrown as it is.
     *
     * <p>Overloads are chosen as for {@link ExecutorService#submit(Callable) submit}'s: a lambda or method reference
     * that returns a value selects {@link #install(Supplier)}, also where the value is ignored
     * ({@code pool.install(() -> list.add(x))} runs the {@code Supplier} form, and returns its result). Two calls
     * need a cast or a lambda to choose: a {@code null} argument, and a reference to an overloaded method
     * ({@code pool.install(this::compute)} where {@code compute} has overloads is ambiguous, as it is for
     * {@code submit}; write {@code pool.install(() -> compute())}).
     *
     * <pre>{@code
     * pool.install(() -> Parallel.of(items).forEach(item -> process(item)));   // the parallel forEach runs on pool
     * }</pre>
     *
     * @param op the operation
     * @throws NullPointerException       if {@code op} is null
     * @throws RejectedExecutionException if called from outside after {@link #shutdown()}
     */
    public void install(Runnable op) {
        Objects.requireNonNull(op, "op");
        registry.install(op);
    }

    /**
     * Runs {@code a} and {@code b}, potentially in parallel, and returns both results. On a worker, {@code a} runs
     * inline while {@code b} waits to be taken by an idle worker: with the default {@link JoinStrategy#LAZY lazy} joins
     * it waits in a frame local to the worker until the worker promotes it at a heartbeat (docs/DESIGN.md §7), with
     * {@link JoinStrategy#EAGER eager} joins it is stealable at once; {@code b} then runs inline if nobody took it.
     * Both closures always run. If {@code a} throws, its throwable is rethrown after {@code b} ended, with {@code b}'s
     * failure (if any) added as suppressed; otherwise {@code b}'s failure is rethrown.
     *
     * <p>One exception to "both always run": when {@code a} overflowed the stack so close to its end that the pool
     * cannot even take {@code b} back, {@code b} does not run at all, and the {@link StackOverflowError} is thrown. A
     * join still never returns or throws while {@code b} runs.
     *
     * @param a   the first closure
     * @param b   the second closure
     * @param <A> the first result type
     * @param <B> the second result type
     * @return both results
     * @throws NullPointerException if {@code a} or {@code b} is null
     */
    public <A, B> Pair<A, B> join(Supplier<A> a, Supplier<B> b) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        return registry.join(a, b);
    }

    /**
     * Runs {@code a} and {@code b}, potentially in parallel; see {@link #join(Supplier, Supplier)}.
     *
     * @param a the first closure
     * @param b the second closure
     * @throws NullPointerException if {@code a} or {@code b} is null
     */
    public void join(Runnable a, Runnable b) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        registry.join(a, b);
    }

    /**
     * Runs {@code a} and {@code b}, potentially in parallel, and returns {@code combine(a's result, b's result)}: the
     * join of {@link #join(Supplier, Supplier)} for {@code long} results, with no {@code Pair} and no boxing. On a
     * lazy pool a join nobody takes then allocates no more than the caller's closures (the {@code b} closure, and the
     * {@code a} closure where the JIT does not inline the join), which is what fine-grained recursion such as a tree
     * sum needs. Failures as
     * {@link #join(Supplier, Supplier)}; {@code combine} runs only if both closures succeeded, on the thread that ran
     * {@code a} (the caller, when it is a worker of this pool; off-pool the whole join runs on the pool).
     *
     * <pre>{@code
     * long sum(Node n) {
     *     return n.left == null ? n.value
     *             : n.value + pool.join(() -> sum(n.left), () -> sum(n.right), Long::sum);
     * }
     * }</pre>
     *
     * @param a       the first closure
     * @param b       the second closure
     * @param combine combines the two results
     * @return {@code combine.applyAsLong(a.getAsLong(), b.getAsLong())}
     * @throws NullPointerException if {@code a}, {@code b} or {@code combine} is null
     */
    public long join(LongSupplier a, LongSupplier b, LongBinaryOperator combine) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Objects.requireNonNull(combine, "combine");
        return registry.join(a, b, combine);
    }

    /**
     * Applies {@code f} to {@code x} and to {@code y}, potentially in parallel, and returns
     * {@code combine(f(x), f(y))}: the join of {@link #join(LongSupplier, LongSupplier, LongBinaryOperator)} for the
     * common shape where both halves are one function applied to two arguments, written without closures (Spice's
     * shape). When {@code f} and {@code combine} capture nothing (references to static methods, as below) a lazy join
     * that is never promoted allocates nothing: {@code f} and {@code y} wait in a frame of the worker, and {@code f(y)}
     * runs inline (BENCHMARKS.md, "The function form of join", measures it against the other forms). Failures as
     * {@link #join(Supplier, Supplier)}, with {@code f(x)} as {@code a} and {@code f(y)} as {@code b}; {@code combine}
     * runs only if both succeeded, on the thread that ran {@code f(x)} (the caller, when it is a worker of this
     * pool). {@code x} and
     * {@code y} may be null if {@code f} accepts null. Primitive arguments are boxed, which allocates nothing only for
     * the values the JDK caches ({@code -128..127}); a tree's nodes or any other object the caller already has cost
     * nothing more.
     *
     * <pre>{@code
     * static long sum(Node n) {
     *     return n.left == null ? n.value : n.value + pool.join(Sums::sum, n.left, n.right, Long::sum);
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
    public <T> long join(ToLongFunction<? super T> f, T x, T y, LongBinaryOperator combine) {
        Objects.requireNonNull(f, "f");
        Objects.requireNonNull(combine, "combine");
        return registry.join(f, x, y, combine);
    }

    /**
     * Opens a {@link Scope}, runs {@code body} in it on one of this pool's workers, and returns once {@code body} and
     * every task spawned into the scope ended. The first failure (in time) of the body or of any task is rethrown, the
     * others added to it as suppressed. For a body that computes a value, see {@link #scopeWithResult(Function)}.
     *
     * <pre>{@code
     * pool.scope(s -> s.spawn(task));
     * pool.scope(s -> items.forEach(x -> s.spawn(() -> use(x))));
     * }</pre>
     *
     * @param body the body
     * @throws NullPointerException if {@code body} is null
     */
    public void scope(Consumer<Scope> body) {
        Objects.requireNonNull(body, "body");
        registry.scope(s -> {
            body.accept(s);
            return null;
        });
    }

    /**
     * As {@link #scope(Consumer)}, for a body that returns a value: returns what {@code body} returned, once it and
     * every task spawned into the scope ended. A name of its own, not an overload of {@code scope}: with both a
     * {@code Function} and a {@code Consumer} overload, javac could not choose for a one-line lambda such as
     * {@code s -> s.spawn(t)} (the JDK's {@code thenApply} / {@code thenAccept} avoid the same trap).
     *
     * <pre>{@code
     * long total = pool.scopeWithResult(s -> {
     *     s.spawn(() -> left.addAndGet(sum(lo, mid)));
     *     return sum(mid, hi);
     * });
     * }</pre>
     *
     * @param body the body
     * @param <T>  its result type
     * @return what {@code body} returned
     * @throws NullPointerException if {@code body} is null
     */
    public <T> T scopeWithResult(Function<Scope, T> body) {
        Objects.requireNonNull(body, "body");
        return registry.scope(body);
    }

    /**
     * Runs {@code task} asynchronously on this pool (fire and forget). It never runs inline on the caller's stack. A
     * failure goes to the pool's uncaught-exception handler; the pool does not terminate while spawned tasks are
     * outstanding.
     *
     * @param task the task
     * @throws NullPointerException       if {@code task} is null
     * @throws RejectedExecutionException if called from outside after {@link #shutdown()}
     */
    public void spawn(Runnable task) {
        Objects.requireNonNull(task, "task");
        registry.spawn(task, "spawn");
    }

    /**
     * Runs {@code op} once on every worker (copy {@code i} on worker {@code i}) and returns the results in index
     * order, once every copy ended. A failure is rethrown after all copies ended, the others added as suppressed.
     *
     * @param op  the operation
     * @param <T> its result type
     * @return the results, element {@code i} from worker {@code i}
     * @throws NullPointerException       if {@code op} is null
     * @throws RejectedExecutionException if called from outside after {@link #shutdown()}
     */
    public <T> List<T> broadcast(Function<BroadcastContext, T> op) {
        Objects.requireNonNull(op, "op");
        return registry.broadcast(op);
    }

    /**
     * This pool's asynchronous IO (docs/DESIGN.md §6): non-blocking channels served by the workers' own pollers,
     * futures that complete on the pool. The same instance every call.
     *
     * @return this pool's IO
     */
    public PoolIO io() {
        return registry.io();
    }

    /**
     * Returns the pool's counters summed over its workers; see {@link PoolStats} for how exact they are.
     *
     * @return a snapshot of the pool's counters
     */
    public PoolStats stats() {
        return registry.stats();
    }

    /**
     * Runs {@code supplier} on this pool and returns a future of its result, like
     * {@code CompletableFuture.supplyAsync(supplier, pool)} but with two differences: dependent stages added with
     * the {@code *Async} methods and no executor run on this pool (not on {@code ForkJoinPool.commonPool()}), and
     * {@code join()} or {@code get()} called on a worker of a Spindle pool runs that pool's jobs while it waits
     * instead of blocking the worker (so a task may wait for a future of its own pool, even on one thread).
     *
     * <pre>{@code
     * CompletableFuture<Long> f = pool.supplyAsync(() -> fib(30))
     *         .thenApplyAsync(n -> n * 2);          // also on pool
     * }</pre>
     *
     * <p>A failure of {@code supplier} completes the future exceptionally ({@code join()} throws it wrapped in a
     * {@link java.util.concurrent.CompletionException}, {@code get()} in an {@link ExecutionException}). Cancelling
     * the future completes it at once with a {@link java.util.concurrent.CancellationException}; if the task had not
     * started, it then does nothing when a worker reaches it (it keeps its place in the queue until then); if it was
     * running, it is not interrupted and its result is dropped.
     *
     * @param supplier the computation
     * @param <T>      its result type
     * @return a future completed with what {@code supplier} returns or throws
     * @throws NullPointerException       if {@code supplier} is null
     * @throws RejectedExecutionException if called from outside after {@link #shutdown()}; as with
     *                                    {@code CompletableFuture.supplyAsync}, no future is returned
     */
    public <T> CompletableFuture<T> supplyAsync(Supplier<T> supplier) {
        Objects.requireNonNull(supplier, "supplier");
        return new PoolCompletableFuture<T>(this).completeAsync(supplier, this);
    }

    /**
     * Runs {@code task} on this pool and returns a future completed when it ends; see {@link #supplyAsync(Supplier)}.
     *
     * @param task the task
     * @return a future completed with null when {@code task} returns, or exceptionally with what it throws
     * @throws NullPointerException       if {@code task} is null
     * @throws RejectedExecutionException if called from outside after {@link #shutdown()}
     */
    public CompletableFuture<Void> runAsync(Runnable task) {
        Objects.requireNonNull(task, "task");
        return new PoolCompletableFuture<Void>(this).completeAsync(() -> {
            task.run();
            return null;
        }, this);
    }

    // ----------------------------------------------------------------------------------------------------------------
    // ExecutorService

    /**
     * Runs {@code command} asynchronously, as {@link #spawn(Runnable)} does.
     *
     * @throws NullPointerException       if {@code command} is null
     * @throws RejectedExecutionException if called from outside after {@link #shutdown()}
     */
    @Override
    public void execute(Runnable command) {
        Objects.requireNonNull(command, "command");
        registry.spawn(command, "execute");
    }

    @Override
    public <T> Future<T> submit(Callable<T> task) {
        Objects.requireNonNull(task, "task");
        return registry.submit(task, "submit");
    }

    @Override
    public <T> Future<T> submit(Runnable task, T result) {
        Objects.requireNonNull(task, "task");
        return registry.submit(() -> {
            task.run();
            return result;
        }, "submit");
    }

    @Override
    public Future<?> submit(Runnable task) {
        return submit(task, null);
    }

    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) throws InterruptedException {
        Objects.requireNonNull(tasks, "tasks");
        return registry.invokeAll(tasks, -1L);
    }

    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException {
        Objects.requireNonNull(tasks, "tasks");
        Objects.requireNonNull(unit, "unit");
        return registry.invokeAll(tasks, Math.max(0L, unit.toNanos(timeout)));
    }

    /**
     * Runs the tasks and returns the result of one that succeeded, cancelling the others. If every task fails, the
     * {@link ExecutionException}'s cause is the first failure in time, with the others added to it as suppressed.
     */
    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks) throws InterruptedException, ExecutionException {
        Objects.requireNonNull(tasks, "tasks");
        try {
            return registry.invokeAny(tasks, -1L);
        } catch (TimeoutException impossible) {
            throw new AssertionError("untimed invokeAny timed out", impossible);
        }
    }

    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(tasks, "tasks");
        Objects.requireNonNull(unit, "unit");
        return registry.invokeAny(tasks, Math.max(0L, unit.toNanos(timeout)));
    }

    /** Starts an orderly shutdown (see the class documentation). Does nothing on the {@link #global() global pool}. */
    @Override
    public void shutdown() {
        if (!isGlobal) {
            registry.shutdown();
        }
    }

    /**
     * As {@link #shutdown()}, and also removes every task submitted from outside the pool that has not started
     * ({@code execute}, {@code submit}, {@code spawn} from outside) and returns them; each accepted task either runs
     * or is returned. Running tasks' threads are interrupted once. Work spawned from inside running tasks still runs,
     * and so do blocking calls ({@code install}, {@code join}, {@code scope}, {@code broadcast}) whose callers wait
     * for them. Does nothing and returns an empty list on the {@link #global() global pool}.
     */
    @Override
    public List<Runnable> shutdownNow() {
        return isGlobal ? List.of() : registry.shutdownNow();
    }

    @Override
    public boolean isShutdown() {
        return registry.isShutdown();
    }

    @Override
    public boolean isTerminated() {
        return registry.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(unit, "unit");
        return registry.awaitTermination(unit.toNanos(timeout));
    }

    /**
     * Shuts the pool down and waits until it terminated. Idempotent. Does nothing on the {@link #global() global
     * pool}. Called from one of this pool's own workers, it only shuts down (a worker cannot wait for itself to end).
     */
    @Override
    public void close() {
        if (isGlobal) {
            return;
        }
        registry.shutdown();
        if (registry.isCurrentThreadWorker()) {
            return;
        }
        boolean interrupted = false;
        while (true) {
            try {
                if (registry.awaitTermination(Duration.ofDays(1).toNanos())) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "ThreadPool[" + registry + "]";
    }

    // ----------------------------------------------------------------------------------------------------------------

    /**
     * Holds the lazily created global pool. Creation is retried if it failed (a bad configuration, a worker that could
     * not start); a failed attempt leaves no thread or descriptor behind (see {@link Builder#build()}).
     */
    private static final class GlobalHolder {
        static volatile ThreadPool pool; // volatile: published once, read without locking

        static synchronized ThreadPool create() {
            if (pool == null) {
                int threads = PoolConfig.globalThreadCount();
                pool = new ThreadPool(new Builder().threads(threads)
                        .threadName(i -> "spindle-global-" + i).toConfig(), true);
            }
            return pool;
        }
    }

    /**
     * Configures and builds a {@link ThreadPool}. Every setter checks its argument at once.
     *
     * <pre>{@code
     * ThreadPool pool = ThreadPool.builder()
     *         .threads(4)
     *         .threadName(i -> "render-" + i)
     *         .sleepStrategy(SleepStrategy.HINT_PIPE)
     *         .uncaughtExceptionHandler((t, e) -> System.err.println(t.getName() + ": spawned task failed: " + e))
     *         .build();
     * }</pre>
     */
    public static final class Builder {
        private int threads = Runtime.getRuntime().availableProcessors();
        private IntFunction<String> threadName = null;
        private boolean daemon = true;
        private long stackSize = 0L;
        private SleepStrategy sleepStrategy = SleepStrategy.JOBS_EVENT_COUNTER;
        private JoinStrategy joinStrategy = null;       // null: the system property's, else LAZY (read at build)
        private long heartbeatIntervalNanos = -1L;       // negative: the system property's, else the default
        private Thread.UncaughtExceptionHandler handler = null;
        private IntConsumer onThreadStart = null;
        private IntConsumer onThreadExit = null;
        private int maxBlockingThreads = PoolConfig.DEFAULT_MAX_BLOCKING_THREADS;
        private long blockingKeepAliveNanos = PoolConfig.DEFAULT_BLOCKING_KEEP_ALIVE_NANOS;

        private Builder() {}

        /**
         * Sets the number of workers.
         *
         * @param n the number of workers, {@code 1..MAX_THREADS}; default {@code availableProcessors()}
         * @return this builder
         * @throws IllegalArgumentException if {@code n} is out of range
         */
        public Builder threads(int n) {
            if (n < 1 || n > MAX_THREADS) {
                throw new IllegalArgumentException(
                        "threads must be in 1.." + MAX_THREADS + " (ThreadPool.MAX_THREADS), got " + n);
            }
            this.threads = n;
            return this;
        }

        /**
         * Sets how workers are named, which is what thread dumps and profilers show.
         *
         * @param name maps a worker's index (0-based) to its thread name; default {@code "spindle-" + n + "-worker-" +
         *             index}, where {@code n} numbers the pools of this JVM from 1 in the order they were built, so
         *             that a thread dump tells two pools' workers apart
         * @return this builder
         * @throws NullPointerException if {@code name} is null
         */
        public Builder threadName(IntFunction<String> name) {
            this.threadName = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * Sets whether workers are daemon threads, which do not keep the JVM alive.
         *
         * @param on whether workers are daemon threads; default {@code true}
         * @return this builder
         */
        public Builder daemon(boolean on) {
            this.daemon = on;
            return this;
        }

        /**
         * Sets the stack size requested for each worker, for deeply recursive work; the JVM may round or ignore it.
         *
         * @param bytes the workers' requested stack size, or 0 for the platform default (the default)
         * @return this builder
         * @throws IllegalArgumentException if {@code bytes} is negative
         */
        public Builder stackSize(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException(
                        "stackSize must be in 0.." + Long.MAX_VALUE + " bytes (0 = platform default), got " + bytes);
            }
            this.stackSize = bytes;
            return this;
        }

        /**
         * Sets how idle workers sleep and how new work wakes them.
         *
         * @param s the sleep protocol; default {@link SleepStrategy#JOBS_EVENT_COUNTER}
         * @return this builder
         * @throws NullPointerException if {@code s} is null
         */
        public Builder sleepStrategy(SleepStrategy s) {
            this.sleepStrategy = Objects.requireNonNull(s, "sleepStrategy");
            return this;
        }

        /**
         * Sets when the second half of a join becomes stealable (docs/DESIGN.md §7).
         *
         * @param s the join strategy; default {@link JoinStrategy#LAZY}, or the system property
         *          {@code spindle.joinStrategy} ({@code lazy} or {@code eager}) when set
         * @return this builder
         * @throws NullPointerException if {@code s} is null
         */
        public Builder joinStrategy(JoinStrategy s) {
            this.joinStrategy = Objects.requireNonNull(s, "joinStrategy");
            return this;
        }

        /**
         * Sets how often, at most, a worker running {@link JoinStrategy#LAZY lazy} joins promotes a waiting join half
         * for idle workers to steal. The worker measures the interval itself at its joins: no timer thread runs, and an
         * idle pool uses no CPU whatever the interval. Shorter intervals spread fine-grained work sooner at a little more
         * cost per promotion; {@link Duration#ZERO} promotes at every join while a worker is idle (a stress setting for
         * tests, not for production).
         *
         * @param interval the heartbeat interval, {@code 0..1 s}; default 100 µs, or the system property
         *                 {@code spindle.heartbeatMicros} when set
         * @return this builder
         * @throws NullPointerException     if {@code interval} is null
         * @throws IllegalArgumentException if {@code interval} is negative or longer than one second
         */
        public Builder heartbeatInterval(Duration interval) {
            Objects.requireNonNull(interval, "heartbeatInterval");
            if (interval.isNegative() || interval.compareTo(Duration.ofSeconds(1)) > 0) {
                throw new IllegalArgumentException("heartbeatInterval must be in 0..1 s, got " + interval);
            }
            this.heartbeatIntervalNanos = interval.toNanos();
            return this;
        }

        /**
         * Sets where failures of fire-and-forget tasks go, since no caller is waiting to receive them.
         *
         * @param h receives failures of {@code spawn} and {@code execute} tasks, with the worker thread that ran them;
         *          default: the worker thread's own uncaught-exception handler (normally the JVM default handler)
         * @return this builder
         * @throws NullPointerException if {@code h} is null
         */
        public Builder uncaughtExceptionHandler(Thread.UncaughtExceptionHandler h) {
            this.handler = Objects.requireNonNull(h, "uncaughtExceptionHandler");
            return this;
        }

        /**
         * Sets a hook run once by each worker as it starts, for per-thread set-up such as thread-local state. It runs
         * once per thread: also on a thread that stands in for a worker blocked in {@link Spindle#blocking} or
         * {@link Spindle#managedBlock}, with the index it stands in for, while that index's previous thread may still
         * be finishing its task. Per-thread state is what it is for, not per-index state.
         *
         * @param hook runs on each worker, with its index, before it takes any work
         * @return this builder
         * @throws NullPointerException if {@code hook} is null
         */
        public Builder onThreadStart(IntConsumer hook) {
            this.onThreadStart = Objects.requireNonNull(hook, "onThreadStart");
            return this;
        }

        /**
         * Sets a hook run once by each worker as it ends, for per-thread clean-up. Like the start hook it runs once per
         * thread: also on a thread beyond the workers that ends after its {@link Builder#blockingKeepAlive keep-alive},
         * while its index lives on in another thread.
         *
         * @param hook runs on each worker, with its index, after it took its last work and before the pool terminates
         * @return this builder
         * @throws NullPointerException if {@code hook} is null
         */
        public Builder onThreadExit(IntConsumer hook) {
            this.onThreadExit = Objects.requireNonNull(hook, "onThreadExit");
            return this;
        }

        /**
         * Sets how many threads may stand in for workers blocked in {@link Spindle#blocking} or
         * {@link Spindle#managedBlock}: while a worker blocks there, a stand-in takes over its place in the pool (its
         * index, its share of the sleep protocol, its IO), so the pool keeps {@link #threads(int) threads} workers
         * running. Past the cap, a blocking call blocks its worker, as it would without those methods.
         *
         * @param n at most this many threads beyond the workers stand in, finish their tasks after a blocking call,
         *          or wait as spares, at any time (a spare retired to make room for another worker's stand-in stops
         *          counting at once, though its thread may still be ending, its exit hook running); 0 turns stand-ins
         *          off. Default 256, as the common {@code ForkJoinPool}'s spare threads
         * @return this builder
         * @throws IllegalArgumentException if {@code n} is negative (the message names it)
         */
        public Builder maxBlockingThreads(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("maxBlockingThreads must be at least 0, got " + n);
            }
            this.maxBlockingThreads = n;
            return this;
        }

        /**
         * Sets how long a thread beyond the workers (one that stood in, or one back from its blocking call with its
         * task finished) waits, idle, to stand in again before it ends.
         *
         * @param keepAlive more than 0 and at most an hour; default 5 s
         * @return this builder
         * @throws NullPointerException     if {@code keepAlive} is null
         * @throws IllegalArgumentException if it is not in that range (the message names it)
         */
        public Builder blockingKeepAlive(Duration keepAlive) {
            Objects.requireNonNull(keepAlive, "blockingKeepAlive");
            if (keepAlive.isNegative() || keepAlive.isZero() || keepAlive.compareTo(Duration.ofHours(1)) > 0) {
                throw new IllegalArgumentException("blockingKeepAlive must be more than 0 and at most 1 h, got "
                        + keepAlive);
            }
            this.blockingKeepAliveNanos = keepAlive.toNanos();
            return this;
        }

        /**
         * Builds the pool and starts its workers. Calls {@code threadName} once per worker, in index order, before any
         * worker starts.
         *
         * <p>A failed build leaves nothing behind. Whatever it throws (a failure of {@code threadName}, or
         * {@code Thread.start} refusing a worker, e.g. {@code OutOfMemoryError: unable to create native thread})
         * reaches the caller as it is. Workers that had already started are shut down as {@link ThreadPool#shutdown()}
         * would: each ends once its start hook returned (and any work that hook spawned ran), after running its exit
         * hook, so none is left to keep the JVM alive; {@code build()} does not wait for them. HINT_PIPE's pipe and
         * selector are closed before {@code build()} throws, or, if workers had started, by the last of them to end.
         * A failure of this clean-up is added to the thrown one as suppressed.
         *
         * @return the new pool
         * @throws java.io.UncheckedIOException with {@link SleepStrategy#HINT_PIPE}, if the OS refuses a pipe or selector
         * @throws NullPointerException         if {@code threadName} returned null (the message names the worker)
         */
        public ThreadPool build() {
            return new ThreadPool(toConfig(), false);
        }

        private PoolConfig toConfig() {
            JoinStrategy joins = joinStrategy != null ? joinStrategy : PoolConfig.defaultJoinStrategy();
            long beat = heartbeatIntervalNanos >= 0 ? heartbeatIntervalNanos : PoolConfig.defaultHeartbeatNanos();
            return new PoolConfig(threads, threadName, daemon, stackSize, sleepStrategy, joins, beat, handler,
                    onThreadStart, onThreadExit, maxBlockingThreads, blockingKeepAliveNanos);
        }
    }
}
