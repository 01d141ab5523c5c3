package io.spindle.bench.workload;

import io.spindle.PoolStats;
import io.spindle.Spindle;
import io.spindle.ThreadPool;
import io.spindle.bench.Metric;
import io.spindle.bench.PoolKind;
import io.spindle.bench.Target;
import io.spindle.bench.Value;
import io.spindle.bench.echo.ServerCpu;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * blocking-mix and blocking-mix-unmanaged (group {@code blocking-mix}, issue 33): a batch of tasks submitted at once
 * from outside the pool, one in {@link #BLOCK_EVERY} of which blocks for 1–10 ms while the others compute about
 * 1 ms; tasks per second, the platform threads started for the batch, and the process's CPU per task.
 * <ul>
 * <li>{@code blocking-mix}: each pool's way of keeping its parallelism while a task blocks: Spindle's
 *     {@code Spindle.blocking}, ForkJoinPool's {@code ForkJoinPool.managedBlock}, and a virtual thread per task
 *     ({@code virtual-threads}), whose blocking unmounts it from its carrier without any wrapper;</li>
 * <li>{@code blocking-mix-unmanaged}: the same tasks blocking bare on Spindle and ForkJoinPool, so that the worker
 *     itself blocks: what the wrappers buy.</li>
 * </ul>
 * The block is a park until a deadline set when the blocking code starts (inside {@code Spindle.blocking}'s body, at
 * the first {@code block()} of the {@link ForkJoinPool.ManagedBlocker}), so a wrapper's hand-off or compensation is
 * paid on top of the block, as it is for a real blocking call. Every pool runs the same tasks in the same order: the
 * block durations are one seeded draw ({@link #setUp}), and a compute task is a fixed number of {@link Burn} steps, not
 * calibrated, so that every JVM and machine does the same work.
 *
 * <p>Each run opens a fresh pool like the contender's ({@link Target#sibling}) and lets it settle asleep before the
 * clock starts, so that no run inherits the threads an earlier one made (Spindle's stand-ins live 5 s, ForkJoinPool's
 * spare threads 60 s): {@code threads_created} is what a pool needs for the batch from rest, its own workers included
 * (Spindle starts them when built, ForkJoinPool at its first tasks; both inside the count). The virtual threads'
 * scheduler is the JVM's one, shared by every run, so their count is the carriers it had to add, and their rows are
 * at its parallelism ({@link VirtualThreadPerTask#schedulerParallelism()}), whatever {@code --threads} is.
 */
final class BlockingMix implements Workload {
    /** Every this many tasks, one blocks (the last of each three): "a third" of issue 33. */
    static final int BLOCK_EVERY = 3;
    static final long MIN_BLOCK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    static final long MAX_BLOCK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** A compute task's work in {@link Burn} steps: about 1 ms on the 2-vCPU VM BENCHMARKS.md is recorded on. */
    static final long COMPUTE_STEPS = 400_000;
    /** The seed of the block durations: one sequence for every pool, run and JVM. */
    private static final long DURATION_SEED = 33;
    /**
     * Compute tasks start from one of this many states, so that their results differ: with each task's index also in
     * the sum, a task run twice and another lost do not cancel out.
     */
    private static final int STARTS = 8;
    /** As Bench's rest before a measured run: long enough for a fresh pool's workers to fall asleep. */
    private static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    /** A hang (a lost wake-up, a hand-off that never returns) fails the run after this long, naming the pool. */
    private static final long DRAIN_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    private final boolean managed;
    private final int tasks;
    private final long computeSteps;
    private long[] blockNanos; // per task: 0 for a compute task
    private long[] computed; // per start: what a compute task from it returns

    /** The runner's rows: {@code tasks} per measured run, compute tasks of {@link #COMPUTE_STEPS}. */
    BlockingMix(boolean managed, int tasks) {
        this(managed, tasks, COMPUTE_STEPS);
    }

    /** For tests: compute tasks of {@code computeSteps}, so that the blocks dominate a short run. */
    BlockingMix(boolean managed, int tasks, long computeSteps) {
        if (tasks < BLOCK_EVERY) throw new IllegalArgumentException("tasks must be >= " + BLOCK_EVERY + ": " + tasks);
        if (computeSteps < 1) throw new IllegalArgumentException("computeSteps must be >= 1: " + computeSteps);
        this.managed = managed;
        this.tasks = tasks;
        this.computeSteps = computeSteps;
    }

    @Override
    public String name() {
        return managed ? "blocking-mix" : "blocking-mix-unmanaged";
    }

    @Override
    public String group() {
        return "blocking-mix";
    }

    @Override
    public String description() {
        String how = managed
                ? "the block inside Spindle.blocking / ForkJoinPool.managedBlock; virtual-threads: a virtual thread "
                        + "per task (newVirtualThreadPerTaskExecutor), blocking bare, its rows at the JDK scheduler's "
                        + "parallelism"
                : "the block called bare, so that it blocks its worker";
        return String.format("%,d tasks submitted at once from outside, one in %d parking 1-10 ms (seeded uniform "
                + "draw, the same for every pool), the others %,d xorshift steps (~1 ms); %s; a fresh pool per run, "
                + "settled asleep first; threads_created includes the pool's own workers", tasks, BLOCK_EVERY,
                computeSteps, how);
    }

    @Override
    public boolean supports(PoolKind kind) {
        return kind.isSpindle() || kind == PoolKind.FJP || (managed && kind == PoolKind.VIRTUAL_THREADS);
    }

    @Override
    public List<Metric> metrics(PoolKind kind) {
        return List.of(Metric.TASKS_PER_S, Metric.THREADS_CREATED, Metric.CPU_US_PER_TASK);
    }

    @Override
    public void setUp() {
        SplittableRandom r = new SplittableRandom(DURATION_SEED);
        blockNanos = new long[tasks];
        for (int i = 0; i < tasks; i++) {
            if (blocks(i)) blockNanos[i] = r.nextLong(MIN_BLOCK_NANOS, MAX_BLOCK_NANOS + 1);
        }
        computed = new long[STARTS];
        for (int s = 0; s < STARTS; s++) computed[s] = Burn.stepsFrom(start(s), computeSteps);
    }

    @Override
    public void tearDown() {
        blockNanos = null;
        computed = null;
    }

    /** @return whether task {@code i} blocks */
    static boolean blocks(int i) {
        return i % BLOCK_EVERY == BLOCK_EVERY - 1;
    }

    /** @return the xorshift state compute tasks of start {@code s} begin from (never 0, which xorshift keeps) */
    private static long start(int s) {
        return Burn.SEED + s;
    }

    /** @return task {@code i}'s block, ns, or 0 if it computes; after {@link #setUp} */
    long blockNanos(int i) {
        return blockNanos[i];
    }

    @Override
    public List<Value> run(Target t, boolean warmup) {
        if (blockNanos == null) throw new IllegalStateException(name() + ": run before setUp");
        // a shorter warm-up run: the runner warms up for --warmup-ms per pool anyway, in more rounds of fresh pools
        int n = warmup ? Math.max(BLOCK_EVERY, tasks / 3) : tasks;
        long threads0 = MX.getTotalStartedThreadCount();
        Batch b;
        int workers;
        if (t.kind() == PoolKind.VIRTUAL_THREADS) {
            workers = VirtualThreadPerTask.schedulerParallelism();
            ExecutorService vt = VirtualThreadPerTask.open();
            try {
                b = batch(t.kind(), n, threads0, vt::execute, () -> "(the executor has no counters to show)");
            } finally {
                shutDown(vt);
            }
        } else {
            workers = t.threads();
            try (Target fresh = t.sibling(t.threads())) {
                if (t.kind() == PoolKind.FJP) {
                    ForkJoinPool fjp = fresh.fjp();
                    b = batch(t.kind(), n, threads0, fjp::execute, fjp::toString);
                } else {
                    ThreadPool pool = fresh.spindle();
                    b = batch(t.kind(), n, threads0, pool::spawn, () -> pool.stats().toString());
                    checkSettled(pool.stats());
                }
            }
        }
        return List.of(new Value(Metric.TASKS_PER_S, workers, n * 1e9 / b.wallNanos),
                new Value(Metric.THREADS_CREATED, workers, b.threadsCreated),
                new Value(Metric.CPU_US_PER_TASK, workers, b.cpuNanos / 1e3 / n));
    }

    /** One batch's wall time, the process's CPU over it, and the platform threads started since {@code threads0}. */
    private record Batch(long wallNanos, long cpuNanos, long threadsCreated) {}

    /**
     * Runs tasks 0..n-1 through {@code submit} and waits for all of them; checks that each ran once, by their sum.
     *
     * @param threads0 the JVM's count of started threads before the pool was opened
     * @param state    the pool's own account of itself, for the message of a batch that never finishes
     */
    private Batch batch(PoolKind kind, int n, long threads0, Consumer<Runnable> submit, Supplier<String> state) {
        CountDownLatch left = new CountDownLatch(n);
        LongAdder sum = new LongAdder();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Pace.parkUntil(System.nanoTime() + SETTLE_NANOS);
        long cpu0 = processCpuNanos();
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            int task = i;
            submit.accept(() -> {
                try {
                    sum.add(task + (blocks(task) ? block(kind, blockNanos[task]) : compute(task)));
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    left.countDown();
                }
            });
        }
        await(left, kind, n, state);
        long wall = System.nanoTime() - start;
        long cpu = processCpuNanos() - cpu0;
        long threads = MX.getTotalStartedThreadCount() - threads0;
        if (failure.get() != null) {
            throw new IllegalStateException(name() + " on " + kind.id() + ": a task failed", failure.get());
        }
        ComputeWorkload.expect(name() + " on " + kind.id() + ": the tasks' sum", sum.sum(), expectedSum(n));
        return new Batch(wall, cpu, threads);
    }

    private long compute(int task) {
        return Burn.stepsFrom(start(task % STARTS), computeSteps);
    }

    /** @return what tasks 0..n-1 add up to when each ran once */
    private long expectedSum(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) s += i + (blocks(i) ? blockNanos[i] : computed[i % STARTS]);
        return s;
    }

    /** Blocks for {@code nanos} the way this row does on {@code kind}; @return {@code nanos}, for the sum */
    private long block(PoolKind kind, long nanos) throws InterruptedException {
        if (!managed || kind == PoolKind.VIRTUAL_THREADS) return park(nanos);
        if (kind == PoolKind.FJP) {
            Deadline d = new Deadline(nanos);
            ForkJoinPool.managedBlock(d);
            return d.nanos;
        }
        return Spindle.blocking(() -> park(nanos));
    }

    private static long park(long nanos) {
        Pace.parkUntil(System.nanoTime() + nanos);
        return nanos;
    }

    /** A blocker whose wait starts at its first {@code block()}, as a real one's does, and ends {@code nanos} later. */
    private static final class Deadline implements ForkJoinPool.ManagedBlocker {
        final long nanos;
        private long deadline;
        private boolean started;

        Deadline(long nanos) {
            this.nanos = nanos;
        }

        @Override
        public boolean block() {
            if (!started) {
                deadline = System.nanoTime() + nanos;
                started = true;
            }
            Pace.parkUntil(deadline);
            return true;
        }

        @Override
        public boolean isReleasable() {
            return started && System.nanoTime() - deadline >= 0;
        }
    }

    /**
     * A Spindle pool whose tasks all returned must have every blocking call back: a thread still counted as blocked
     * is a lost {@code blockingReturned}; and without the wrapper no thread may have stood in.
     */
    private void checkSettled(PoolStats s) {
        if (s.blockedWorkers() != 0) {
            throw new IllegalStateException(name() + ": " + s.blockedWorkers() + " workers still counted as blocked "
                    + "after every task returned");
        }
        if (!managed && s.standInThreads() != 0) {
            throw new IllegalStateException(name() + ": " + s.standInThreads() + " stand-in threads without any "
                    + "Spindle.blocking call");
        }
    }

    /** @return the process's CPU so far, the JIT's compiler threads left out, the calling (submitting) thread in */
    private static long processCpuNanos() {
        return ServerCpu.besidesCallerNanos() + MX.getCurrentThreadCpuTime();
    }

    private void await(CountDownLatch left, PoolKind kind, int n, Supplier<String> state) {
        try {
            if (!left.await(DRAIN_TIMEOUT_NANOS, TimeUnit.NANOSECONDS)) {
                String stuck = name() + " on " + kind.id() + ": only " + (n - left.getCount()) + " of " + n
                        + " tasks finished within " + TimeUnit.NANOSECONDS.toSeconds(DRAIN_TIMEOUT_NANOS) + " s; "
                        + state.get();
                // said at once: closing the pool on the way out waits for the stuck tasks, perhaps for ever
                System.err.println("spindle-bench: " + stuck);
                throw new IllegalStateException(stuck);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Closes the executor as {@code ExecutorService.close()} (JDK 19+) does: waits for its tasks. */
    private static void shutDown(ExecutorService e) {
        e.shutdown();
        try {
            if (!e.awaitTermination(DRAIN_TIMEOUT_NANOS, TimeUnit.NANOSECONDS)) {
                throw new IllegalStateException("virtual-threads: the executor did not terminate within "
                        + TimeUnit.NANOSECONDS.toSeconds(DRAIN_TIMEOUT_NANOS) + " s");
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }
}
