package io.spindle.bench.echo;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The server's CPU time in the IO workloads: the CPU time of the whole process less that of the calling thread, read
 * by that thread. The server runs in the runner's JVM; the caller is either the runner's thread, which waits for a
 * {@link LoadGenerator} in a JVM of its own to answer (the echo rows since issue 29: independent clients, in their own
 * process, as servers are loaded), or the one {@link EchoClient} thread that multiplexes every connection in the
 * runner's JVM ({@code echo-mux-16conn}, and {@code echo-idle-50conn}, whose connections send nothing). What the
 * server does costs it, GC included: the process's time counts every thread, not only the server's (whose threads,
 * for virtual threads or Netty, we cannot all name). The other contenders of the run are idle meanwhile (their pools
 * asleep, their servers closed), which is part of the reading.
 *
 * <p>The JIT's compiler threads are left out (issue 29's review): compiling is a start-up cost that a server which
 * runs for long does not pay per request, and under sparse traffic the paths a paced request takes (a worker's sleep,
 * a watchdog's tick) run a few times per request, so they were still being compiled in measured windows of a few
 * milliseconds of server CPU, unevenly between servers (up to 43 µs per request, a quarter of a row). They are named
 * by their thread names, {@code C1 CompilerThre…} and {@code C2 CompilerThre…} ({@code comm} keeps 15 characters).
 *
 * <p>Where: Linux's per-thread {@code /proc/self/task/<tid>/schedstat}, nanoseconds on CPU, for every thread of the
 * process except the caller's own, which is left out by its tid ({@code /proc/thread-self}), and the compiler threads,
 * left out by their {@code comm}. The JDK's process CPU time
 * ({@code OperatingSystemMXBean.getProcessCpuTime}) has only the kernel tick's 10 ms resolution on Linux, too coarse
 * for a sparse run of a few ms of server CPU. Every term of the sum only grows, so the sum never goes back:
 * <ul>
 *   <li>The caller is left out of the sum rather than subtracted. Subtracting its {@code ThreadMXBean} time (as this
 *       class once did) subtracted the CPU of the reading itself, a listing and 50-odd file reads, which the
 *       caller's own {@code schedstat} line, read earlier in the same listing, did not yet include: an idle window
 *       came out at -0.7 ms (-13.6 ms per 2 s) on JDK 25.</li>
 *   <li>A thread that ends (JDK 25 retires idle JIT compiler threads; a pool may shrink) keeps counting with the time
 *       of its last reading; what it spent after that reading is lost, an undercount, never a fall. A thread that
 *       starts and ends between two readings is not counted at all: the echo servers' threads start before a
 *       measured window (connections are made first) and outlive it.</li>
 *   <li>A tid reused by a new thread: a reading below the last one is a new thread, and the old one's last reading
 *       moves to the ended threads' sum.</li>
 * </ul>
 * Elsewhere (no /proc) the sum of the JVM's own threads but the caller through {@link ThreadMXBean}, which leaves out
 * the GC and JIT threads and can fall when a thread ends; the benchmarks' numbers are read on Linux.
 */
public final class ServerCpu {
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    private static final Path TASKS = Path.of("/proc/self/task");
    private static final Path THREAD_SELF = Path.of("/proc/thread-self");
    private static final boolean PROC = Files.isDirectory(TASKS);
    /** Each live thread's last reading, by tid (procNanos only, under the class's lock). */
    private static final Map<String, Long> LAST_READ = new HashMap<>();
    /** The last readings of the threads that ended since (procNanos only, under the class's lock). */
    private static long endedNanos;

    static {
        if (!MX.isThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM cannot measure per-thread CPU time; the IO metrics need it");
        }
        if (!MX.isThreadCpuTimeEnabled()) MX.setThreadCpuTimeEnabled(true);
    }

    private ServerCpu() {}

    /**
     * @return CPU time of the whole process so far, less the calling thread's and the JIT compiler threads', ns; read
     *         on the thread that drives or waits for the clients
     */
    public static long besidesCallerNanos() {
        if (PROC) {
            String callerTid = callerTid();
            if (callerTid != null) {
                return procNanosBesides(callerTid);
            }
        }
        return jvmThreadsNanosBesidesCaller();
    }

    /** @return the calling thread's tid from {@code /proc/thread-self} ({@code <pid>/task/<tid>}), or null */
    private static String callerTid() {
        try {
            Path link = Files.readSymbolicLink(THREAD_SELF);
            return link.getFileName().toString();
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return null; // a kernel before 3.17 has no /proc/thread-self
        }
    }

    private static synchronized long procNanosBesides(String callerTid) {
        List<ThreadCpu> threads;
        try {
            threads = threadsBesides(callerTid);
        } catch (IOException e) {
            return jvmThreadsNanosBesidesCaller();
        }
        long sum = 0;
        Set<String> live = new HashSet<>();
        for (ThreadCpu t : threads) {
            if (isCompilerThread(t.name())) {
                continue; // a JIT thread: left out (see the class comment)
            }
            Long before = LAST_READ.put(t.tid(), t.nanos());
            if (before != null && before > t.nanos()) {
                endedNanos += before; // the tid was reused: the thread that had it ended
            }
            sum += t.nanos();
            live.add(t.tid());
        }
        // a thread that ended since the last reading (or between the listing and its read) counts at its last reading
        for (Iterator<Map.Entry<String, Long>> it = LAST_READ.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Long> read = it.next();
            if (!live.contains(read.getKey())) {
                endedNanos += read.getValue();
                it.remove();
            }
        }
        return sum + endedNanos;
    }

    /** One thread of this process: its tid, its name ({@code comm}, at most 15 characters), its CPU time so far, ns. */
    record ThreadCpu(String tid, String name, long nanos) {}

    /**
     * @return every thread of this process but the caller, read from Linux's {@code /proc/self/task}; a thread that
     *         ends between the listing and its read is left out
     * @throws IOException if {@code /proc} cannot be read, or has no {@code /proc/thread-self} to tell the caller by
     */
    static List<ThreadCpu> threadsBesidesCaller() throws IOException {
        String callerTid = callerTid();
        if (callerTid == null) throw new IOException("no /proc/thread-self here");
        return threadsBesides(callerTid);
    }

    private static List<ThreadCpu> threadsBesides(String callerTid) throws IOException {
        List<ThreadCpu> threads = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                String tid = task.getFileName().toString();
                if (tid.equals(callerTid)) {
                    continue;
                }
                try {
                    String name = Files.readString(task.resolve("comm"), StandardCharsets.US_ASCII).trim();
                    String line = Files.readString(task.resolve("schedstat"), StandardCharsets.US_ASCII);
                    int space = line.indexOf(' ');
                    long nanos = Long.parseLong(space < 0 ? line.trim() : line.substring(0, space));
                    threads.add(new ThreadCpu(tid, name, nanos));
                } catch (IOException | NumberFormatException e) {
                    // the thread ended between the listing and the read
                }
            }
        }
        return threads;
    }

    /** @return whether a thread of this name is one of HotSpot's JIT compiler threads ("C1 CompilerThread0", ...) */
    static boolean isCompilerThread(String name) {
        return name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre");
    }

    private static long jvmThreadsNanosBesidesCaller() {
        long caller = Thread.currentThread().getId();
        long sum = 0;
        for (long id : MX.getAllThreadIds()) {
            if (id == caller) continue;
            long cpu = MX.getThreadCpuTime(id);
            if (cpu > 0) sum += cpu; // -1: the thread ended since the listing
        }
        return sum;
    }
}
