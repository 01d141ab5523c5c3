package io.spindle.bench.workload;

import io.spindle.bench.Metric;
import io.spindle.bench.PoolKind;
import io.spindle.bench.Target;
import io.spindle.bench.Value;
import io.spindle.bench.echo.EchoClient;
import io.spindle.bench.echo.EchoServer;
import io.spindle.bench.echo.ServerCpu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * echo-idle-50conn (issue 15's "idle connections", in the echo-sparse group): 50 connections open to the echo server,
 * each served once (so every server holds a pending read on each), then nothing sent: the server's CPU over the
 * window, reported per 2 s (the window is shorter with --quick). An idle pool with idle connections should use none.
 * The whole process's time (but the JIT compiler threads', {@link ServerCpu}) includes the JVM's own threads (GC, ...)
 * and the client thread's reads of it, a floor every server shares; Spindle's rows also give the time of the pool's
 * worker threads alone (docs/DESIGN.md §6: idle workers with idle connections use no CPU).
 */
final class IoIdle implements Workload {
    static final int CONNECTIONS = 50;
    private static final double REPORTED_PER_MILLIS = 2_000;
    private static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final int windowMillis;

    IoIdle(int windowMillis) {
        this.windowMillis = windowMillis;
    }

    @Override
    public String name() {
        return "echo-idle-" + CONNECTIONS + "conn";
    }

    @Override
    public String group() {
        return "echo-sparse";
    }

    @Override
    public String description() {
        return String.format("%d idle connections to the echo server (each answered once): server CPU over %.1f s, "
                + "reported per 2 s", CONNECTIONS, windowMillis / 1000.0);
    }

    @Override
    public boolean supports(PoolKind kind) {
        return Echo.supportsIo(kind);
    }

    @Override
    public List<Metric> metrics(PoolKind kind) {
        return kind.isSpindle() ? List.of(Metric.IDLE_CPU_MS, Metric.IDLE_WORKER_CPU_MS) : List.of(Metric.IDLE_CPU_MS);
    }

    /** @return {@code cpuNanos} spent over {@code elapsedNanos}, as ms per {@link #REPORTED_PER_MILLIS} */
    private static double perWindow(long cpuNanos, long elapsedNanos) {
        return cpuNanos / 1e6 * REPORTED_PER_MILLIS * 1e6 / elapsedNanos;
    }

    @Override
    public List<Value> run(Target t, boolean warmup) {
        try (EchoServer server = EchoServer.start(t, null);
             EchoClient client = EchoClient.connect(server.address(), CONNECTIONS)) {
            for (int i = 0; i < CONNECTIONS; i++) client.roundTrip(i);
            Pace.parkUntil(System.nanoTime() + SETTLE_NANOS); // the last answer's wind-down is not idle time
            long window = TimeUnit.MILLISECONDS.toNanos(warmup ? Math.min(windowMillis, 100) : windowMillis);
            long cpu0 = ServerCpu.besidesCallerNanos();
            long workers0 = t.kind().isSpindle() ? t.workerCpuNanos() : 0;
            long start = System.nanoTime();
            Pace.parkUntil(start + window);
            long cpu = ServerCpu.besidesCallerNanos() - cpu0;
            long elapsed = System.nanoTime() - start;
            Value process = new Value(Metric.IDLE_CPU_MS, t.threads(), perWindow(cpu, elapsed));
            if (!t.kind().isSpindle()) {
                return List.of(process);
            }
            long workers = t.workerCpuNanos() - workers0;
            return List.of(process, new Value(Metric.IDLE_WORKER_CPU_MS, t.threads(), perWindow(workers, elapsed)));
        } catch (IOException e) {
            throw new UncheckedIOException(name() + " on " + t.kind().id() + ": " + e.getMessage(), e);
        }
    }
}
