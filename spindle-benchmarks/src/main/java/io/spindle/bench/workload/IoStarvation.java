package io.spindle.bench.workload;

import io.spindle.bench.Metric;
import io.spindle.bench.PoolKind;
import io.spindle.bench.Target;
import io.spindle.bench.Value;
import io.spindle.bench.echo.Starvation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * io-starvation (issue 15): the round trip of a request whose channel's owning worker is busy with a long task
 * ({@link Starvation}); Spindle only, as the baselines have no owner to keep busy (a thread per connection, or a
 * selector thread that runs no tasks).
 */
final class IoStarvation implements Workload {
    private final int busyMillis;

    IoStarvation(int busyMillis) {
        this.busyMillis = busyMillis;
    }

    @Override
    public String name() {
        return "io-starvation";
    }

    @Override
    public String description() {
        return String.format("the round trip of a 64 B echo request sent while the worker that owns the connection's "
                + "pending read runs a %d ms task, ms", busyMillis);
    }

    @Override
    public boolean supports(PoolKind kind) {
        return kind.isSpindle() && Echo.supportsIo(kind);
    }

    @Override
    public List<Metric> metrics(PoolKind kind) {
        return List.of(Metric.DELAY_MS);
    }

    @Override
    public List<Value> run(Target t, boolean warmup) {
        long busy = TimeUnit.MILLISECONDS.toNanos(warmup ? Math.min(busyMillis, 100) : busyMillis);
        try {
            long delay = Starvation.delayNanos(t.spindle(), busy);
            return List.of(new Value(Metric.DELAY_MS, t.threads(), delay / 1e6));
        } catch (IOException e) {
            throw new UncheckedIOException("io-starvation on " + t.kind().id() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
