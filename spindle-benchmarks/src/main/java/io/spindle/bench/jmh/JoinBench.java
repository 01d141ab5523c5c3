package io.spindle.bench.jmh;

import io.spindle.Spindle;
import io.spindle.ThreadPool;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.TimeUnit;

/**
 * One empty join on a worker: {@code Spindle.join(a, b)} with empty closures (push b, run a, pop b back), against
 * FJP's {@code fork()} of an empty task, nothing inline, {@code join()}. With 2 threads the push may also have to
 * wake the idle worker, which is the cost the runtime keeps small.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class JoinBench {
    static final int BATCH = 1024;
    private static final Runnable EMPTY = () -> { };

    @Param({"1", "2"})
    public int threads;

    private ThreadPool spindle;
    private ForkJoinPool fjp;

    @Setup(Level.Trial)
    public void setUp() {
        spindle = ThreadPool.builder().threads(threads).build();
        fjp = new ForkJoinPool(threads);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        spindle.close();
        fjp.shutdownNow();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object spindleEmptyJoin() {
        return spindle.install(() -> {
            for (int i = 0; i < BATCH; i++) Spindle.join(EMPTY, EMPTY);
            return null;
        });
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object fjpEmptyForkJoin() {
        return fjp.invoke(new ForkJoinLoop());
    }

    @SuppressWarnings("serial")
    static final class ForkJoinLoop extends RecursiveAction {
        @Override
        protected void compute() {
            for (int i = 0; i < BATCH; i++) {
                DequeBench.Nop b = new DequeBench.Nop();
                b.fork();
                b.join();
            }
        }
    }
}
