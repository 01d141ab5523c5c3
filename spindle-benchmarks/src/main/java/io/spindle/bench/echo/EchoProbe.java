package io.spindle.bench.echo;

import io.spindle.bench.PoolKind;
import io.spindle.bench.Target;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Where an echo server's CPU goes per request (issue 29): one server, loaded by a {@link LoadGenerator} process, and
 * the server process's CPU over one measured phase split by thread group (Spindle's workers, its IO watchdog, the
 * JIT's and the collector's threads, a thread per connection, ...), per request. Between its readings of the threads'
 * CPU and the phase it waits for a line on standard input, so that a tracer ({@code strace -c -f -p}, {@code perf
 * record -p}) can attach before the phase and detach after it, and neither the probe's own reads of {@code /proc} nor
 * the connections' setup and teardown fall inside the trace ({@code bin/echo-probe} does all this).
 *
 * <pre>
 * EchoProbe POOL THREADS CONNECTIONS pingpong WINDOW_MS
 * EchoProbe POOL THREADS CONNECTIONS paced PERIOD_US REQUESTS_PER_CONNECTION
 * </pre>
 * The server is warmed first by 3 s of ping-pong on the same connections, as the runner's sparse rows warm with a
 * burst. Output: {@code pid <pid>}, then (after the line {@code go} on standard input) {@code measuring}, the phase,
 * {@code done}; then (after the line {@code stop}) the phase's outcome and one line per thread group. A thread's
 * group is its name ({@code comm}, 15 characters) with its digits dropped: {@code bench-spindle-j} for the runner's
 * Spindle workers; the JIT's C1 and C2 threads are one group.
 */
public final class EchoProbe {
    /** The group of HotSpot's C1 and C2 compiler threads ({@link ServerCpu#isCompilerThread}). */
    private static final String JIT_GROUP = "JIT compiler threads";

    private EchoProbe() {}

    public static void main(String[] args) throws Exception {
        boolean paced = args.length == 6 && args[3].equals("paced");
        if (!paced && !(args.length == 5 && args[3].equals("pingpong"))) {
            System.err.println("usage: EchoProbe POOL THREADS CONNECTIONS pingpong WINDOW_MS"
                    + " | EchoProbe POOL THREADS CONNECTIONS paced PERIOD_US REQUESTS; got " + String.join(" ", args));
            System.exit(2);
        }
        PoolKind kind = PoolKind.byId(args[0]);
        int threads = Integer.parseInt(args[1]);
        int connections = Integer.parseInt(args[2]);
        BufferedReader control = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        try (Target t = Target.open(kind, threads);
             EchoServer server = EchoServer.start(t, null);
             LoadGeneratorProcess generator = LoadGeneratorProcess.start()) {
            generator.connect(server.address(), connections);
            generator.pingPong(TimeUnit.SECONDS.toNanos(3)); // compiles the server's path, as a burst warms sparse rows
            for (int i = 0; i < 500; i++) cpuByGroup(); // and the reading's own code, whose compiling would count
            Map<String, Long> before = cpuByGroup();
            System.out.println("pid " + ProcessHandle.current().pid());
            System.out.flush();
            awaitLine(control, "go"); // a tracer attaches meanwhile
            System.out.println("measuring");
            System.out.flush();
            LoadGeneratorProcess.Outcome o = paced
                    ? generator.paced(TimeUnit.MICROSECONDS.toNanos(Long.parseLong(args[4])), Integer.parseInt(args[5]))
                    : generator.pingPong(TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[4])));
            System.out.println("done");
            System.out.flush();
            awaitLine(control, "stop"); // a tracer detaches meanwhile
            Map<String, Long> after = cpuByGroup();
            System.out.printf("%s, %d workers, %d connections, %s: %d requests in %.3f s (%.0f/s), p50 %.1f µs, "
                    + "p99 %.1f µs%n", kind.id(), threads, connections, String.join(" ", Arrays.copyOfRange(args, 3,
                    args.length)), o.requests(), o.wallNanos() / 1e9, o.requests() * 1e9 / o.wallNanos(),
                    o.p50Nanos() / 1e3, o.p99Nanos() / 1e3);
            long serverNanos = 0;
            for (Map.Entry<String, Long> e : after.entrySet()) {
                long spent = e.getValue() - before.getOrDefault(e.getKey(), 0L);
                if (spent <= 0) continue;
                if (!e.getKey().equals(JIT_GROUP)) serverNanos += spent;
                System.out.printf("  %-24s %8.2f µs/request%n", e.getKey(), spent / 1e3 / o.requests());
            }
            System.out.printf("  %-24s %8.2f µs/request (the JIT's threads and the probe's main thread, which waits "
                    + "and reads /proc, left out, as the runner leaves them out)%n", "server",
                    serverNanos / 1e3 / o.requests());
            generator.disconnect();
        }
    }

    private static void awaitLine(BufferedReader control, String wanted) throws IOException {
        String line = control.readLine();
        if (!wanted.equals(line)) throw new IOException("expected '" + wanted + "' on standard input, got " + line);
    }

    /**
     * CPU time of this process's threads so far but the caller's, ns, by thread group: the thread's name with its
     * digits dropped ({@code spindle-1-io-watchdog} counts as {@code spindle--io-wa}, {@code comm} keeping 15
     * characters), and the JIT's C1 and C2 threads together as {@link #JIT_GROUP}. A thread that ended between the two
     * readings loses what it spent since the first.
     */
    private static Map<String, Long> cpuByGroup() throws IOException {
        Map<String, Long> groups = new TreeMap<>();
        for (ServerCpu.ThreadCpu t : ServerCpu.threadsBesidesCaller()) {
            String group = ServerCpu.isCompilerThread(t.name()) ? JIT_GROUP : t.name().replaceAll("[0-9]+", "");
            groups.merge(group, t.nanos(), Long::sum);
        }
        return groups;
    }
}
