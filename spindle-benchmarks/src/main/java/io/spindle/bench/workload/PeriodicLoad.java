package io.spindle.bench.workload;

import io.spindle.bench.Target;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The light loads of docs/DESIGN.md §4.2 (noop, sparse): from one thread outside the pool, submit a task every
 * {@code period} for a while ({@code spawn} on Spindle, {@code execute} on ForkJoinPool), each task busy for
 * {@code taskNanos}. Records each task's submit-to-start latency and the workers' CPU time over the window.
 */
final class PeriodicLoad {
    /** A lost wake-up would leave tasks unrun forever: give up after this long and say so. */
    private static final long DRAIN_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

    /**
     * @param latencies submit-to-start of each task, ns
     * @param cpuNanos  worker CPU time from the first submission to the end of the window
     * @param wallNanos the window: tasks x period
     */
    record Outcome(long[] latencies, long cpuNanos, long wallNanos) {
        int tasks() {
            return latencies.length;
        }
    }

    private PeriodicLoad() {}

    static Outcome run(Target t, long periodNanos, long windowNanos, long taskNanos) {
        int tasks = (int) Math.max(1, windowNanos / periodNanos);
        long[] latencies = new long[tasks];
        AtomicInteger done = new AtomicInteger();
        long cpu0 = t.workerCpuNanos();
        long start = System.nanoTime();
        for (int i = 0; i < tasks; i++) {
            Pace.parkUntil(start + i * periodNanos);
            int slot = i;
            long submitted = System.nanoTime();
            Runnable task = () -> {
                latencies[slot] = System.nanoTime() - submitted;
                if (taskNanos > 0) Pace.spinFor(taskNanos);
                done.incrementAndGet(); // publishes latencies[slot] to the reader below
            };
            if (t.kind().isSpindle()) {
                t.spindle().spawn(task);
            } else {
                t.fjp().execute(task);
            }
        }
        long end = start + tasks * periodNanos;
        Pace.parkUntil(end); // the last task had a full period to run, as every other did
        long cpu = t.workerCpuNanos() - cpu0;
        awaitAll(done, tasks, t);
        return new Outcome(latencies, cpu, end - start);
    }

    private static void awaitAll(AtomicInteger done, int tasks, Target t) {
        long deadline = System.nanoTime() + DRAIN_TIMEOUT_NANOS;
        while (done.get() < tasks) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(t.kind().id() + ": only " + done.get() + " of " + tasks
                        + " tasks ran within 30 s (a lost wake-up?)");
            }
            Pace.parkUntil(System.nanoTime() + 100_000);
        }
    }
}
