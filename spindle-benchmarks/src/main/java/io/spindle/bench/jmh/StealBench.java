package io.spindle.bench.jmh;

import io.spindle.internal.deque.ChaseLevDeque;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.TimeUnit;

/**
 * The thief's side, uncontended: push a batch, then take it from the top with {@code steal()} (the CAS a thief pays),
 * per push+steal pair. FJP's nearest: in a FIFO ({@code asyncMode}) pool, {@code pollNextLocalTask()} takes from the
 * same base end thieves use, with the same CAS. A contended steal is what the runner's join workloads measure.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class StealBench {
    static final int BATCH = 1024;

    private ChaseLevDeque<Object> deque;
    private final Object item = new Object();
    private ForkJoinPool fifo;
    private DequeBench.Nop[] tasks;

    @Setup(Level.Trial)
    public void setUp() {
        deque = new ChaseLevDeque<>();
        for (int i = 0; i < BATCH; i++) deque.push(item);
        while (deque.steal() != null) { }
        fifo = new ForkJoinPool(1, ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, true);
        tasks = new DequeBench.Nop[BATCH];
        for (int i = 0; i < BATCH; i++) tasks[i] = new DequeBench.Nop();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        fifo.shutdownNow();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void spindlePushSteal(Blackhole bh) {
        for (int i = 0; i < BATCH; i++) deque.push(item);
        for (int i = 0; i < BATCH; i++) bh.consume(deque.steal());
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void fjpForkPollFifo(Blackhole bh) {
        fifo.invoke(new ForkPoll(tasks, bh));
    }

    /** Forks every task, then polls them back oldest first from the base (the stealing end). */
    @SuppressWarnings("serial")
    static final class ForkPoll extends RecursiveAction {
        private final DequeBench.Nop[] tasks;
        private final Blackhole bh;

        ForkPoll(DequeBench.Nop[] tasks, Blackhole bh) {
            this.tasks = tasks;
            this.bh = bh;
        }

        @Override
        protected void compute() {
            for (DequeBench.Nop t : tasks) t.fork();
            for (ForkJoinTask<?> t; (t = pollNextLocalTask()) != null; ) bh.consume(t);
        }
    }
}
