package io.spindle.bench.workload;

import io.spindle.bench.Metric;
import io.spindle.bench.PoolKind;
import io.spindle.bench.Stats;
import io.spindle.bench.Target;
import io.spindle.bench.Value;
import io.spindle.bench.echo.Compute;
import io.spindle.bench.echo.EchoClient;
import io.spindle.bench.echo.EchoServer;
import io.spindle.bench.echo.ServerCpu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The loopback echo workloads of issue 15, each on a fresh server per run ({@link EchoServer}: Spindle's pool with
 * {@code ThreadPool.io()}, and the baselines of {@link PoolKind#isIoServer()}), driven by the one {@link EchoClient}
 * on the runner's thread; the server's CPU is the process's less the client thread's ({@link ServerCpu}).
 * <ul>
 * <li>{@code echo-1conn}, {@code echo-16conn}, {@code echo-128conn} (group {@code echo}): 64-byte ping-pong on that
 *     many connections for a window: requests/s, round-trip p50/p99, server CPU per request;</li>
 * <li>{@code echo-sparse-1ms}, {@code echo-sparse-10ms} (group {@code echo-sparse}): one connection, one request
 *     every 1 / 10 ms: round-trip p50/p99, server CPU per request, and the server's CPU % over the whole run, which
 *     is mostly the idle time between requests;</li>
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

    private final String name;
    private final String group;
    private final Shape shape;
    private final int connections;
    private final long windowNanos;
    private final long periodNanos;
    private final int requests;
    private Compute compute;

    private Echo(String name, String group, Shape shape, int connections, long windowNanos, long periodNanos,
                 int requests) {
        this.name = name;
        this.group = group;
        this.shape = shape;
        this.connections = connections;
        this.windowNanos = windowNanos;
        this.periodNanos = periodNanos;
        this.requests = requests;
    }

    /** echo on {@code connections} connections, a window of {@code windowMillis} per run. */
    static Echo pingPong(int connections, int windowMillis) {
        return new Echo("echo-" + connections + "conn", "echo", Shape.PING_PONG, connections,
                TimeUnit.MILLISECONDS.toNanos(windowMillis), 0, 0);
    }

    /** echo-sparse: {@code requests} requests, one every {@code periodMillis}. */
    static Echo sparse(int periodMillis, int requests) {
        return new Echo("echo-sparse-" + periodMillis + "ms", "echo-sparse", Shape.SPARSE, 1, 0,
                TimeUnit.MILLISECONDS.toNanos(periodMillis), requests);
    }

    /** echo-compute: {@link #COMPUTE_CONNECTIONS} connections, a window of {@code windowMillis} per run. */
    static Echo compute(int windowMillis) {
        return new Echo("echo-compute", "echo-compute", Shape.COMPUTE, COMPUTE_CONNECTIONS,
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
        return switch (shape) {
            case PING_PONG -> String.format("loopback echo of 64 B, ping-pong on %d connection%s for %.1f s; one "
                    + "client thread in the runner's JVM; server CPU = process CPU less the client thread's",
                    connections, connections == 1 ? "" : "s", windowNanos / 1e9);
            case SPARSE -> String.format("loopback echo of 64 B, one connection, one request every %d ms, %d requests;"
                    + " cpu_percent: server CPU / wall time over the run, mostly the idle time between requests",
                    TimeUnit.NANOSECONDS.toMillis(periodNanos), requests);
            case COMPUTE -> String.format("loopback echo of 64 B on %d connections for %.1f s, each request running a "
                    + "~100 µs fork-join sum first (Spindle: joins in the IO completion stage; baselines: a "
                    + "RecursiveTask on their ForkJoinPool)", connections, windowNanos / 1e9);
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
    }

    /** For tests: echo-compute with a computation of a size of their own instead of the calibrated one. */
    void setCompute(Compute c) {
        compute = c;
    }

    @Override
    public void tearDown() {
        compute = null;
    }

    @Override
    public List<Value> run(Target t, boolean warmup) {
        try (EchoServer server = EchoServer.start(t, shape == Shape.COMPUTE ? compute : null);
             EchoClient client = EchoClient.connect(server.address(), connections)) {
            client.roundTrip(0); // the server has accepted and served this connection: no start-up in the window
            if (warmup && shape == Shape.SPARSE) {
                // At one request per period the JIT takes tens of seconds to compile a server's path (its thresholds
                // count invocations), so short paced warm-ups would leave compilation inside the measured runs, and
                // charge it to the servers with the most Java code on their path. A burst first compiles it.
                client.pingPong(SPARSE_WARMUP_BURST_NANOS);
            }
            Pace.parkUntil(System.nanoTime() + SETTLE_NANOS);
            long cpu0 = ServerCpu.besidesCallerNanos();
            EchoClient.Outcome o = shape == Shape.SPARSE
                    ? client.paced(periodNanos, warmup ? Math.min(requests, 50) : requests)
                    : client.pingPong(windowNanos);
            long cpu = ServerCpu.besidesCallerNanos() - cpu0;
            int n = t.threads();
            double cpuPerRequest = cpu / 1e3 / o.requests();
            double p50 = Stats.percentile(o.latencies(), 50) / 1e3;
            double p99 = Stats.percentile(o.latencies(), 99) / 1e3;
            List<Value> values = new ArrayList<>(4);
            if (shape != Shape.SPARSE) {
                values.add(new Value(Metric.REQUESTS_PER_S, n, o.requests() * 1e9 / o.wallNanos()));
            }
            values.add(new Value(Metric.LATENCY_P50_US, n, p50));
            values.add(new Value(Metric.LATENCY_P99_US, n, p99));
            values.add(new Value(Metric.CPU_US_PER_REQUEST, n, cpuPerRequest));
            if (shape == Shape.SPARSE) values.add(new Value(Metric.CPU_PERCENT, n, 100.0 * cpu / o.wallNanos()));
            return values;
        } catch (IOException e) {
            throw new UncheckedIOException(name + " on " + t.kind().id() + ": " + e.getMessage(), e);
        }
    }
}
