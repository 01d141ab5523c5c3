package io.spindle.bench.jmh;

import io.spindle.ThreadPool;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.TimeUnit;

/**
 * A round trip from outside the pool: hand over a trivial op, wait for its result. Spindle's {@code install} (and
 * {@code submit().get()}) against FJP's {@code invoke} (and {@code submit().get()}). Between calls the workers may
 * start to sleep, so this includes the wake-up path.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class InstallBench {
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
    public Integer spindleInstall() {
        return spindle.install(() -> 1);
    }

    @Benchmark
    public Integer fjpInvoke() {
        return fjp.invoke(new One());
    }

    @Benchmark
    public Integer spindleSubmitGet() throws InterruptedException, ExecutionException {
        return spindle.submit(() -> 1).get();
    }

    @Benchmark
    public Integer fjpSubmitGet() throws InterruptedException, ExecutionException {
        return fjp.submit(() -> 1).get();
    }

    @SuppressWarnings("serial")
    static final class One extends RecursiveTask<Integer> {
        @Override
        protected Integer compute() {
            return 1;
        }
    }
}
