package io.spindle.bench.workload;

import io.spindle.bench.Metric;
import io.spindle.bench.PoolKind;
import io.spindle.bench.Target;
import io.spindle.bench.Value;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * oversubscribed: {@link #POOLS} pools of {@link #THREADS} threads each run fib-cutoff at the same moment, more
 * threads than cores: how well the pools share the machine (idle workers spinning steal cores from busy ones).
 * time_ms is the time until the last one finished. The sequential baseline is {@link #POOLS} plain threads.
 */
final class Oversubscribed implements Workload {
    static final int POOLS = 4;
    static final int THREADS = 2;
    private final int fib;

    Oversubscribed(int fib) {
        this.fib = fib;
    }

    @Override
    public String name() {
        return "oversubscribed";
    }

    @Override
    public String description() {
        return String.format("%d pools of %d threads each run fib-cutoff fib(%d) at once; time until all are done",
                POOLS, THREADS, fib);
    }

    @Override
    public boolean supports(PoolKind kind) {
        return !kind.isIoServer();
    }

    @Override
    public List<Metric> metrics(PoolKind kind) {
        return List.of(Metric.TIME_MS);
    }

    @Override
    public List<Value> run(Target t, boolean warmup) {
        List<Target> pools = new ArrayList<>();
        try {
            for (int i = 0; i < POOLS; i++) pools.add(t.sibling(THREADS));
            long nanos = raceAll(pools);
            return List.of(new Value(Metric.TIME_MS, t.kind() == PoolKind.SEQUENTIAL ? 1 : THREADS, nanos / 1e6));
        } finally {
            pools.forEach(Target::close);
        }
    }

    /** Starts one caller thread per pool at the same moment; returns the time until the last one finished. */
    private long raceAll(List<Target> pools) {
        CountDownLatch ready = new CountDownLatch(pools.size());
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> callers = new ArrayList<>();
        for (Target p : pools) {
            Thread caller = new Thread(() -> {
                ready.countDown();
                try {
                    go.await();
                    ComputeWorkload.expect("fib(" + fib + ")", fibOn(p), FibNaive.value(fib));
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "oversubscribed-caller");
            caller.start();
            callers.add(caller);
        }
        awaitUninterruptibly(ready);
        long start = System.nanoTime();
        go.countDown();
        callers.forEach(Oversubscribed::joinUninterruptibly);
        long nanos = System.nanoTime() - start;
        if (failure.get() != null) throw new IllegalStateException("oversubscribed run failed", failure.get());
        return nanos;
    }

    private long fibOn(Target p) {
        return switch (p.kind()) {
            case FJP -> p.fjp().invoke(new FibCutoff.Task(fib));
            case SEQUENTIAL -> FibNaive.sequential(fib);
            default -> p.spindle().install(() -> FibCutoff.spindle(fib));
        };
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void joinUninterruptibly(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException("interrupted", e);
        }
    }
}
