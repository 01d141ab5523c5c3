package io.spindle.bench;

import io.spindle.ThreadPool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;

/**
 * One contender, opened for one workload: a Spindle pool, a ForkJoinPool of the same parallelism (also the compute
 * pool of the IO baselines, {@link PoolKind#isIoServer()}, whose servers the IO workloads start per run), or nothing
 * at all for the sequential baseline; with the CPU clock and the allocation counters of its worker threads. Fresh pools per
 * workload keep one workload's leftovers (a grown deque, a trimmed worker) out of the next.
 */
public final class Target implements AutoCloseable {
    private final PoolKind kind;
    private final int threads;
    private final ThreadPool spindle;
    private final ForkJoinPool fjp;
    private final Optional<Duration> heartbeat;
    private final WorkerCpu cpu = new WorkerCpu();
    private final ThreadAllocations allocations = new ThreadAllocations();

    private Target(PoolKind kind, int threads, Optional<Duration> heartbeat) {
        this.kind = kind;
        this.threads = kind == PoolKind.SEQUENTIAL ? 1 : threads;
        this.heartbeat = heartbeat;
        switch (kind) {
            // the IO servers that are not ours hand echo-compute's computation to a ForkJoinPool of this size
            case FJP, PLATFORM_THREADS, VIRTUAL_THREADS, SELECTOR_FJP, NETTY -> {
                spindle = null;
                fjp = new ForkJoinPool(threads, pool -> {
                    ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
                    cpu.record(t);
                    return t;
                }, null, false);
            }
            case SEQUENTIAL -> {
                spindle = null;
                fjp = null;
            }
            default -> {
                fjp = null;
                ThreadPool.Builder b = ThreadPool.builder().threads(threads).sleepStrategy(kind.strategy())
                        .threadName(i -> "bench-" + kind.id() + "-" + i)
                        .onThreadStart(i -> cpu.record(Thread.currentThread()));
                kind.joinStrategy().ifPresent(b::joinStrategy);
                if (kind.takesHeartbeat()) heartbeat.ifPresent(b::heartbeatInterval);
                spindle = b.build();
            }
        }
    }

    /**
     * Opens a contender of {@code kind} with {@code threads} workers (ignored for the sequential one), at the
     * library's default heartbeat.
     */
    public static Target open(PoolKind kind, int threads) {
        return new Target(kind, threads, Optional.empty());
    }

    /**
     * Opens a contender of {@code kind} with {@code threads} workers (ignored for the sequential one).
     *
     * @param heartbeat the heartbeat interval of a lazy-join Spindle pool ({@link PoolKind#takesHeartbeat()}); empty:
     *                  the library's default; ignored by the other kinds
     */
    public static Target open(PoolKind kind, int threads, Optional<Duration> heartbeat) {
        return new Target(kind, threads, heartbeat);
    }

    /**
     * Opens another contender like this one (same kind, same heartbeat) with {@code threads} workers: for workloads
     * that need pools of a size of their own (sparse's wake-up count, oversubscribed's pools of 2).
     */
    public Target sibling(int threads) {
        return new Target(kind, threads, heartbeat);
    }

    public PoolKind kind() {
        return kind;
    }

    /** @return the number of threads doing the work: the pool size, or 1 for the sequential baseline */
    public int threads() {
        return threads;
    }

    public ThreadPool spindle() {
        if (spindle == null) throw new IllegalStateException(kind.id() + " has no Spindle pool");
        return spindle;
    }

    public ForkJoinPool fjp() {
        if (fjp == null) throw new IllegalStateException(kind.id() + " has no ForkJoinPool");
        return fjp;
    }

    /** @return the CPU time of this contender's worker threads so far, in ns (0 for the sequential one) */
    public long workerCpuNanos() {
        return cpu.nanos();
    }

    /**
     * @return the heap bytes allocated so far by this contender's worker threads and by the calling thread (which
     *         runs the sequential version, and which {@code install} / {@code invoke} make allocate too)
     * @throws UnsupportedOperationException if this JVM cannot count them ({@link ThreadAllocations#unsupported()})
     */
    public long allocatedBytes() {
        List<Thread> all = new ArrayList<>(cpu.threads());
        all.add(Thread.currentThread());
        return allocations.bytes(all);
    }

    @Override
    public void close() {
        if (spindle != null) spindle.close();
        if (fjp != null) {
            fjp.shutdown();
            try {
                fjp.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
