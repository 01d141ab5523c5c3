package io.spindle.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The heap bytes a set of threads allocated, through HotSpot's
 * {@link com.sun.management.ThreadMXBean#getThreadAllocatedBytes(long[])}: what bytes_per_join counts. Per thread,
 * not the whole heap, so that the JIT's and the runner's own allocations stay out; a pool hands us its workers as it
 * starts them (see {@link WorkerCpu}), the caller adds itself. A JVM without that bean (not HotSpot) or with the
 * counting switched off for good gets no bytes_per_join rows, and the reports say why.
 */
public final class ThreadAllocations {
    private static final com.sun.management.ThreadMXBean MX;
    private static final String UNSUPPORTED;

    static {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        com.sun.management.ThreadMXBean hotspot = null;
        String why = null;
        if (!(mx instanceof com.sun.management.ThreadMXBean)) {
            why = "this JVM's ThreadMXBean (" + mx.getClass().getName() + ") is not com.sun.management.ThreadMXBean";
        } else {
            hotspot = (com.sun.management.ThreadMXBean) mx;
            if (!hotspot.isThreadAllocatedMemorySupported()) {
                why = "this JVM does not count the bytes each thread allocates";
            } else if (!hotspot.isThreadAllocatedMemoryEnabled()) {
                try {
                    hotspot.setThreadAllocatedMemoryEnabled(true);
                } catch (UnsupportedOperationException | SecurityException e) {
                    why = "per-thread allocation counting is off and could not be switched on: " + e;
                }
            }
        }
        MX = why == null ? hotspot : null;
        UNSUPPORTED = why;
    }

    // A thread that ended reports -1; keep its last reading so that a total never goes backwards (as WorkerCpu does).
    private final Map<Long, Long> lastSeen = new HashMap<>();

    /** @return why bytes cannot be counted in this JVM, or empty if they can */
    public static Optional<String> unsupported() {
        return Optional.ofNullable(UNSUPPORTED);
    }

    /**
     * @return the bytes allocated so far by {@code threads} (each counted once), summed
     * @throws UnsupportedOperationException if {@link #unsupported()} says why not
     */
    public synchronized long bytes(List<Thread> threads) {
        if (MX == null) throw new UnsupportedOperationException(UNSUPPORTED);
        Set<Long> unique = new LinkedHashSet<>();
        for (Thread t : threads) {
            @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+; we compile for 17
            long id = t.getId();
            unique.add(id);
        }
        long[] ids = unique.stream().mapToLong(Long::longValue).toArray();
        long[] bytes = MX.getThreadAllocatedBytes(ids);
        long sum = 0;
        for (int i = 0; i < ids.length; i++) {
            if (bytes[i] >= 0) lastSeen.put(ids[i], bytes[i]);
            sum += lastSeen.getOrDefault(ids[i], 0L);
        }
        return sum;
    }
}
