package io.spindle.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The CPU time of a pool's worker threads, counted the same way for every pool: each pool hands us its threads as it
 * starts them (Spindle through its {@code onThreadStart} hook, ForkJoinPool through its thread factory), and we add up
 * their {@link ThreadMXBean#getThreadCpuTime(long)}.
 */
public final class WorkerCpu {
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    static {
        if (!MX.isThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM cannot measure per-thread CPU time; the CPU metrics need it");
        }
        if (!MX.isThreadCpuTimeEnabled()) {
            MX.setThreadCpuTimeEnabled(true);
        }
    }

    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    // A thread that ended reports -1; keep its last reading so the total never goes backwards. Pools live for one
    // workload only, shorter than ForkJoinPool's 60 s keep-alive, so in practice no worker ends while measured.
    private final Map<Long, Long> lastSeen = new HashMap<>();

    /** Called on (or for) each new worker thread. */
    public void record(Thread t) {
        threads.add(t);
    }

    /** @return the worker threads recorded so far, in the order they started */
    public List<Thread> threads() {
        return List.copyOf(threads);
    }

    /** @return the summed CPU time of every recorded worker so far, in nanoseconds */
    public synchronized long nanos() {
        long sum = 0;
        for (Thread t : threads) {
            @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+; we compile for 17
            long id = t.getId();
            long cpu = MX.getThreadCpuTime(id);
            if (cpu >= 0) lastSeen.put(id, cpu);
            sum += lastSeen.getOrDefault(id, 0L);
        }
        return sum;
    }
}
