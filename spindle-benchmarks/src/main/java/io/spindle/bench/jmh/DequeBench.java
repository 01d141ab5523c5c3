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
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.TimeUnit;

/**
 * The owner's side of the deque: push a batch, pop it back (LIFO), per push+pop pair. FJP's deque is private; its
 * owner-side operations are {@code fork()} (push) and {@code tryUnfork()} (pop), run on a worker of a one-thread
 * pool so nobody steals.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DequeBench {
    static final int BATCH = 1024;

    private ChaseLevDeque<Object> deque;
    private final Object item = new Object();
    private ForkJoinPool fjp;
    private Nop[] tasks;

    @Setup(Level.Trial)
    public void setUp() {
        deque = new ChaseLevDeque<>();
        for (int i = 0; i < BATCH; i++) deque.push(item); // grow once, outside the measurement
        while (deque.pop() != null) { }
        fjp = new ForkJoinPool(1);
        tasks = new Nop[BATCH];
        for (int i = 0; i < BATCH; i++) tasks[i] = new Nop();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        fjp.shutdownNow();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void spindlePushPop(Blackhole bh) {
        for (int i = 0; i < BATCH; i++) deque.push(item);
        for (int i = 0; i < BATCH; i++) bh.consume(deque.pop());
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void fjpForkTryUnfork(Blackhole bh) {
        fjp.invoke(new ForkUnfork(tasks, bh));
    }

    /** Forks every task, then takes them back newest first; on the pool's only worker, nobody can steal them. */
    @SuppressWarnings("serial")
    static final class ForkUnfork extends RecursiveAction {
        private final Nop[] tasks;
        private final Blackhole bh;

        ForkUnfork(Nop[] tasks, Blackhole bh) {
            this.tasks = tasks;
            this.bh = bh;
        }

        @Override
        protected void compute() {
            for (Nop t : tasks) t.fork();
            for (int i = tasks.length - 1; i >= 0; i--) bh.consume(tasks[i].tryUnfork());
        }
    }

    /** An empty task. */
    @SuppressWarnings("serial")
    static final class Nop extends RecursiveAction {
        @Override
        protected void compute() {}
    }
}
