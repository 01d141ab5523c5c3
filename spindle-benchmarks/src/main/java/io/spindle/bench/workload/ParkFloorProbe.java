package io.spindle.bench.workload;

import io.spindle.ThreadPool;
import io.spindle.bench.Stats;
import io.spindle.bench.WorkerCpu;

import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A diagnostic beside the runner for issue 13's light-load rows: how much worker CPU does one job cost when each job
 * must wake a parked worker, at the least a JVM pool can do? It runs the noop rows' load (an empty task every
 * {@code period} from one outside thread) on three executors in one JVM, interleaved round by round, and prints the
 * worker CPU per job of each:
 * <ul>
 *   <li>{@code floor}: {@link ParkingExecutor}, one worker thread, a lock-free queue, and exactly one
 *       {@code unpark} by the poster and one {@code park} by the worker per job, nothing else (no stealing, no
 *       counters, no spinning): the cost of the wake-up itself on this JVM and kernel;</li>
 *   <li>{@code fjp}: a ForkJoinPool of {@code threads} workers ({@code execute});</li>
 *   <li>{@code spindle}: a Spindle pool of {@code threads} workers, default strategy ({@code spawn}).</li>
 * </ul>
 * CPU is counted as the runner counts it ({@link WorkerCpu}: the pool's own threads, from the first post to the end of
 * the window).
 *
 * <pre>
 * java -cp spindle-core/target/spindle-core-VERSION.jar:bench/target/spindle-bench-VERSION.jar \
 *     io.spindle.bench.workload.ParkFloorProbe [periodMicros=1000] [jobs=2000] [rounds=5] [threads=2] [warmJobs=20000]
 * </pre>
 *
 * <p>The warm-up posts {@code warmJobs} jobs to each executor at a 50 µs period before the measured rounds, so that
 * the JIT has compiled every executor's idle and wake paths: at a 10 ms period a round posts only a few hundred jobs,
 * and without it Spindle's paths (longer than the floor's) still ran interpreted, at twice the floor's CPU per job.
 */
public final class ParkFloorProbe {
    private ParkFloorProbe() {}

    public static void main(String[] args) throws InterruptedException {
        long periodMicros = args.length > 0 ? Long.parseLong(args[0]) : 1000;
        int jobs = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        int threads = args.length > 3 ? Integer.parseInt(args[3]) : 2;
        int warmJobs = args.length > 4 ? Integer.parseInt(args[4]) : 20_000;
        if (periodMicros < 1 || jobs < 1 || rounds < 1 || threads < 1 || warmJobs < 0) {
            throw new IllegalArgumentException("need periodMicros, jobs, rounds, threads >= 1 and warmJobs >= 0; got "
                    + periodMicros + ", " + jobs + ", " + rounds + ", " + threads + ", " + warmJobs);
        }
        long period = TimeUnit.MICROSECONDS.toNanos(periodMicros);

        WorkerCpu floorCpu = new WorkerCpu();
        WorkerCpu fjpCpu = new WorkerCpu();
        WorkerCpu spindleCpu = new WorkerCpu();
        ParkingExecutor floor = new ParkingExecutor(floorCpu);
        ForkJoinPool fjp = new ForkJoinPool(threads, pool -> {
            var t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
            fjpCpu.record(t);
            return t;
        }, null, false);
        try (ThreadPool spindle = ThreadPool.builder().threads(threads)
                .onThreadStart(i -> spindleCpu.record(Thread.currentThread())).build()) {
            // warm-up: many jobs at a short period (the JIT), then a short window at the measured period, twice
            long warmPeriod = TimeUnit.MICROSECONDS.toNanos(50);
            perJob(floor::execute, floorCpu, warmPeriod, warmJobs);
            perJob(fjp::execute, fjpCpu, warmPeriod, warmJobs);
            perJob(spindle::spawn, spindleCpu, warmPeriod, warmJobs);
            for (int i = 0; i < 2; i++) {
                perJob(floor::execute, floorCpu, period, Math.min(jobs, 300));
                perJob(fjp::execute, fjpCpu, period, Math.min(jobs, 300));
                perJob(spindle::spawn, spindleCpu, period, Math.min(jobs, 300));
            }
            double[] f = new double[rounds];
            double[] j = new double[rounds];
            double[] s = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                f[r] = perJob(floor::execute, floorCpu, period, jobs);
                j[r] = perJob(fjp::execute, fjpCpu, period, jobs);
                s[r] = perJob(spindle::spawn, spindleCpu, period, jobs);
            }
            System.out.printf(Locale.ROOT, "%s, %d threads (floor: 1), an empty job every %d us, %d jobs x %d "
                            + "rounds after %d warm-up jobs; worker CPU us per job, median (min-max):%n",
                    Runtime.version(), threads, periodMicros, jobs, rounds, warmJobs);
            print("floor", f, f);
            print("fjp", j, f);
            print("spindle", s, f);
            Stats sj = Stats.of(s);
            Stats jj = Stats.of(j);
            System.out.printf(Locale.ROOT, "spindle / fjp %.2f; per round:", sj.median() / jj.median());
            for (int r = 0; r < rounds; r++) {
                System.out.printf(Locale.ROOT, " %.2f", s[r] / j[r]);
            }
            System.out.println();
        } finally {
            fjp.shutdown();
            floor.shutdown();
        }
    }

    private static void print(String name, double[] values, double[] floor) {
        Stats v = Stats.of(values);
        System.out.printf(Locale.ROOT, "  %-8s %6.2f (%.2f-%.2f)  / floor %.2f%n", name, v.median() / 1e3,
                v.min() / 1e3, v.max() / 1e3, v.median() / Stats.of(floor).median());
    }

    /** Posts {@code jobs} empty jobs, one per period; returns the workers' CPU ns per job. */
    private static double perJob(java.util.function.Consumer<Runnable> post, WorkerCpu cpu, long period, int jobs)
            throws InterruptedException {
        AtomicInteger done = new AtomicInteger();
        Runnable job = done::incrementAndGet;
        long cpu0 = cpu.nanos();
        long start = System.nanoTime();
        for (int i = 0; i < jobs; i++) {
            Pace.parkUntil(start + i * period);
            post.accept(job);
        }
        Pace.parkUntil(start + jobs * period);
        long used = cpu.nanos() - cpu0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (done.get() < jobs) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("only " + done.get() + " of " + jobs + " jobs ran within 30 s");
            }
            Thread.sleep(1);
        }
        return (double) used / jobs;
    }

    /**
     * The least a pool can do per job when its worker sleeps between jobs: one worker, a lock-free queue, one
     * {@code unpark} per post that finds the worker idle, one {@code park} per idle period.
     */
    static final class ParkingExecutor {
        private final Queue<Runnable> queue = new ConcurrentLinkedQueue<>();
        /** True while the worker is about to park or parked: the poster that flips it to false unparks it. */
        private final AtomicBoolean idle = new AtomicBoolean();
        private volatile boolean shutdown;
        private final Thread worker;

        ParkingExecutor(WorkerCpu cpu) {
            worker = new Thread(this::work, "park-floor");
            worker.setDaemon(true);
            cpu.record(worker);
            worker.start();
        }

        void execute(Runnable job) {
            queue.offer(job);
            // getPlain first would save a CAS when the worker is busy; the load is light, so it rarely is
            if (idle.get() && idle.compareAndSet(true, false)) { // volatile/CAS: after the offer, before the unpark
                LockSupport.unpark(worker);
            }
        }

        private void work() {
            while (!shutdown) {
                Runnable job = queue.poll();
                if (job != null) {
                    job.run();
                    continue;
                }
                idle.set(true); // volatile: a poster's offer either is seen by the poll below or sees idle == true
                job = queue.poll();
                if (job != null) {
                    idle.set(false);
                    job.run();
                    continue;
                }
                while (idle.get() && !shutdown) {
                    LockSupport.park(this); // a spurious return re-checks idle
                }
            }
        }

        void shutdown() {
            shutdown = true;
            LockSupport.unpark(worker);
        }
    }
}
