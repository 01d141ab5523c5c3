package io.spindle.bench.echo;

import io.spindle.bench.PoolKind;
import io.spindle.bench.Target;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Where an echo server's CPU goes per request (issue 29): one server, loaded by a {@link LoadGenerator} process, and
 * the server process's CPU over one measured phase split by thread (Spindle's workers, its IO watchdog, the JIT's and
 * the collector's threads, a thread per connection, ...), per request. It prints its process id and pauses before the
 * phase, so that {@code strace -c -f -p} or {@code perf record -p} can attach for exactly that phase
 * ({@code bin/echo-probe} does both).
 *
 * <pre>
 * EchoProbe POOL THREADS CONNECTIONS pingpong WINDOW_MS
 * EchoProbe POOL THREADS CONNECTIONS paced PERIOD_US REQUESTS_PER_CONNECTION
 * </pre>
 * The server is warmed first by 3 s of ping-pong on the same connections, as the runner's sparse rows warm with a
 * burst. Output: {@code pid}, then {@code measuring} when the phase starts (after a pause of {@code -Dprobe.attachMs},
 * default 1500 ms), then the phase's outcome and one line per thread group.
 */
public final class EchoProbe {
    private EchoProbe() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: EchoProbe POOL THREADS CONNECTIONS pingpong WINDOW_MS"
                    + " | EchoProbe POOL THREADS CONNECTIONS paced PERIOD_US REQUESTS");
            System.exit(2);
        }
        PoolKind kind = PoolKind.byId(args[0]);
        int threads = Integer.parseInt(args[1]);
        int connections = Integer.parseInt(args[2]);
        boolean paced = args[3].equals("paced");
        long attachMillis = Long.getLong("probe.attachMs", 1500);
        try (Target t = Target.open(kind, threads);
             EchoServer server = EchoServer.start(t, null);
             LoadGeneratorProcess generator = LoadGeneratorProcess.start()) {
            generator.connect(server.address(), connections);
            generator.pingPong(TimeUnit.SECONDS.toNanos(3)); // compiles the server's path, as a burst warms sparse rows
            for (int i = 0; i < 500; i++) cpuByGroup(); // and the reading's own code, whose compiling would count
            System.out.println("pid " + ProcessHandle.current().pid());
            System.out.flush();
            Thread.sleep(attachMillis);
            System.out.println("measuring");
            System.out.flush();
            Map<String, Long> before = cpuByGroup();
            LoadGeneratorProcess.Outcome o = paced
                    ? generator.paced(TimeUnit.MICROSECONDS.toNanos(Long.parseLong(args[4])), Integer.parseInt(args[5]))
                    : generator.pingPong(TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[4])));
            Map<String, Long> after = cpuByGroup();
            System.out.println("done");
            System.out.printf("%s, %d workers, %d connections, %s: %d requests in %.3f s (%.0f/s), p50 %.1f µs, "
                    + "p99 %.1f µs%n", kind.id(), threads, connections, String.join(" ", java.util.Arrays.copyOfRange(
                    args, 3, args.length)), o.requests(), o.wallNanos() / 1e9, o.requests() * 1e9 / o.wallNanos(),
                    o.p50Nanos() / 1e3, o.p99Nanos() / 1e3);
            long total = 0;
            for (Map.Entry<String, Long> e : after.entrySet()) {
                long spent = e.getValue() - before.getOrDefault(e.getKey(), 0L);
                if (spent <= 0) continue;
                total += spent;
                System.out.printf("  %-24s %8.2f µs/request%n", e.getKey(), spent / 1e3 / o.requests());
            }
            System.out.printf("  %-24s %8.2f µs/request (the probe's main thread, which waits and reads /proc, "
                    + "left out)%n", "process", total / 1e3 / o.requests());
            generator.disconnect();
            Thread.sleep(attachMillis); // time for a tracer to detach before the process ends
        }
    }

    /**
     * CPU time of this process's threads so far but the caller's, ns, by thread group: the thread's name with its digits dropped
     * ({@code spindle-3-worker-1} counts as {@code spindle--worker-}), from Linux's {@code /proc/self/task}. A thread
     * that ended between the two readings loses what it spent since the first.
     */
    private static Map<String, Long> cpuByGroup() throws IOException {
        Map<String, Long> groups = new TreeMap<>();
        String self = Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                if (task.getFileName().toString().equals(self)) continue; // the reader: waits, and reads this
                try {
                    String name = Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).trim();
                    String line = Files.readString(task.resolve("schedstat"), StandardCharsets.US_ASCII);
                    long nanos = Long.parseLong(line.substring(0, line.indexOf(' ')));
                    groups.merge(name.replaceAll("[0-9]+", ""), nanos, Long::sum);
                } catch (IOException | RuntimeException ended) {
                    // the thread ended between the listing and the read
                }
            }
        }
        return groups;
    }
}
