package io.spindle.bench.echo;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The server's CPU time in the IO workloads, where the client runs in the same JVM on one thread: the CPU time of
 * the whole process less that of the client thread, read by the client thread itself.
 *
 * <p>Why one client thread in the runner's JVM rather than a client JVM: every server is driven by the same client
 * code in the same way, and on 2 cores one client thread takes at most one core from the server, as a client process
 * would; a second JVM would add its own JIT and GC threads competing for the cores at random moments, and a protocol to
 * hand the numbers back. What the server does costs it, GC and JIT included: the process's time counts every thread,
 * not only the server's (whose threads, for virtual threads or Netty, we cannot all name). The other contenders of
 * the run are idle meanwhile (their pools asleep, their servers closed), which is part of the reading.
 *
 * <p>Where: Linux's per-thread {@code /proc/self/task/<tid>/schedstat}, nanoseconds on CPU, for every thread of the
 * process. The JDK's process CPU time ({@code OperatingSystemMXBean.getProcessCpuTime}) has only the kernel tick's
 * 10 ms resolution on Linux, too coarse for a sparse run of a few ms of server CPU. Elsewhere (no /proc) the sum of
 * the JVM's own threads through {@link ThreadMXBean}, which leaves out the GC and JIT threads. A thread that ends
 * during the window takes its time with it; the servers' threads live for the whole window.
 */
public final class ServerCpu {
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    private static final Path TASKS = Path.of("/proc/self/task");
    private static final boolean PROC = Files.isDirectory(TASKS);

    static {
        if (!MX.isThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM cannot measure per-thread CPU time; the IO metrics need it");
        }
        if (!MX.isThreadCpuTimeEnabled()) MX.setThreadCpuTimeEnabled(true);
    }

    private ServerCpu() {}

    /** @return CPU time of the whole process so far, less the calling thread's, ns; on the client thread */
    public static long besidesCallerNanos() {
        long process = PROC ? procNanos() : jvmThreadsNanos();
        return process - MX.getCurrentThreadCpuTime();
    }

    private static long procNanos() {
        long sum = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                try {
                    String line = Files.readString(task.resolve("schedstat"), StandardCharsets.US_ASCII);
                    int space = line.indexOf(' ');
                    sum += Long.parseLong(space < 0 ? line.trim() : line.substring(0, space));
                } catch (IOException | NumberFormatException e) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException e) {
            return jvmThreadsNanos();
        }
        return sum;
    }

    private static long jvmThreadsNanos() {
        long sum = 0;
        for (long id : MX.getAllThreadIds()) {
            long cpu = MX.getThreadCpuTime(id);
            if (cpu > 0) sum += cpu; // -1: the thread ended since the listing
        }
        return sum;
    }
}
