package io.spindle.bench.jmh;

import io.spindle.internal.latch.BlockingLatch;
import io.spindle.internal.latch.LatchOwner;
import io.spindle.internal.latch.WorkerLatch;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.TimeUnit;

/**
 * Latches, uncontended: make one, set it, probe it (what every join whose b was stolen does), and probing one that
 * is already set (the wait loop's check). FJP's nearest: a task's completion status, {@code complete(null)} then
 * {@code isDone()}; {@link CountDownLatch} as the plain JDK reference.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LatchBench {
    private static final LatchOwner NOBODY_SLEEPS = index -> { }; // the owner never sleeps here

    private WorkerLatch setLatch;
    private DequeBench.Nop doneTask;

    @Setup(Level.Trial)
    public void setUp() {
        setLatch = new WorkerLatch(NOBODY_SLEEPS, 0);
        setLatch.set();
        doneTask = new DequeBench.Nop();
        doneTask.complete(null);
    }

    @Benchmark
    public boolean spindleWorkerLatchSetProbe() {
        WorkerLatch l = new WorkerLatch(NOBODY_SLEEPS, 0);
        l.set();
        return l.probe();
    }

    @Benchmark
    public boolean spindleBlockingLatchSetProbe() {
        BlockingLatch l = new BlockingLatch(); // its owner is this thread: set() unparks us
        l.set();
        return l.probe();
    }

    @Benchmark
    public boolean fjpTaskCompleteIsDone() {
        RecursiveAction t = new DequeBench.Nop();
        t.complete(null);
        return t.isDone();
    }

    @Benchmark
    public long jdkCountDownLatch() {
        CountDownLatch l = new CountDownLatch(1);
        l.countDown();
        return l.getCount();
    }

    @Benchmark
    public boolean spindleProbeSet() {
        return setLatch.probe();
    }

    @Benchmark
    public boolean fjpIsDoneSet() {
        return doneTask.isDone();
    }
}
