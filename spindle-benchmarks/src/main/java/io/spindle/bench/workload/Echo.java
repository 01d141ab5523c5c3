package io.spindle.bench.workload;

import io.spindle.bench.Metric;
import io.spindle.bench.PoolKind;
import io.spindle.bench.Stats;
import io.spindle.bench.Target;
import io.spindle.bench.Value;
import io.spindle.bench.echo.Compute;
import io.spindle.bench.echo.EchoClient;
import io.spindle.bench.echo.EchoServer;
import io.spindle.bench.echo.LoadGenerator;
import io.spindle.bench.echo.LoadGeneratorProcess;
import io.spindle.bench.echo.ServerCpu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The loopback echo workloads of issue 15, each on a fresh server per run ({@link EchoServer}: Spindle's pool with
 * {@code ThreadPool.io()}, and the baselines of {@link PoolKind#isIoServer()}). Since issue 29 they are driven the way
 * servers are loaded: by a {@link LoadGenerator} in a JVM of its own, one blocking client thread per connection, and
 * the server's CPU is the runner's process's less the runner thread's and the JIT's ({@link ServerCpu}); the runner
 * thread only waits for the generator's answer meanwhile. Both processes share the machine's cores, the same for
 * every server.
 * <ul>
 * <li>{@code echo-1conn}, {@code echo-16conn}, {@code echo-64conn}, {@code echo-256conn} (group {@code echo}):
 *     64-byte ping-pong on that many connections for a window: requests/s, round-trip p50/p99, server CPU per
 *     request;</li>
 * <li>{@code echo-mux-16conn} (group {@code echo}): as echo-16conn, but all connections multiplexed by one client
 *     thread in the runner's JVM ({@link EchoClient}), the client of issue 15, kept for comparison: its one
 *     {@code epoll_wait} turns the answers of a wake-up into a burst of requests, which flatters selector servers;</li>
 * <li>{@code echo-sparse-1ms}, {@code echo-sparse-10ms}, {@code echo-sparse-16conn-1ms},
 *     {@code echo-sparse-16conn-10ms} (group {@code echo-sparse}): one or 16 connections, each sending one request
 *     every 1 / 10 ms: round-trip p50/p99, server CPU per request, and the server's CPU % over the whole run, which is
 *     mostly the idle time between requests;</li>
 * <li>{@code echo-compute}: as echo on 16 connections, each request running a ~100 µs fork-join computation
 *     ({@link Compute}) before it is answered.</li>
 * </ul>
 */
final class Echo implements Workload {
    /** The connections of echo-compute: echo's headline row, enough requests in flight to keep 2 workers busy. */
    static final int COMPUTE_CONNECTIONS = 16;
    /** The quiet pause between connecting and measuring, so that no earlier run's wind-down is counted in this one. */
    /** A sparse warm-up run's ping-pong burst before its paced requests (see run). */
    private static final long SPARSE_WARMUP_BURST_NANOS = 200_000_000L;
    private static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    enum Shape { PING_PONG, SPARSE, COMPUTE }

    /** Who sends the requests. */
    enum Client {
        /** A {@link LoadGenerator} process, one blocking client thread per connection. */
        PROCESS,
        /** One {@link EchoClient} thread in the runner's JVM multiplexing every connection. */
        MULTIPLEXED
    }

    private final String name;
    private final String group;
    private final Shape shape;
    private final Client client;
    private final int connections;
    private final long windowNanos;
    private final long periodNanos;
    private final int requests;
    private Compute compute;
    private LoadGeneratorProcess generator;

    private Echo(String name, String group, Shape shape, Client client, int connections, long windowNanos,
                 long periodNanos, int requests) {
        this.name = name;
        this.group = group;
        this.shape = shape;
        this.client = client;
        this.connections = connections;
        this.windowNanos = windowNanos;
        this.periodNanos = periodNanos;
        this.requests = requests;
    }

    /** echo on {@code connections} connections, a window of {@code windowMillis} per run. */
    static Echo pingPong(int connections, int windowMillis) {
        return new Echo("echo-" + connections + "conn", "echo", Shape.PING_PONG, Client.PROCESS, connections,
                TimeUnit.MILLISECONDS.toNanos(windowMillis), 0, 0);
    }

    /** echo-mux: as {@link #pingPong}, the connections multiplexed by one client thread in the runner's JVM. */
    static Echo multiplexed(int connections, int windowMillis) {
        return new Echo("echo-mux-" + connections + "conn", "echo", Shape.PING_PONG, Client.MULTIPLEXED, connections,
                TimeUnit.MILLISECONDS.toNanos(windowMillis), 0, 0);
    }

    /** echo-sparse: {@code requests} requests on each of {@code connections}, one every {@code periodMillis}. */
    static Echo sparse(int connections, int periodMillis, int requests) {
        String conns = connections == 1 ? "" : connections + "conn-";
        return new Echo("echo-sparse-" + conns + periodMillis + "ms", "echo-sparse", Shape.SPARSE, Client.PROCESS,
                connections, 0, TimeUnit.MILLISECONDS.toNanos(periodMillis), requests);
    }

    /** echo-compute: {@link #COMPUTE_CONNECTIONS} connections, a window of {@code windowMillis} per run. */
    static Echo compute(int windowMillis) {
        return new Echo("echo-compute", "echo-compute", Shape.COMPUTE, Client.PROCESS, COMPUTE_CONNECTIONS,
                TimeUnit.MILLISECONDS.toNanos(windowMillis), 0, 0);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String group() {
        return group;
    }

    @Override
    public String description() {
        String clients = client == Client.PROCESS
                ? "a load generator process, one blocking client thread per connection; server CPU = the runner "
                        + "process's less the runner thread's (which waits) and the JIT's"
                : "one client thread in the runner's JVM multiplexing them; server CPU = process CPU less the client "
                        + "thread's and the JIT's";
        String conns = connections + " connection" + (connections == 1 ? "" : "s");
        return switch (shape) {
            case PING_PONG -> String.format("loopback echo of 64 B, ping-pong on %s for %.1f s; %s", conns,
                    windowNanos / 1e9, clients);
            case SPARSE -> String.format("loopback echo of 64 B, %s, each sending one request every %d ms, %d "
                    + "requests each; cpu_percent: server CPU / wall time over the run, mostly the idle time between "
                    + "requests; %s", conns, TimeUnit.NANOSECONDS.toMillis(periodNanos), requests, clients);
            case COMPUTE -> String.format("loopback echo of 64 B on %s for %.1f s, each request running a ~100 µs "
                    + "fork-join sum first (Spindle: joins in the IO completion stage; baselines: a RecursiveTask on "
                    + "their ForkJoinPool); %s", conns, windowNanos / 1e9, clients);
        };
    }

    @Override
    public boolean supports(PoolKind kind) {
        return supportsIo(kind);
    }

    /** @return whether an IO workload runs on {@code kind}: an IO baseline, or a Spindle pool once it has IO */
    static boolean supportsIo(PoolKind kind) {
        if (kind.isIoServer()) return true;
        return kind.isSpindle() && EchoServer.spindleUnavailableReason().isEmpty();
    }

    @Override
    public List<Metric> metrics(PoolKind kind) {
        return shape == Shape.SPARSE
                ? List.of(Metric.LATENCY_P50_US, Metric.LATENCY_P99_US, Metric.CPU_US_PER_REQUEST,
                        Metric.CPU_PERCENT)
                : List.of(Metric.REQUESTS_PER_S, Metric.LATENCY_P50_US, Metric.LATENCY_P99_US,
                        Metric.CPU_US_PER_REQUEST);
    }

    @Override
    public void setUp() {
        if (shape == Shape.COMPUTE) compute = Compute.calibrate();
        if (client == Client.PROCESS) {
            try {
                generator = LoadGeneratorProcess.start();
            } catch (IOException e) {
                throw new UncheckedIOException(name + ": the load generator did not start", e);
            }
        }
    }

    /** @return who sends this row's requests */
    Client client() {
        return client;
    }

    /** For tests: echo-compute with a computation of a size of their own instead of the calibrated one. */
    void setCompute(Compute c) {
        compute = c;
    }

    @Override
    public void tearDown() {
        compute = null;
        if (generator != null) {
            try {
                generator.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                generator = null;
            }
        }
    }

    @Override
    public List<Value> run(Target t, boolean warmup) {
        try (EchoServer server = EchoServer.start(t, shape == Shape.COMPUTE ? compute : null)) {
            Measured m = client == Client.PROCESS ? fromProcess(server, warmup) : fromThisJvm(server);
            int n = t.threads();
            double cpuPerRequest = m.cpuNanos / 1e3 / m.requests;
            List<Value> values = new ArrayList<>(4);
            if (shape != Shape.SPARSE) {
                values.add(new Value(Metric.REQUESTS_PER_S, n, m.requests * 1e9 / m.wallNanos));
            }
            values.add(new Value(Metric.LATENCY_P50_US, n, m.p50Nanos / 1e3));
            values.add(new Value(Metric.LATENCY_P99_US, n, m.p99Nanos / 1e3));
            values.add(new Value(Metric.CPU_US_PER_REQUEST, n, cpuPerRequest));
            if (shape == Shape.SPARSE) values.add(new Value(Metric.CPU_PERCENT, n, 100.0 * m.cpuNanos / m.wallNanos));
            return values;
        } catch (IOException e) {
            throw new UncheckedIOException(name + " on " + t.kind().id() + ": " + e.getMessage(), e);
        }
    }

    /** A measured window: requests answered, its length, round-trip percentiles, and the server's CPU over it. */
    private record Measured(int requests, long wallNanos, double p50Nanos, double p99Nanos, long cpuNanos) {}

    private Measured fromProcess(EchoServer server, boolean warmup) throws IOException {
        if (generator == null) throw new IllegalStateException(name + ": run before setUp");
        generator.connect(server.address(), connections); // each served once: no accept or start-up in the window
        Throwable failed = null;
        try {
            if (warmup && shape == Shape.SPARSE) {
                // At one request per period the JIT takes tens of seconds to compile a server's path (its thresholds
                // count invocations), so short paced warm-ups would leave compilation inside the measured runs, and
                // charge it to the servers with the most Java code on their path. A burst first compiles it.
                generator.pingPong(SPARSE_WARMUP_BURST_NANOS);
            }
            Pace.parkUntil(System.nanoTime() + SETTLE_NANOS);
            long cpu0 = ServerCpu.besidesCallerNanos();
            LoadGeneratorProcess.Outcome o = shape == Shape.SPARSE
                    ? generator.paced(periodNanos, warmup ? Math.min(requests, 50) : requests)
                    : generator.pingPong(windowNanos);
            long cpu = ServerCpu.besidesCallerNanos() - cpu0;
            return new Measured(o.requests(), o.wallNanos(), o.p50Nanos(), o.p99Nanos(), cpu);
        } catch (IOException | RuntimeException | Error e) {
            failed = e;
            throw e;
        } finally {
            try {
                generator.disconnect();
            } catch (IOException | RuntimeException e) {
                if (failed == null) throw e;
                failed.addSuppressed(e); // the phase's own failure is the one to report
            }
        }
    }

    /** The multiplexing client, ping-pong only (the rows of {@link #multiplexed}). */
    private Measured fromThisJvm(EchoServer server) throws IOException {
        try (EchoClient c = EchoClient.connect(server.address(), connections)) {
            c.roundTrip(0); // the server has accepted and served this connection: no start-up in the window
            Pace.parkUntil(System.nanoTime() + SETTLE_NANOS);
            long cpu0 = ServerCpu.besidesCallerNanos();
            EchoClient.Outcome o = c.pingPong(windowNanos);
            long cpu = ServerCpu.besidesCallerNanos() - cpu0;
            return new Measured(o.requests(), o.wallNanos(), Stats.percentile(o.latencies(), 50),
                    Stats.percentile(o.latencies(), 99), cpu);
        }
    }
}
