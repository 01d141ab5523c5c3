package io.spindle;

import static io.spindle.IoFixtures.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where things run (docs/DESIGN.md §6, "Where things run", "Busy owners"): dependent stages run on
 * the pool's workers and free functions inside them mean this pool; IO owned by a worker that is busy with a long task
 * (or with an endless stream of short jobs) still completes. None of these assertions depend on timing: a stranded
 * completion shows up as a busy task that gave up waiting for it after {@link IoFixtures#HANG}.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PoolIoPlacementTest {

    /** What a dependent stage saw of where it ran. */
    record Where(Thread thread, boolean indexPresent, int threadCount, Set<Thread> spawnedOn) {}

    /** A stage body that records where it runs, and where free functions called inside it run their work. */
    static Where where(Object ignored) {
        Set<Thread> spawnedOn = ConcurrentHashMap.newKeySet();
        Spindle.scope(s -> {
            for (int i = 0; i < 4; i++) {
                s.spawn(() -> spawnedOn.add(Thread.currentThread()));
            }
        });
        return new Where(Thread.currentThread(), Spindle.currentThreadIndex().isPresent(),
                Spindle.currentThreadCount(), spawnedOn);
    }

    private static void assertOnPool(IoFixtures.IoPool p, Set<Thread> workers, String what, Where w) {
        assertTrue(workers.contains(w.thread()), what + ": dependent stage ran on " + w.thread().getName()
                + ", not on a worker of the pool");
        assertTrue(w.indexPresent(), what + ": Spindle.currentThreadIndex() empty in a dependent stage");
        assertEquals(p.pool.threadCount(), w.threadCount(), what + ": Spindle.currentThreadCount() is not this pool's");
        assertTrue(workers.containsAll(w.spawnedOn()), what + ": Spindle.scope inside a stage ran work off this pool: "
                + w.spawnedOn());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void dependentStagesRunOnThePoolsWorkers(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            Set<Thread> workers = new HashSet<>(p.workerThreads());
            for (boolean onWorker : new boolean[] {false, true}) {
                String from = onWorker ? " started on a worker" : " started off the pool";
                Function<java.util.function.Supplier<CompletableFuture<?>>, CompletableFuture<?>> start =
                        s -> onWorker ? p.pool.install(s) : s.get();
                // every stage is added before anything can complete the operation
                IoFixtures.Conn c = p.conn();
                CompletableFuture<?> read = start.apply(() -> p.io.read(c.mine(), ByteBuffer.allocate(8)));
                CompletableFuture<Where> readStage = read.thenApply(PoolIoPlacementTest::where);
                CompletableFuture<Where> readAsync = read.thenApplyAsync(PoolIoPlacementTest::where);
                CompletableFuture<?> ready = start.apply(() -> p.io.ready(c.mine(), SelectionKey.OP_READ));
                CompletableFuture<Where> readyStage = ready.thenApply(PoolIoPlacementTest::where);
                ServerSocketChannel server = p.server();
                CompletableFuture<?> accept = start.apply(() -> p.io.accept(server));
                CompletableFuture<Where> acceptStage = accept.thenApply(PoolIoPlacementTest::where);
                assertFalse(read.isDone() || ready.isDone() || accept.isDone(), "completed with nothing to do");

                IoFixtures.writeFully(c.peer(), new byte[] {1});
                p.closing(SocketChannel.open(server.getLocalAddress()));
                assertOnPool(p, workers, "read" + from, get(readStage, p.ctx()));
                assertOnPool(p, workers, "read, *Async stage" + from, get(readAsync, p.ctx()));
                assertOnPool(p, workers, "ready" + from, get(readyStage, p.ctx()));
                assertOnPool(p, workers, "accept" + from, get(acceptStage, p.ctx()));
                p.closing((SocketChannel) accept.join());

                // a write may complete at once; its *Async stages still run on this pool
                CompletableFuture<?> write = start.apply(() -> p.io.write(c.mine(), ByteBuffer.allocate(4)));
                assertOnPool(p, workers, "write, *Async stage" + from,
                        get(write.thenApplyAsync(PoolIoPlacementTest::where), p.ctx()));
            }
        }
    }

    /**
     * The worker that started a read runs a long task that waits for that read's completion. The read's completion
     * must not wait behind the task: some other worker serves it (watchdog hand-off), and the busy task sees it. If
     * the IO were stranded, the busy task would give up after {@link IoFixtures#HANG} and the test fails. Spinning and
     * blocked variants: a CPU-bound task and one parked on a latch look the same to the pool (a job that runs long).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#multiWorkerConfigs")
    void readyIoOnABusyWorkerIsNotStranded(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            for (boolean spin : new boolean[] {false, true}) {
                int channels = 3;
                IoFixtures.Conn[] conns = new IoFixtures.Conn[channels];
                for (int i = 0; i < channels; i++) {
                    conns[i] = p.conn();
                }
                CountDownLatch completed = new CountDownLatch(channels);
                Set<Thread> completers = ConcurrentHashMap.newKeySet();
                AtomicReference<Thread> owner = new AtomicReference<>();
                AtomicBoolean sawCompletion = new AtomicBoolean();
                AtomicReference<Throwable> failed = new AtomicReference<>();
                CountDownLatch started = new CountDownLatch(1);
                CountDownLatch taskEnded = new CountDownLatch(1);
                p.pool.execute(() -> {
                    try {
                        owner.set(Thread.currentThread());
                        for (IoFixtures.Conn c : conns) {
                            p.io.read(c.mine(), ByteBuffer.allocate(8)).whenComplete((v, e) -> {
                                if (e != null) {
                                    failed.set(e);
                                }
                                completers.add(Thread.currentThread());
                                completed.countDown();
                            });
                        }
                        started.countDown();
                        // the long task: waits (generously) for its own reads to complete
                        long deadline = System.nanoTime() + IoFixtures.HANG.toNanos();
                        if (spin) {
                            while (completed.getCount() > 0 && System.nanoTime() - deadline < 0) {
                                Thread.yield(); // busy, yet fair to a 2-core machine
                            }
                            sawCompletion.set(completed.getCount() == 0);
                        } else {
                            sawCompletion.set(completed.await(IoFixtures.HANG.toMillis(), TimeUnit.MILLISECONDS));
                        }
                    } catch (Throwable e) {
                        failed.set(e);
                    } finally {
                        taskEnded.countDown();
                    }
                });
                Watchdog.await(started, IoFixtures.HANG, p.ctx());
                p.phase = "owner busy (spin=" + spin + ")";
                for (IoFixtures.Conn c : conns) {
                    IoFixtures.writeFully(c.peer(), new byte[] {7});
                }
                Watchdog.await(taskEnded, IoFixtures.HANG.plusSeconds(10), p.ctx());
                assertEquals(null, failed.get(), "a read failed");
                assertTrue(sawCompletion.get(), () -> "ready IO of a busy worker was stranded behind its long task"
                        + " (spin=" + spin + "); " + p.ctx().get());
                assertNotNull(owner.get());
                assertFalse(completers.contains(owner.get()),
                        "the busy owner itself completed its reads while running its task: " + completers);
            }
        }
    }

    /**
     * A worker that started a read never goes idle: it runs an endless stream of short jobs (each spawns the next)
     * until the read completes. The read must complete while the stream runs (a busy worker polls every 64 jobs, or
     * the watchdog hands the IO over); a stranded read ends the stream at {@link IoFixtures#HANG} and fails the test.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void ioCompletesUnderAnEndlessStreamOfShortJobs(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            AtomicBoolean readDone = new AtomicBoolean();
            AtomicBoolean gaveUp = new AtomicBoolean();
            AtomicInteger jobs = new AtomicInteger();
            CountDownLatch streamEnded = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(1);
            long deadline = System.nanoTime() + IoFixtures.HANG.toNanos();
            Runnable[] step = new Runnable[1];
            step[0] = () -> {
                jobs.incrementAndGet();
                if (readDone.get()) {
                    streamEnded.countDown();
                } else if (System.nanoTime() - deadline > 0) {
                    gaveUp.set(true);
                    streamEnded.countDown();
                } else {
                    Spindle.spawn(step[0]);
                }
            };
            CompletableFuture<Integer> read = new CompletableFuture<>();
            p.pool.execute(() -> {
                p.io.read(c.mine(), ByteBuffer.allocate(8)).whenComplete((v, e) -> {
                    readDone.set(true);
                    if (e != null) {
                        read.completeExceptionally(e);
                    } else {
                        read.complete(v);
                    }
                });
                Spindle.spawn(step[0]);
                started.countDown();
            });
            Watchdog.await(started, IoFixtures.HANG, p.ctx());
            IoFixtures.writeFully(c.peer(), new byte[] {1, 2});
            Watchdog.await(streamEnded, IoFixtures.HANG.plusSeconds(10), p.ctx());
            assertFalse(gaveUp.get(), () -> "the read was stranded behind " + jobs.get() + " short jobs; "
                    + p.ctx().get());
            int r = get(read, p.ctx());
            assertTrue(r == 1 || r == 2, "read " + r);
        }
    }

    /** Sanity: the pool's workers as the tests above see them. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#oneWorkerConfigs")
    void oneWorkerPoolStillServesIoStartedOffThePool(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            List<Thread> workers = p.workerThreads();
            IoFixtures.Conn c = p.conn();
            CompletableFuture<Thread> on = p.io.read(c.mine(), ByteBuffer.allocate(4))
                    .thenApply(r -> Thread.currentThread());
            IoFixtures.writeFully(c.peer(), new byte[] {1});
            assertEquals(workers.get(0), get(on, p.ctx()));
            assertNotEquals(Thread.currentThread(), workers.get(0));
        }
    }
}
