package io.spindle.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.spindle.PoolStats;
import io.spindle.ThreadPool;

import java.time.Duration;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * Publishes a {@link ThreadPool}'s counters ({@link ThreadPool#stats()}) as Micrometer meters:
 *
 * <pre>{@code
 * new SpindlePoolMetrics(pool, Tags.of("app", "checkout")).bindTo(registry);
 * }</pre>
 *
 * <p>The meters follow the names that Micrometer's {@code ExecutorServiceMetrics} gives a {@code ForkJoinPool}, and
 * carry its {@code name} tag (the pool's name, {@code spindle-1}, {@code spindle-2}, ... in the order the pools were
 * built, unless one is given) beside the tags passed in. Counters ({@link FunctionCounter}):
 * <ul>
 *   <li>{@code executor.completed} (tasks): jobs the workers took from a queue and ran
 *       ({@link PoolStats#jobsExecuted()}; a join half that its own worker takes back runs inline and is not
 *       counted)</li>
 *   <li>{@code executor.steals} (tasks): jobs a worker took from another worker's deque</li>
 *   <li>{@code executor.injected} (tasks): jobs submitted from threads outside the pool</li>
 *   <li>{@code executor.promotions} (tasks): join halves that lazy joins made stealable</li>
 *   <li>{@code executor.sleeps} (events): times a worker blocked because it found no work</li>
 *   <li>{@code executor.wakeups} (events): times another thread woke a blocked worker</li>
 *   <li>{@code executor.io.polls} (operations): polls of the workers' IO selectors</li>
 *   <li>{@code executor.io.ready} (events): ready channels those polls reported</li>
 *   <li>{@code executor.io.wakeups} (events): sleeps that a worker's own IO ended</li>
 *   <li>{@code executor.io.watchdog.polls} (operations): polls the IO watchdog made for busy workers</li>
 * </ul>
 * Gauges: {@code executor.queued} (tasks: {@link PoolStats#queued()}, every queue of the pool),
 * {@code executor.injector.queued} (tasks: submissions from outside that no worker has taken yet),
 * {@code executor.parallelism} (threads: {@link ThreadPool#threadCount()}) and {@code executor.pool.size} (threads:
 * the same until the pool has terminated, then 0).
 *
 * <p>One {@link ThreadPool#stats()} snapshot serves every meter read within {@value #SNAPSHOT_REUSE_MILLIS} ms of
 * it: a scrape reads all the meters within far less than that, so it takes one snapshot (which walks the workers and
 * the injector queue) rather than one per meter, and its meters agree with each other.
 *
 * <p>As with Micrometer's own binders, the registry does not keep the pool alive: the meters refer to it weakly.
 * Once the pool has been collected, its gauges read {@code NaN} and its counters keep their last value. A closed pool
 * can still be scraped: its counters stay where they ended. Two pools bound to one registry with the same name and
 * tags would share meter ids, and the registry keeps the first pool's meters only: give each pool its own name or
 * tags.
 */
public final class SpindlePoolMetrics implements MeterBinder {
    /** How long one snapshot of the pool's counters serves meter reads, in milliseconds. */
    public static final long SNAPSHOT_REUSE_MILLIS = 100;

    private static final String PREFIX = "executor.";

    private final ThreadPool pool;
    private final Tags tags;
    private final Snapshots snapshots;

    /**
     * Binds {@code pool}'s meters with only the {@code name} tag, taken from the pool's own name.
     *
     * @param pool the pool to publish
     * @throws NullPointerException if {@code pool} is null
     */
    public SpindlePoolMetrics(ThreadPool pool) {
        this(pool, Tags.empty());
    }

    /**
     * Binds {@code pool}'s meters with {@code tags} and a {@code name} tag taken from the pool's own name.
     *
     * @param pool the pool to publish
     * @param tags tags added to every meter
     * @throws NullPointerException if {@code pool} or {@code tags} is null
     */
    public SpindlePoolMetrics(ThreadPool pool, Iterable<Tag> tags) {
        this(pool, nameOf(Objects.requireNonNull(pool, "pool")), tags);
    }

    /**
     * Binds {@code pool}'s meters with {@code tags} and the {@code name} tag {@code name}, as
     * {@code ExecutorServiceMetrics(executor, name, tags)} does.
     *
     * @param pool the pool to publish
     * @param name the value of the {@code name} tag
     * @param tags tags added to every meter
     * @throws NullPointerException if an argument is null
     */
    public SpindlePoolMetrics(ThreadPool pool, String name, Iterable<Tag> tags) {
        this(pool, name, tags, Duration.ofMillis(SNAPSHOT_REUSE_MILLIS));
    }

    /** For tests: {@code reuse} replaces {@link #SNAPSHOT_REUSE_MILLIS}. */
    SpindlePoolMetrics(ThreadPool pool, String name, Iterable<Tag> tags, Duration reuse) {
        this.pool = Objects.requireNonNull(pool, "pool");
        this.tags = Tags.concat(Objects.requireNonNull(tags, "tags"), "name", Objects.requireNonNull(name, "name"));
        this.snapshots = new Snapshots(reuse.toNanos());
    }

    /**
     * Registers the pool's meters with {@code registry}. Binding one instance to several registries is allowed; they
     * share its snapshots.
     *
     * @param registry the registry to add the meters to
     * @throws NullPointerException if {@code registry} is null
     */
    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        counter(registry, "completed", BaseUnits.TASKS, PoolStats::jobsExecuted,
                "Jobs the pool's workers took from a queue and ran (join halves run inline by their own worker are"
                        + " not counted)");
        counter(registry, "steals", BaseUnits.TASKS, PoolStats::steals,
                "Jobs a worker took from another worker's deque");
        counter(registry, "injected", BaseUnits.TASKS, PoolStats::injected,
                "Jobs submitted from threads outside the pool");
        counter(registry, "promotions", BaseUnits.TASKS, PoolStats::promotions,
                "Join halves that lazy joins made stealable at a heartbeat");
        counter(registry, "sleeps", BaseUnits.EVENTS, PoolStats::sleeps,
                "Times a worker blocked because it found no work");
        counter(registry, "wakeups", BaseUnits.EVENTS, PoolStats::wakeups,
                "Times another thread woke a blocked worker");
        counter(registry, "io.polls", BaseUnits.OPERATIONS, PoolStats::ioPolls,
                "Polls of the workers' IO selectors");
        counter(registry, "io.ready", BaseUnits.EVENTS, PoolStats::ioReadyEvents,
                "Ready channels the workers' IO selector polls reported");
        counter(registry, "io.wakeups", BaseUnits.EVENTS, PoolStats::ioWakeups,
                "Sleeps that a worker's own IO ended, with no other thread waking it");
        counter(registry, "io.watchdog.polls", BaseUnits.OPERATIONS, PoolStats::ioWatchdogPolls,
                "Polls the IO watchdog made for workers busy with a long job while holding IO");

        gauge(registry, "queued", BaseUnits.TASKS, statsOf(PoolStats::queued),
                "Jobs waiting to run in the injector, the workers' deques and their broadcast queues");
        gauge(registry, "injector.queued", BaseUnits.TASKS, statsOf(PoolStats::injectorQueued),
                "Jobs submitted from outside the pool that no worker has taken yet");
        gauge(registry, "parallelism", BaseUnits.THREADS, ThreadPool::threadCount,
                "The number of worker threads the pool was built with");
        gauge(registry, "pool.size", BaseUnits.THREADS, p -> p.isTerminated() ? 0 : p.threadCount(),
                "The number of worker threads until the pool has terminated, then 0");
    }

    private void counter(MeterRegistry registry, String name, String unit, ToDoubleFunction<PoolStats> read,
                         String description) {
        // The pool is the meter's state object, which Micrometer holds weakly; the function holds only the
        // snapshots, which refer to no pool, so the registry does not keep the pool alive.
        FunctionCounter.builder(PREFIX + name, pool, statsOf(read))
                .tags(tags)
                .baseUnit(unit)
                .description(description)
                .register(registry);
    }

    private void gauge(MeterRegistry registry, String name, String unit, ToDoubleFunction<ThreadPool> read,
                       String description) {
        Gauge.builder(PREFIX + name, pool, read)
                .tags(tags)
                .baseUnit(unit)
                .description(description)
                .register(registry);
    }

    private ToDoubleFunction<ThreadPool> statsOf(ToDoubleFunction<PoolStats> read) {
        Snapshots s = snapshots; // captured rather than `this`, which holds the pool strongly
        return p -> read.applyAsDouble(s.of(p));
    }

    /**
     * The pool's name as its {@code toString} gives it ({@code ThreadPool[name=spindle-3, threads=...]}); the pool
     * has no accessor for it. A pool whose string does not start that way gets a name from its identity, which at
     * least keeps two pools' meters apart.
     */
    static String nameOf(ThreadPool pool) {
        String s = pool.toString();
        String start = "ThreadPool[name=";
        int end = s.indexOf(',', start.length());
        if (s.startsWith(start) && end > start.length()) {
            return s.substring(start.length(), end);
        }
        return "spindle@" + Integer.toHexString(System.identityHashCode(pool));
    }

    /** The latest snapshot of a pool's counters, reused by the reads that follow it within {@code reuseNanos}. */
    private static final class Snapshots {
        private final long reuseNanos;
        // One immutable pair swapped whole: a reader never sees a snapshot with another snapshot's time. Two readers
        // that find it stale at once both take a snapshot, which is harmless.
        private volatile Timed latest;

        Snapshots(long reuseNanos) {
            this.reuseNanos = reuseNanos;
        }

        PoolStats of(ThreadPool pool) {
            Timed t = latest;
            long now = System.nanoTime();
            if (t == null || now - t.takenAt >= reuseNanos) {
                t = new Timed(pool.stats(), now);
                latest = t;
            }
            return t.stats;
        }
    }

    private record Timed(PoolStats stats, long takenAt) {}
}
