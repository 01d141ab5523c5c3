package io.spindle.internal.registry;

import io.spindle.BroadcastContext;
import io.spindle.Pair;
import io.spindle.PoolStats;
import io.spindle.Scope;
import io.spindle.SleepStrategy;
import io.spindle.WorkerStats;
import io.spindle.internal.event.PoolEvents;
import io.spindle.internal.event.WakeReason;
import io.spindle.internal.executor.Invoke;
import io.spindle.internal.executor.PoolFuture;
import io.spindle.internal.io.PoolIoImpl;
import io.spindle.internal.job.BroadcastJob;
import io.spindle.internal.job.Failures;
import io.spindle.internal.job.InjectedJob;
import io.spindle.internal.job.InstallJob;
import io.spindle.internal.job.Job;
import io.spindle.internal.job.SpawnJob;
import io.spindle.internal.join.Join;
import io.spindle.internal.lazy.LazyJoin;
import io.spindle.internal.latch.BlockingLatch;
import io.spindle.internal.latch.CountLatch;
import io.spindle.internal.latch.Latch;
import io.spindle.internal.latch.LatchOwner;
import io.spindle.internal.latch.WorkerLatch;
import io.spindle.internal.scope.ScopeImpl;
import io.spindle.internal.sleep.SleepProtocol;
import io.spindle.internal.sleep.SleepProtocols;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongBinaryOperator;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * The engine behind one {@code ThreadPool}: its workers, the global injector, the sleep protocol and termination.
 *
 * <h2>Implementation overview</h2>
 * Each worker owns a Chase-Lev deque ({@code internal.deque}); a join pushes its second half there and runs the first
 * inline ({@code internal.join}). Work from threads outside the pool enters a FIFO injector, broadcast copies go to
 * each worker's private queue. A worker searches its own deque, its broadcast queue, the other deques from a random
 * victim, then the injector, and when it finds nothing it follows the pool's sleep protocol ({@code internal.sleep},
 * whose package-info states the protocol and its invariants). Threads wait for results on latches
 * ({@code internal.latch}): a worker waits by running other jobs and sleeping on a four-state latch whose setter wakes
 * only that worker; a thread outside the pool parks. Termination: a count of outstanding accepted work, held by the
 * pool until shutdown ({@link Termination}); when it reaches zero every worker's terminate latch is set.
 */
public final class Registry implements LatchOwner, SpawnJob.Sink {
    /** Numbers pools in creation order, for their names. */
    private static final AtomicInteger POOL_NUMBERS = new AtomicInteger();
    /** How often a wait for termination settles owed counts (E1): only while a thread waits and work is left. */
    private static final long OWED_SETTLE_SLICE_NANOS = 50_000_000L;

    static {
        // Link the failure paths' pause now: its call sites' first execution resolves them, which with the stack
        // exhausted would itself throw (see Failures.pauseAfterRuntimeFailure).
        Failures.pauseAfterRuntimeFailure(0);
    }

    /**
     * Resolves the class {@link #wakeLatchOwner}'s catch clause names while the stack has room: a catch type is
     * resolved when an exception is first matched against it, which at the stack's edge could itself overflow.
     */
    @SuppressWarnings("unused")
    private static final Class<?> STACK_EDGE = StackOverflowError.class;

    private final String name;
    private final PoolEvents events;
    private final PoolConfig config;
    private final Object publicPool;
    private final SleepProtocol sleep;
    /** E4 at the stack's edge: latch wake-ups a waker could not make where it stood ({@link OwedLatchWakes}). */
    final OwedLatchWakes owedLatchWakes;
    /** Delivers one owed wake-up; made once, so that a delivery allocates nothing. */
    private final OwedLatchWakes.Waker wakeOwedLatchOwner;
    /** IO6: an owed notification of a queued IO job ({@link #injectKept}). */
    private final Runnable noticeOwedInjection;
    /** IO10: an owed wake-up of a worker by its IO poller, made by that poller's unblock ({@link OwedLatchWakes}). */
    private final OwedLatchWakes.Waker wakeOwedPollerOwner;
    /** IO6: injects again a job owed because its first injection could not queue it ({@link #injectKept}). */
    private final Consumer<InjectedJob> injectOwedJob;
    /** IO (docs/DESIGN.md §6): each worker's poller is also the Blocker its sleep protocol blocks with (IO5). */
    private final PoolIoImpl io;
    /**
     * Each index's current holder. Replaced only by a hand-off (B2, {@link StandIns}), with a release store; readers
     * read plainly: a stale element is the detached thread, whose deque stays stealable (B3), and the new holder's
     * fields are final or its own.
     */
    private final WorkerThread[] workers;
    private static final java.lang.invoke.VarHandle WORKER_SLOT =
            java.lang.invoke.MethodHandles.arrayElementVarHandle(WorkerThread[].class);
    /** B2: each index's broadcast copies, shared by every thread that holds the index in turn. */
    private final ConcurrentLinkedQueue<Job>[] broadcastQueues;
    private final StandIns standIns;
    /** B2: what a stand-in is given: its index's worker name (suffixed), and what the workers inherited. */
    private final String[] workerNames;
    private final ClassLoader workerContextLoader;
    private final int workerPriority;
    private final ConcurrentLinkedQueue<InjectedJob> injector = new ConcurrentLinkedQueue<>();
    private final LongAdder injected = new LongAdder();
    /** Injections whose poster took its job back (E1), guarded by itself: not counted in stats' {@code injected}. */
    private final Object withdrawnLock = new Object();
    private long withdrawnInjections;
    private final Termination termination = new Termination(this::terminateWorkers);
    private final CountDownLatch workersExited;

    /**
     * @param publicPool the {@code ThreadPool} this registry serves, returned to free functions on its workers
     * @throws java.io.UncheckedIOException if the HINT_PIPE protocol cannot open its pipe or selector
     */
    public Registry(PoolConfig config, Object publicPool) {
        this.config = config;
        this.publicPool = publicPool;
        // incrementAndGet: atomic so that names are unique; no ordering needed, nothing else is published with it.
        this.name = "spindle-" + POOL_NUMBERS.incrementAndGet();
        initializeNow(WakeReason.class, BlockingLatch.class, CountLatch.class);
        FirstUse.ensureLinked(); // E6: completion and wake-ups linked (once per JVM) before this pool accepts work
        this.events = new PoolEvents(name, config.sleepStrategy().name(), this::workerIndexOf);
        this.standIns = new StandIns(this, config.maxBlockingThreads(), config.blockingKeepAliveNanos());
        this.owedLatchWakes = new OwedLatchWakes(config.threads()); // before the pollers, which owe into it (IO10)
        this.io = new PoolIoImpl(this, config.threads()); // opens nothing until the first IO operation
        this.sleep = SleepProtocols.create(config.sleepStrategy(), config.threads(), events, io::poller);
        this.wakeOwedLatchOwner = index -> {
            standIns.unparkDetached(index); // B3, as wakeLatchOwner
            sleep.notifyWorkerLatchIsSet(index);
        };
        this.noticeOwedInjection = () -> sleep.newInjectedJobs(1, false);
        this.wakeOwedPollerOwner = index -> io.poller(index).unblockOwed();
        this.injectOwedJob = this::injectKept;
        linkOwedLatchWakes();
        try {
            @SuppressWarnings("unchecked")
            ConcurrentLinkedQueue<Job>[] queues = new ConcurrentLinkedQueue[config.threads()];
            for (int i = 0; i < queues.length; i++) {
                queues[i] = new ConcurrentLinkedQueue<>();
            }
            this.broadcastQueues = queues;
            this.workers = new WorkerThread[config.threads()];
            this.workerNames = new String[workers.length];
            for (int i = 0; i < workers.length; i++) {
                workers[i] = newWorker(i);
                workerNames[i] = workers[i].getName();
            }
            this.workerContextLoader = Thread.currentThread().getContextClassLoader(); // what the workers inherited
            this.workerPriority = Thread.currentThread().getPriority();
            replaceWorker(0, workers[0]); // E6: links the hand-off's store now, not at the JVM's first hand-off
            this.workersExited = new CountDownLatch(workers.length);
        } catch (Throwable failure) {
            // No worker has started, so nothing else will ever close the protocol (HINT_PIPE holds descriptors).
            closeAfterFailure(sleep, failure);
            throw failure;
        }
    }

    /** Worker {@code i}: named by the builder's {@code threadName}, or {@code "<pool>-worker-<i>"}. */
    private WorkerThread newWorker(int i) {
        String threadName = config.threadName() == null
                ? this.name + "-worker-" + i // "spindle-2-worker-0": a thread dump tells pools apart
                : config.threadName().apply(i); // user code: may throw or return null
        if (threadName == null) {
            throw new NullPointerException("threadName returned null for worker " + i);
        }
        WorkerThread w = new WorkerThread(this, i, threadName, config.stackSize(), false);
        w.setDaemon(config.daemon());
        return w;
    }

    /**
     * B2: the {@code n}th stand-in, for index {@code i}, not started. Named after the index's first worker (no user
     * code runs after the build), and given what the workers inherited from the thread that built the pool, not what
     * the blocking task's thread has now (its context class loader, its priority).
     */
    WorkerThread newStandIn(int i, int n) {
        WorkerThread w = new WorkerThread(this, i, workerNames[i] + "-standin-" + n, config.stackSize(), true);
        w.setDaemon(config.daemon());
        w.setContextClassLoader(workerContextLoader);
        w.setPriority(workerPriority);
        return w;
    }

    /** B2: the hand-off's store of index {@code i}'s new holder (release: see {@link #workers}). */
    void replaceWorker(int i, WorkerThread holder) {
        WORKER_SLOT.setRelease(workers, i, holder);
    }

    ConcurrentLinkedQueue<Job> broadcastQueue(int i) {
        return broadcastQueues[i];
    }

    /** The threads beyond the workers (managed blocking: {@code io.spindle.internal.blocking}). */
    public StandIns standIns() {
        return standIns;
    }

    /**
     * B2: the calling worker hands its index to a stand-in before a blocking call, if it may (see
     * {@code io.spindle.internal.blocking}).
     *
     * @return whether it did (the caller then reports the call's return with {@link #blockingReturned()})
     */
    public boolean handOffBeforeBlocking(WorkerThread caller) {
        return standIns.handOff(caller);
    }

    public void blockingReturned() {
        standIns.blockingReturned();
    }

    /**
     * Runs the static initializers of classes that the engine's own paths use only later (a wake-up's reason, a
     * caller's or a scope's latch), here, on the thread that builds the pool. An initializer that fails leaves its
     * class unusable for the JVM's life; met later, on a wake-up or a latch's set, out of memory or out of stack, it
     * would make every later wake-up or latch throw {@code NoClassDefFoundError}, and a waiter could be stranded (a
     * reviewer broke WakeReason so, through the first outside spawn). Here a failure fails the build that met it.
     */
    private static void initializeNow(Class<?>... classes) {
        for (Class<?> c : classes) {
            try {
                Class.forName(c.getName(), true, c.getClassLoader());
            } catch (ClassNotFoundException impossible) {
                throw new AssertionError(impossible); // loaded already: the literal names it
            }
        }
    }

    private static void closeAfterFailure(SleepProtocol sleep, Throwable failure) {
        try {
            sleep.close();
        } catch (Throwable second) {
            Failures.addSuppressedOnce(failure, second);
        }
    }

    /**
     * Test seam: how {@link #start} starts a worker. Tests in this package replace it to make {@code Thread.start}
     * fail part-way; volatile because a test thread sets it while other threads build pools.
     */
    static volatile Consumer<WorkerThread> starter = Thread::start;

    /**
     * Starts the workers; called once the public pool is fully constructed. If a worker cannot be started, the pool
     * is terminated (see {@code abandonStart}) and the failure rethrown.
     */
    public void start() {
        Consumer<WorkerThread> start = starter; // volatile read, once per pool
        int started = 0;
        try {
            for (; started < workers.length; started++) {
                start.accept(workers[started]);
            }
        } catch (Throwable failure) {
            abandonStart(started, failure);
            throw failure;
        }
    }

    /**
     * Worker {@code failed} could not be started (out of native threads, or anything): ends the workers that did
     * start through the ordinary termination path, and counts the others as exited, so that the last worker out (or
     * this thread, if none started) closes the sleep protocol. Nobody else can hold this pool yet, so shutdown
     * leaves only the pool's own count, and whatever the started workers' start hooks spawned, to drain.
     */
    private void abandonStart(int failed, Throwable failure) {
        try {
            // Sets every terminate latch (waking owners asleep on it, L1) and calls sleep.terminate(), exactly as a
            // shutdown of an idle pool does. Before the count-downs below, so that the protocol is still open then.
            termination.shutdown();
        } catch (Throwable second) {
            Failures.addSuppressedOnce(failure, second);
        }
        for (int i = failed; i < workers.length; i++) {
            // NEW: start() never got the thread going (a JDK that failed after start0 would leave it RUNNABLE, and
            // that worker counts itself down as it exits).
            if (workers[i].getState() == Thread.State.NEW) {
                try {
                    workerExited();
                } catch (Throwable second) {
                    Failures.addSuppressedOnce(failure, second);
                }
            }
        }
    }

    public Object publicPool() {
        return publicPool;
    }

    public int threadCount() {
        return workers.length;
    }

    public PoolConfig config() {
        return config;
    }

    public SleepStrategy sleepStrategy() {
        return config.sleepStrategy();
    }

    SleepProtocol sleep() {
        return sleep;
    }

    public PoolEvents events() {
        return events;
    }

    /** The pool's name in JFR events and {@code toString}: {@code spindle-<n>}, n counting pools in creation order. */
    public String name() {
        return name;
    }

    /** @return {@code t}'s index if it is one of this pool's workers, else {@link PoolEvents#NOT_A_WORKER} */
    private int workerIndexOf(Thread t) {
        return t instanceof WorkerThread && ((WorkerThread) t).registry() == this ? ((WorkerThread) t).index()
                : PoolEvents.NOT_A_WORKER;
    }

    public WorkerThread[] workers() {
        return workers;
    }

    /** @return the calling thread if it is one of this pool's workers, else null */
    public WorkerThread currentWorker() {
        WorkerThread w = WorkerThread.current();
        return w != null && w.registry() == this ? w : null;
    }

    public boolean isCurrentThreadWorker() {
        return currentWorker() != null;
    }

    // --- the injector -----------------------------------------------------------------------------------------------

    /**
     * Puts {@code job} into the injector and tells the sleep protocol. E1: either the job is accepted for good and this
     * returns, or this throws and the job is not in the pool: the caller then releases what it reserved for it.
     */
    private void inject(InjectedJob job) {
        boolean queueWasEmpty = injector.isEmpty();
        injected.increment(); // before the job is visible, so that stats never show a job run but not injected
        try {
            injector.add(job); // the queue's own publication: a later poll sees the job fully built
        } catch (Throwable failure) {
            // E1: no node for it (out of memory), or a stack overflow inside the queue's offer, which may come after
            // the node was linked (its tail update is a call of its own): the job may be visible. Take it back as a
            // failed notification does below (no call until the throw), unless a worker claimed it first: then it
            // runs, and the injection stands without a notification (the claimer is awake).
            boolean withdrawn = false;
            synchronized (job) {
                if (!job.claimed) {
                    job.claimed = true;
                    withdrawn = true;
                }
            }
            if (withdrawn) {
                synchronized (withdrawnLock) {
                    withdrawnInjections++; // subtracted from `injected` by stats(): a decrement here would be a call
                }
                throw failure;
            }
            return;
        }
        try {
            sleep.newInjectedJobs(1, queueWasEmpty); // J5: the poster's fence is inside
        } catch (Throwable failure) {
            // E1: the protocol's step threw and rolled its own bookkeeping back, but nobody may have been woken for
            // the job. Take it back by claiming it, unless a worker claimed it first: then it runs, and its claim was
            // the wake-up it needed. InjectedJob.claim's body, inline: this may be the depth at which the protocol's
            // step overflowed the stack, and until the throw nothing here makes a call that could overflow again
            // (a node left behind holds a claimed job, which its poller drops).
            boolean withdrawn = false;
            synchronized (job) {
                if (!job.claimed) {
                    job.claimed = true;
                    withdrawn = true;
                }
            }
            if (withdrawn) {
                synchronized (withdrawnLock) {
                    withdrawnInjections++; // subtracted from `injected` by stats(): a decrement here would be a call
                }
                throw failure;
            }
            return;
        }
        try {
            events.injected(job instanceof SpawnJob ? "spawn" : "install", 1); // JFR, once the protocol was told
        } catch (Throwable failure) {
            // The job is accepted and the protocol told: a missing JFR event must not turn that into a failure.
        }
    }

    /** The next injected job this caller owns, or null: a job its poster took back (E1) is dropped here. */
    Job pollInjected() {
        for (InjectedJob job; (job = injector.poll()) != null; ) {
            if (job.claim()) {
                return job;
            }
        }
        return null;
    }

    boolean hasInjectedJobs() {
        return !injector.isEmpty();
    }

    /** Puts a job into this pool: on the caller's deque if it is one of our workers, else into the injector. */
    public void pushOrInject(InjectedJob job) {
        WorkerThread w = currentWorker();
        if (w != null && !w.isDetached()) {
            w.push(job);
        } else {
            inject(job); // B3: a detached thread's deque may be one nobody scans (a spare's, in its exit hook)
        }
    }

    // --- operations -------------------------------------------------------------------------------------------------

    public <T> T install(Supplier<T> op) {
        if (currentWorker() != null) {
            return op.get();
        }
        return installCold(op, "install");
    }

    /** As {@link #install(Supplier)}, for an operation with no result; inline on our worker, with no closure. */
    public void install(Runnable op) {
        if (currentWorker() != null) {
            op.run();
            return;
        }
        installCold(() -> {
            op.run();
            return null;
        }, "install");
    }

    /** @param what the public operation, for a rejection's message */
    private <T> T installCold(Supplier<T> op, String what) {
        acquireExternal(what);
        WorkerThread caller = WorkerThread.current(); // a worker of another pool, or null
        InstallJob<T> job;
        try {
            Latch latch = caller != null ? new WorkerLatch(caller.registry(), caller.index()) : new BlockingLatch();
            job = new InstallJob<>(op, latch, termination::release);
            inject(job);
        } catch (Throwable failure) {
            synchronized (termination) { // E1: the job was not accepted; its count goes back without a call
                termination.owed++; // settled into the count by Termination.settleOwed
            }
            settleOwedCounts();
            throw failure;
        }
        awaitLatch(caller, job.latch());
        return job.resultOrRethrow();
    }

    /** Waits for {@code latch}: a worker (of any pool) keeps running its own pool's jobs; other threads park. */
    private static void awaitLatch(WorkerThread caller, Latch latch) {
        if (caller != null) {
            caller.waitUntil((WorkerLatch) latch);
        } else {
            ((BlockingLatch) latch).await();
        }
    }

    public <A, B> Pair<A, B> join(Supplier<A> a, Supplier<B> b) {
        WorkerThread w = currentWorker();
        if (w != null) {
            return joinOn(w, a, b);
        }
        return installCold(() -> joinOn(currentWorker(), a, b), "join");
    }

    public void join(Runnable a, Runnable b) {
        WorkerThread w = currentWorker();
        if (w != null) {
            joinOn(w, a, b);
        } else {
            installCold(() -> {
                joinOn(currentWorker(), a, b);
                return null;
            }, "join");
        }
    }

    public long join(LongSupplier a, LongSupplier b, LongBinaryOperator combine) {
        WorkerThread w = currentWorker();
        if (w != null) {
            return joinOn(w, a, b, combine);
        }
        return installCold(() -> joinOn(currentWorker(), a, b, combine), "join");
    }

    public <T> long join(ToLongFunction<? super T> f, T x, T y, LongBinaryOperator combine) {
        WorkerThread w = currentWorker();
        if (w != null) {
            return joinOn(w, f, x, y, combine);
        }
        return installCold(() -> joinOn(currentWorker(), f, x, y, combine), "join");
    }

    /** A join on worker {@code w}, by its pool's {@link io.spindle.JoinStrategy} (docs/DESIGN.md §7). */
    public static <A, B> Pair<A, B> joinOn(WorkerThread w, Supplier<A> a, Supplier<B> b) {
        return w.lazy() != null ? LazyJoin.join(w, a, b) : Join.join(w, a, b);
    }

    /** As {@link #joinOn(WorkerThread, Supplier, Supplier)}, for long results combined. */
    public static long joinOn(WorkerThread w, LongSupplier a, LongSupplier b, LongBinaryOperator combine) {
        return w.lazy() != null ? LazyJoin.join(w, a, b, combine) : Join.join(w, a, b, combine);
    }

    /** As {@link #joinOn(WorkerThread, Supplier, Supplier)}, for one function applied to two arguments. */
    public static <T> long joinOn(WorkerThread w, ToLongFunction<? super T> f, T x, T y, LongBinaryOperator combine) {
        return w.lazy() != null ? LazyJoin.join(w, f, x, y, combine) : Join.join(w, f, x, y, combine);
    }

    /** As {@link #joinOn(WorkerThread, Supplier, Supplier)}, for two Runnables. */
    public static void joinOn(WorkerThread w, Runnable a, Runnable b) {
        if (w.lazy() != null) {
            LazyJoin.join(w, a, b);
        } else {
            Join.join(w, a, b);
        }
    }

    public <T> T scope(Function<Scope, T> body) {
        WorkerThread w = currentWorker();
        if (w != null) {
            return ScopeImpl.run(this, w, body);
        }
        return installCold(() -> ScopeImpl.run(this, currentWorker(), body), "scope");
    }

    /** @param what the public operation, for a rejection's message ({@code spawn}, {@code execute}, ...) */
    public void spawn(Runnable task, String what) {
        WorkerThread w = currentWorker();
        SpawnJob job = new SpawnJob(task, this, w == null); // before the count: an allocation failure leaks nothing
        if (w != null) {
            if (!termination.tryAcquireInternal()) {
                // from a task's own code only after the pool ended, e.g. an exit hook's: too late for any new task
                throw new RejectedExecutionException(what + " rejected: pool " + name + " has terminated");
            }
            try {
                if (w.isDetached()) {
                    inject(job); // B3: as pushOrInject; counted as the task's own spawn all the same (internal)
                } else {
                    w.push(job);
                }
            } catch (Throwable failure) {
                synchronized (termination) { // E1: push threw, so the job is not in the deque
                    termination.owed++; // the count goes back without a call (Termination.owed)
                }
                settleOwedCounts();
                throw failure;
            }
        } else {
            acquireExternal(what);
            try {
                inject(job);
            } catch (Throwable failure) {
                synchronized (termination) { // E1: inject threw, so the job is not in the pool
                    termination.owed++; // the count goes back without a call (Termination.owed)
                }
                settleOwedCounts();
                throw failure;
            }
        }
    }

    /** @param what the public operation, for a rejection's message */
    public <T> Future<T> submit(Callable<T> task, String what) {
        PoolFuture<T> future = new PoolFuture<>(task, this);
        spawn(future, what);
        return future;
    }

    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, long timeoutNanos)
            throws InterruptedException {
        return Invoke.all(this, tasks, timeoutNanos);
    }

    public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeoutNanos)
            throws InterruptedException, ExecutionException, TimeoutException {
        return Invoke.any(this, tasks, timeoutNanos);
    }

    public <T> List<T> broadcast(Function<BroadcastContext, T> op) {
        WorkerThread caller = WorkerThread.current();
        boolean internal = caller != null && caller.registry() == this;
        if (!internal) {
            acquireExternal("broadcast");
        }
        try {
            int n = workers.length;
            Latch latch = caller != null ? new WorkerLatch(caller.registry(), caller.index()) : new BlockingLatch();
            CountLatch remaining = new CountLatch(latch, n);
            Object[] results = new Object[n];
            Failures failures = new Failures();
            BroadcastJob<?>[] copies = new BroadcastJob<?>[n]; // all allocated before any is visible
            for (int i = 0; i < n; i++) {
                copies[i] = new BroadcastJob<>(op, new BroadcastContext(i, n), results, failures, remaining);
            }
            injected.add(internal ? 0 : n); // before the copies are visible (see inject)
            int queued = 0;
            try {
                for (; queued < n; queued++) {
                    workers[queued].enqueueBroadcast(copies[queued]); // allocates a queue node
                }
            } catch (Throwable failure) {
                // Out of memory part-way: the copies not queued will never run. They count as ended, so the latch
                // still waits for exactly the queued ones, and the failure is the broadcast's to rethrow.
                failures.add(failure); // never throws
                for (int i = queued; i < n; i++) {
                    remaining.decrement(); // cannot reach zero before the queued copies ran: they hold their counts
                }
                try {
                    injected.add(internal ? 0 : queued - n); // statistics only
                } catch (Throwable ignored) {
                    // a LongAdder cell may need memory; a statistic off by the unqueued copies is all it costs
                }
            }
            notifyBroadcastUntilDone();
            if (!internal) {
                try {
                    events.injected("broadcast", n); // JFR
                } catch (Throwable ignored) {
                    // the copies are out: a missing JFR event must not end the broadcast before they ran
                }
            }
            awaitLatch(caller, latch);
            failures.rethrowIfAny();
            @SuppressWarnings("unchecked")
            List<T> list = (List<T>) Collections.unmodifiableList(Arrays.asList(results));
            return list;
        } finally {
            if (!internal) {
                termination.release();
            }
        }
    }

    /**
     * After an owing (E1): settles it at once where the stack allows, so that a pool shut down meanwhile terminates
     * though nobody waits for it (a shutdown() with no wait, its workers then alive for ever). Where the call
     * overflows, the count stays owed (settleOwed rolls itself back) and a later release or wait settles it.
     */
    private void settleOwedCounts() {
        try {
            termination.settleOwed();
        } catch (Throwable stillOwed) {
            // settled later: the next release, shutdown, isTerminated or wait for termination
        }
    }

    /** Takes an external submission's count, or refuses it once shutdown began. */
    private void acquireExternal(String what) {
        if (!termination.tryAcquireExternal()) {
            throw rejectedAfterShutdown(what, "it accepts no new work from outside its workers");
        }
    }

    /**
     * The refusal of {@code what} by a shut-down pool, for the user who made the call: which operation, which pool
     * (the name {@link #toString()} and the JFR events show) and why, and no internal state, which is of no use to
     * them and which {@code toString()} and {@code stats()} still show. Built on the failing path only.
     */
    public RejectedExecutionException rejectedAfterShutdown(String what, String consequence) {
        return new RejectedExecutionException(what + " rejected: pool " + name + " is shut down; " + consequence);
    }

    // --- SpawnJob.Sink ----------------------------------------------------------------------------------------------

    @Override
    public void spawnFailed(Throwable failure) {
        Thread t = Thread.currentThread();
        Thread.UncaughtExceptionHandler h = config.handler() != null ? config.handler()
                : t.getUncaughtExceptionHandler();
        try {
            h.uncaughtException(t, failure);
        } catch (Throwable ignored) {
            // A throwing handler must not take the worker down; there is nowhere left to report to.
        }
    }

    @Override
    public void spawnEnded() {
        termination.release();
    }

    void jobEscaped(Throwable t) {
        spawnFailed(t);
    }

    // --- LatchOwner -------------------------------------------------------------------------------------------------

    /**
     * E4: the latch is already set when this runs, so its owner will not block on it again: if the protocol's wake-up
     * throws (before it took a count it rolls itself back; after, it finishes itself), a sleeping owner would sleep
     * forever. Out of memory, retry until it succeeds: memory comes back once the failing operation unwinds. Out of
     * stack, a retry here would overflow for ever: owe the wake-up instead, for the pool's workers to deliver from
     * shallower frames, at the top of a wait round or instead of sleeping ({@link OwedLatchWakes}).
     */
    @Override
    public void wakeLatchOwner(int index) {
        // E4: exhaustion is retried until done, after a pause made inside the try: a catch block makes no call
        boolean retrying = false;
        while (true) {
            try {
                if (retrying) {
                    Failures.pauseAfterRuntimeFailure(Failures.RUNTIME_FAILURE_BACKOFF_NANOS);
                }
                standIns.unparkDetached(index); // B3: a detached thread of this index may sleep on the latch
                sleep.notifyWorkerLatchIsSet(index);
                return;
            } catch (StackOverflowError edge) {
                // E4 at the stack's edge: owe it, with two volatile stores and no call (OwedLatchWakes); a worker of
                // this pool delivers it from a frame with more room, before it may sleep
                owedLatchWakes.flags[index].owed = true;
                owedLatchWakes.any = true;
                return;
            } catch (VirtualMachineError exhaustion) { // only exhaustion is retried: a bug's exception is thrown
                retrying = true;
            }
        }
    }

    /**
     * E4 at the stack's edge: delivers the latch wake-ups owed ({@link OwedLatchWakes}); workers call it at the top
     * of each wait round and instead of sleeping while any are owed. Throws what a wake-up throws; that one stays
     * owed.
     */
    void deliverOwedLatchWakes() {
        owedLatchWakes.deliver(wakeOwedLatchOwner, noticeOwedInjection, wakeOwedPollerOwner, injectOwedJob);
    }

    /**
     * Resolves the field references {@link #wakeLatchOwner}'s catch block stores through, while the stack has room:
     * a field reference is resolved by its first execution, which at the stack's edge could itself overflow. Called
     * once as the pool is built; stores only what the fields already hold.
     */
    private void linkOwedLatchWakes() {
        for (OwedLatchWakes.Flag f : owedLatchWakes.flags) {
            f.owed = false;
        }
        owedLatchWakes.injectionNoticeOwed = false; // injectKept's catch blocks, from here on
        InjectedJob throwaway = new InjectedJob() {
            @Override
            public void execute() {
            }
        };
        synchronized (owedLatchWakes) {
            throwaway.nextOwed = owedLatchWakes.owedJobs; // the same field references, nothing linked: it is null
            owedLatchWakes.owedJobs = throwaway.nextOwed;
        }
        synchronized (withdrawnLock) {
            withdrawnInjections += 0;
        }
        synchronized (throwaway) {
            throwaway.claimed = throwaway.claimed; // inject's take-backs claim inline through this reference too
        }
        owedLatchWakes.any = false;
    }

    /** E4: broadcast copies sit in private queues, and only a wake-up delivers them: retry until it succeeds. */
    private void notifyBroadcastUntilDone() {
        // E4: exhaustion is retried until done, after a pause made inside the try: a catch block makes no call
        boolean retrying = false;
        while (true) {
            try {
                if (retrying) {
                    Failures.pauseAfterRuntimeFailure(Failures.RUNTIME_FAILURE_BACKOFF_NANOS);
                }
                sleep.newBroadcastJobs();
                return;
            } catch (VirtualMachineError exhaustion) { // only exhaustion is retried: a bug's exception is thrown
                retrying = true;
            }
        }
    }

    // --- hooks ------------------------------------------------------------------------------------------------------

    void runStartHook(WorkerThread w) {
        if (config.onThreadStart() != null) {
            try {
                config.onThreadStart().accept(w.index());
            } catch (Throwable t) {
                spawnFailed(t);
            }
        }
    }

    void runExitHook(WorkerThread w) {
        if (config.onThreadExit() != null) {
            try {
                config.onThreadExit().accept(w.index());
            } catch (Throwable t) {
                spawnFailed(t);
            }
        }
    }

    void workerExited() {
        workersExited.countDown();
        if (workersExited.getCount() == 0) {
            // The last worker is out (a failed start counts the workers it never started): nothing can post work or
            // sleep any more (every submission path was refused or drained before termination), so the protocol may
            // release what it holds outside the heap.
            sleep.close();
            io.close(); // selectors and the watchdog: no worker can poll any more
        }
    }

    // --- shutdown and termination -----------------------------------------------------------------------------------

    public void shutdown() {
        termination.shutdown();
        io.shutdown(); // IO9: after the flag, so no operation starts unseen; their failures release their counts
    }

    public List<Runnable> shutdownNow() {
        termination.shutdown();
        io.shutdown(); // IO9
        List<Runnable> removed = new ArrayList<>();
        for (Iterator<InjectedJob> it = injector.iterator(); it.hasNext(); ) {
            InjectedJob job = it.next();
            // remove() succeeds for exactly one of us and a polling worker, and claim() tells whether its poster
            // took it back (E1): a task is run, returned or thrown back to its poster, exactly one of the three.
            if (job instanceof SpawnJob && ((SpawnJob) job).isExternal() && injector.remove(job) && job.claim()) {
                removed.add(((SpawnJob) job).task());
            }
        }
        for (WorkerThread w : workers) {
            if (w.isRunningJob()) {
                w.interrupt();
            }
        }
        standIns.interruptDetached(); // they run tasks too (B1)
        for (int i = 0; i < removed.size(); i++) {
            termination.release();
        }
        return removed;
    }

    public boolean isShutdown() {
        return termination.isShutdown();
    }

    public boolean isTerminated() {
        termination.settleOwed(); // E1: a count owed since shutdown must not keep the pool from terminating
        if (workersExited.getCount() != 0 || !standIns.noneLeft()) {
            return false;
        }
        for (WorkerThread w : workers) {
            if (w.isAlive()) {
                return false;
            }
        }
        return true;
    }

    public boolean awaitTermination(long nanos) throws InterruptedException {
        long start = System.nanoTime();
        // In slices, settling owed counts before each: a submission that failed at a stack edge after shutdown owes its
        // count (E1, Termination.owed) and could not wake anyone, and the pool terminates only once it is settled.
        while (true) {
            termination.settleOwed();
            long slice = Math.min(Math.max(remaining(nanos, start), 0), OWED_SETTLE_SLICE_NANOS);
            if (workersExited.await(slice, TimeUnit.NANOSECONDS)) {
                break;
            }
            if (remaining(nanos, start) <= 0) {
                return false;
            }
        }
        for (WorkerThread w : workers) {
            if (w == Thread.currentThread()) {
                return false; // a worker is never terminated while it asks
            }
            long left = remaining(nanos, start);
            if (left <= 0 && w.isAlive()) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedJoin(w, Math.max(left, 1));
            if (w.isAlive()) {
                return false;
            }
        }
        Thread caller = Thread.currentThread();
        if (caller instanceof WorkerThread && ((WorkerThread) caller).registry() == this) {
            return false; // a detached thread of ours asks: it is one of those waited for
        }
        return standIns.awaitNoneLeft(remaining(nanos, start)); // B7: the threads beyond the workers end too

    }

    /**
     * What is left of a wait of {@code nanos} begun at {@code start}: counted from the timeout, not against a deadline,
     * since start + nanos overflows for large timeouts of either sign (a non-positive timeout stays as it is).
     */
    private static long remaining(long nanos, long start) {
        return nanos <= 0 ? nanos : nanos - (System.nanoTime() - start);
    }

    /**
     * Runs exactly once, when termination is decided: nothing will call it again, so each step is retried until it
     * succeeds (E4); a worker whose terminate latch stayed unset would never exit.
     */
    private void terminateWorkers() {
        // B7: from here no hand-off replaces a worker, so these are each index's last holders. Retried as below.
        WorkerThread[] holders;
        boolean retryingCopy = false;
        while (true) {
            try {
                if (retryingCopy) {
                    Failures.pauseAfterRuntimeFailure(Failures.RUNTIME_FAILURE_BACKOFF_NANOS);
                }
                holders = standIns.terminate();
                break;
            } catch (VirtualMachineError exhaustion) {
                retryingCopy = true;
            }
        }
        for (WorkerThread w : holders) {
            // E4: exhaustion is retried until done, after a pause made inside the try: a catch block makes no call
            boolean retrying = false;
            while (true) {
                try {
                    if (retrying) {
                        Failures.pauseAfterRuntimeFailure(Failures.RUNTIME_FAILURE_BACKOFF_NANOS);
                    }
                    w.setTerminateLatch(); // the latch's swap is idempotent, and its wake-up retries itself
                    break;
                } catch (VirtualMachineError exhaustion) { // only exhaustion is retried: a bug's exception is thrown
                    retrying = true;
                }
            }
        }
        // E4: exhaustion is retried until done, after a pause made inside the try: a catch block makes no call
        boolean retrying = false;
        while (true) {
            try {
                if (retrying) {
                    Failures.pauseAfterRuntimeFailure(Failures.RUNTIME_FAILURE_BACKOFF_NANOS);
                }
                sleep.terminate(); // each protocol's wake step rolls itself back, or finishes itself, when it throws
                return;
            } catch (VirtualMachineError exhaustion) { // only exhaustion is retried: a bug's exception is thrown
                retrying = true;
            }
        }
    }

    // --- statistics -------------------------------------------------------------------------------------------------

    /** This pool's IO (docs/DESIGN.md §6). */
    public PoolIoImpl io() {
        return io;
    }

    /** The public pool as an executor: the default executor of the futures this pool returns. */
    public Executor executor() {
        return (Executor) publicPool;
    }

    /**
     * IO6: an IO operation holds a terminate count from its start until its future's job ran (or it was withdrawn),
     * like an accepted external task: refused once shutdown began (docs/DESIGN.md §6).
     *
     * @param what the public operation ({@code PoolIO.read}, ...), for a rejection's message
     * @throws RejectedExecutionException after shutdown
     */
    public void acquireIoCount(String what) {
        if (!termination.tryAcquireExternal()) {
            throw rejectedAfterShutdown(what, "its IO starts no new operation");
        }
    }

    /** IO6: gives back an IO operation's count. */
    public void releaseIoCount() {
        termination.release();
    }

    /**
     * IO6 under E1: the object on which an IO path that may be at a stack's edge owes a count back without a call
     * ({@code synchronized (t) { t.owed++; }}, {@link Termination#owed}), where {@link #releaseIoCount()} is a call
     * that could overflow and leak the count (PoolIO.deregister's give-back did: the pool never terminated). The
     * caller keeps the reference from its construction, so the owing makes no call.
     */
    public Termination ioCountOwing() {
        return termination;
    }

    /**
     * IO6 under E1, after an owing on {@link #ioCountOwing()}: settles it now where the stack allows (never throws
     * once entered; the call itself may overflow, and then the next release, shutdown, isTerminated or wait for
     * termination settles it).
     */
    public void settleOwedIoCounts() {
        settleOwedCounts();
    }

    /**
     * IO1: a finished IO operation from a thread that cannot push it (the watchdog, shutdown, an off-pool caller, a
     * worker inside a sleep step), or a hand-back's job: into the injector. Its count is held already, so shutdown
     * does not refuse it. IO6, E1 for the pool's own jobs (a finished IO operation, a hand-back): injects {@code job} and never takes it
     * back. E1's take-back suits a poster that can be told (a spawn's caller gets the throwable, and its task never
     * ran); nobody can be told of a completion, and a job taken back here stayed marked as claimed, so that the
     * caller's retry was dropped by the next poll, silently: its future never completed, and its terminate count was
     * never given back. So if the protocol's notification throws, the job stays queued, where a searching worker
     * finds it (each protocol's sleeper looks at the injector once more before it blocks), and the notification is
     * owed, with two volatile field stores and no call, for a worker to make from a frame with more room, as E4's
     * latch wake-ups are ({@link OwedLatchWakes}). Nothing is thrown then: the job was accepted, and a caller that
     * retried it would run it twice. A job that could not be queued at all (no node, or an overflow inside the
     * queue's offer) is owed itself, the same way, and injected again by the delivery. So this never throws: a
     * caller at a stack's edge (a close at every depth) once lost the operations it had failed when this threw,
     * since they were already detached from their channels and no sweep could find them.
     */
    public void injectKept(InjectedJob job) {
        boolean queueWasEmpty = injector.isEmpty();
        injected.increment(); // before the job is visible, as inject's
        try {
            injector.add(job); // the queue's own publication: a later poll sees the job fully built
        } catch (Throwable failure) {
            // IO6: no node for it (the heap is full), or a stack overflow inside the queue's offer, perhaps after it
            // linked the node. The job is owed itself, linked through its own field under the owes' monitor (no
            // call, no allocation; references resolved at build), for a worker or the watchdog to inject again; if
            // the node was linked, whichever node is claimed first runs it and the other is dropped. Its count here
            // goes as a withdrawal's (a decrement would be a call): the injection that delivers it counts again. The
            // count comes before the link: a monitor enter can itself overflow, and a throw after the link would
            // have a delivery that called this link the job a second time (a cycle in the list, the jobs after it
            // lost).
            synchronized (withdrawnLock) {
                withdrawnInjections++;
            }
            synchronized (owedLatchWakes) {
                job.nextOwed = owedLatchWakes.owedJobs;
                owedLatchWakes.owedJobs = job;
            }
            owedLatchWakes.any = true; // volatile, after the link: a delivery that takes `any` sees the job
            return;
        }
        try {
            sleep.newInjectedJobs(1, queueWasEmpty); // J5: the poster's fence is inside
        } catch (Throwable failure) {
            // IO6: owed, not taken back (field references resolved at build: linkOwedLatchWakes); the protocol's
            // step rolled its own bookkeeping back
            owedLatchWakes.injectionNoticeOwed = true;
            owedLatchWakes.any = true;
            return;
        }
        try {
            events.injected("install", 1); // JFR, once the protocol was told (as inject names a job of ours)
        } catch (Throwable failure) {
            // The job is accepted and the protocol told: a missing JFR event must not turn that into a failure.
        }
    }

    /**
     * IO10's owed wake-ups: an IO poller whose wake-up of its owner threw owes it here
     * ({@code pollerFlags[owner].owed = true}, then {@code any = true}; two volatile field stores, no call), and the
     * pool's workers (or the watchdog) deliver it through that poller's {@code unblockOwed}. The poller resolves its
     * field references once, when it is built.
     */
    public OwedLatchWakes owedWakes() {
        return owedLatchWakes;
    }

    /**
     * IO6, IO10: delivers what is owed (E4) from a thread of the pool that is not a worker (the IO watchdog, at the top
     * of each of its steps): with every worker asleep, a notification owed by a thread that is not a worker would
     * otherwise wait for the next wake-up of any kind. Throws what a delivery throws; that one stays owed.
     */
    public void deliverOwedWakes() {
        if (owedLatchWakes.any) { // volatile read: one per call while nothing is owed
            deliverOwedLatchWakes();
        }
    }

    public PoolStats stats() {
        long executed = 0;
        long steals = 0;
        long sleeps = 0;
        long wakeups = 0;
        long promotions = 0;
        long ioPolls = 0;
        long ioReady = 0;
        long ioWakeups = 0;
        long watchdogPolls = io.watchdogPolls(); // before the polls: each of its polls counts in a poller's too
        List<WorkerStats> perWorker = new ArrayList<>(workers.length);
        for (WorkerThread w : workers) {
            // Each counter read once, so that the totals are exactly the sums of the per-worker figures. An index's
            // figures count every thread that held it (B2): its worker, detached threads, spares and ended ones.
            int i = w.index();
            long[] f = standIns.figuresOf(i);
            WorkerStats ws = new WorkerStats(i, f[0], f[1], sleep.sleeps(i), sleep.wakeups(i), f[3], f[2],
                    io.polls(i), io.readyEvents(i), io.ioWakeups(i));
            perWorker.add(ws);
            executed += ws.jobsExecuted();
            steals += ws.steals();
            sleeps += ws.sleeps();
            wakeups += ws.wakeups();
            promotions += ws.promotions();
            ioPolls += ws.ioPolls();
            ioReady += ws.ioReadyEvents();
            ioWakeups += ws.ioWakeups();
        }
        // Withdrawals read before the injections: each withdrawal's increment of `injected` came before it, so the
        // difference never goes below the truth (read the other way, it went negative under constant withdrawals).
        long withdrawn = withdrawnInjections();
        // Jobs taken back by their posters (E1) stay in the injector until a poll drops them; an idle pool's workers
        // poll nothing, so drop them here: an idle pool's snapshot stays exact, and a failed task is not kept alive.
        // A claimed job in the injector is always one taken back (a worker or shutdownNow claims only what it removed).
        injector.removeIf(InjectedJob::isClaimed);
        // injector.size() walks the queue: O(queued), weakly consistent; fine for a statistics call.
        return new PoolStats(executed, steals, injected.sum() - withdrawn, sleeps, wakeups, injector.size(), perWorker,
                promotions, ioPolls, ioReady, ioWakeups, watchdogPolls, standIns.blockedWorkers(),
                standIns.standInThreads());
    }

    /**
     * For diagnostics and tests: how many injections threw and took their job back (E1), and how many IO jobs could
     * not be queued and were owed (IO6: each is injected, and counted, again by its delivery).
     */
    public long withdrawnInjections() {
        synchronized (withdrawnLock) {
            return withdrawnInjections;
        }
    }

    /** For diagnostics and tests: see {@link SleepProtocol#isAtRest()}. */
    public boolean isSleepAtRest() {
        return sleep.isAtRest();
    }

    @Override
    public String toString() {
        return "name=" + name + ", threads=" + workers.length + ", strategy=" + config.sleepStrategy() + ", "
                + (isTerminated() ? "terminated" : isShutdown() ? "shutting down" : "running")
                + ", outstanding=" + termination.outstanding() + ", injectorEmpty=" + injector.isEmpty()
                + ", sleep=" + sleep;
    }
}
