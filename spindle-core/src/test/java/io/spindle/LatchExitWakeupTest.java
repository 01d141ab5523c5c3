package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A lost wake-up at a latch exit: a worker that an outside thread woke only by setting the latch it waited on leaves
 * the wait loop without searching, so it must not be counted as an idle searcher by a post that comes right after.
 *
 * <p>Each round, with every worker of the pool asleep:
 * <ol>
 *   <li>job J runs on worker W0 and waits, in the worker loop, for a future of this pool ({@code join()} or
 *       {@code get()} of a {@code PoolCompletableFuture}) that only an outside thread completes; every worker falls
 *       asleep, W0 on that future's latch (the pool's per-worker stats tell when each one blocks). In every other
 *       round W0 is made to block first, the others held in a broadcast copy until it has: the first blocked
 *       worker is HINT_PIPE's pipe watcher, which reads the hint written for X;</li>
 *   <li>the outside thread completes the future (its latch is set, which wakes W0) and then, at once, posts job X
 *       from outside ({@code execute}, {@code spawn}, {@code submit} or {@code runAsync});</li>
 *   <li>J resumes and blocks W0 (a plain {@link CountDownLatch}, not a pool wait) until X starts, so X can only run on
 *       another worker.</li>
 * </ol>
 * The bug: the latch set takes W0 off the sleeping count, the post of X sees one awake idle worker (W0) and wakes
 * nobody, and W0 returns into J without searching; X then waits in the injector while the other workers sleep, for
 * as long as J waits. Here J waits (at most) {@link #X_START_DEADLINE}, which turns that hang into a failure with a
 * thread dump; J is then released, so X runs on W0 and the pool closes cleanly. No timing is asserted: X only has to
 * start within a very generous deadline.
 */
class LatchExitWakeupTest {
    /** Rounds per configuration that reach the interleaving (every worker asleep before the latch set)... */
    static final int ROUNDS = 100;
    /** ...or at least these once {@link #BUDGET} is spent (a round takes a few ms unless the machine is loaded). */
    static final int MIN_ROUNDS = 20;
    static final Duration BUDGET = Duration.ofSeconds(15);
    /** Rounds that never see every worker asleep before the test gives up (not expected on an idle pool). */
    static final int MAX_MISSED = 10;
    /** How long X may take to start; a lost wake-up waits for J to give up, far longer. Not a timing check. */
    static final Duration X_START_DEADLINE = Duration.ofSeconds(10);
    /** Deadline for the other steps of a round (J starts, J's future wait returns, J ends). */
    static final Duration STEP = Duration.ofSeconds(20);
    /** Longest one round waits for every worker to fall asleep; a round that never sees it is not counted. */
    static final Duration SETTLE = Duration.ofSeconds(3);

    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    /** Every strategy at 2 workers (the reported program) and at 3 (two sleepers left behind). */
    static Stream<Arguments> configs() {
        return TestPools.all().stream()
                .filter(c -> c.threads() == 2 || c.threads() == 3)
                .map(Arguments::of);
    }

    /** What a failure message says: config, round, step, and the pool's counters and workers' states. */
    static final class Ctx implements java.util.function.Supplier<String> {
        final TestPools.Config config;
        final String prefix;
        volatile String step = "start";
        volatile ThreadPool pool;
        volatile Watchdog.Workers workers;

        Ctx(TestPools.Config config) {
            this.config = config;
            this.prefix = "lx" + POOL_IDS.incrementAndGet() + "-w";
        }

        @Override
        public String get() {
            ThreadPool p = pool;
            Watchdog.Workers w = workers;
            return "config=" + config + " step=[" + step + "] stats=" + (p == null ? "-" : p.stats()) + " workers=["
                    + (w == null ? "-" : w.describe()) + "]";
        }
    }

    /** @return whether the stats count every worker as blocked right now (each: one more sleep than wake-ups) */
    static boolean everyWorkerAsleep(ThreadPool pool) {
        List<WorkerStats> ws = pool.stats().workers();
        for (WorkerStats w : ws) {
            if (w.sleeps() - w.wakeups() < 1) {
                return false;
            }
        }
        return !ws.isEmpty();
    }

    /** @return whether the stats count worker {@code index} as blocked right now */
    static boolean asleep(ThreadPool pool, int index) {
        WorkerStats w = pool.stats().workers().get(index);
        return w.sleeps() - w.wakeups() >= 1;
    }

    /** Waits (at most {@link #SETTLE}) until every worker is asleep, seen on two polls in a row. */
    static boolean settle(ThreadPool pool) {
        int[] streak = {0};
        return Watchdog.poll(() -> {
            streak[0] = everyWorkerAsleep(pool) ? streak[0] + 1 : 0;
            return streak[0] >= 2;
        }, SETTLE);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void postRightAfterOutsideLatchSetIsNotLost(TestPools.Config config) {
        Ctx ctx = new Ctx(config);
        int aimed = 0;
        int missed = 0;
        try (Watchdog.Guard g = Watchdog.guard(
                config.builder().threadName(i -> ctx.prefix + i).build(), ctx)) {
            ThreadPool pool = g.pool();
            ctx.pool = pool;
            ctx.workers = new Watchdog.Workers(pool, ctx.prefix, config.threads());
            long start = System.nanoTime();
            for (int round = 0; aimed < ROUNDS && missed <= MAX_MISSED; round++) {
                if (aimed >= MIN_ROUNDS && System.nanoTime() - start > BUDGET.toNanos()) {
                    break; // a loaded machine: enough rounds reached the interleaving
                }
                if (runRound(pool, ctx, round)) {
                    aimed++;
                } else {
                    missed++;
                }
            }
            System.out.println("[LatchExitWakeupTest] " + config + ": " + aimed + " rounds posted X right after the "
                    + "latch set with every worker asleep (" + missed + " rounds never saw them all asleep); "
                    + pool.stats().toString().lines().findFirst().orElse(""));
            // Not a timing check: an idle pool whose workers did not all fall asleep within 3 s, round after round,
            // means the interleaving under test never happened.
            assertTrue(missed <= MAX_MISSED && aimed >= MIN_ROUNDS, "only " + aimed + " of " + (aimed + missed)
                    + " rounds saw every worker asleep; " + ctx.get());
        }
    }

    /**
     * One round; see the class documentation.
     *
     * @return whether every worker was seen asleep before the latch set (the round aimed at the bug)
     */
    private static boolean runRound(ThreadPool pool, Ctx ctx, int round) {
        boolean jSleepsFirst = (round & 1) == 1;
        boolean viaGet = (round & 2) != 0;
        int postKind = (round >> 2) & 3;
        String how = "J waits with " + (viaGet ? "get()" : "join()") + ", X posted with "
                + List.of("execute", "spawn", "submit", "runAsync").get(postKind)
                + (jSleepsFirst ? ", J's worker fell asleep first" : "");
        ctx.step = "round " + round + " (" + how + "): starting J";

        // A future of this pool that only an outside event completes: join()/get() on a worker wait in its loop.
        CompletableFuture<Integer> outside = new CompletableFuture<>();
        CompletableFuture<Integer> poolFuture = pool.supplyAsync(() -> 0).thenCompose(v -> outside);

        CountDownLatch jWaiting = new CountDownLatch(1);  // J is about to wait for poolFuture
        CountDownLatch jResumed = new CountDownLatch(1);  // J's wait for poolFuture returned
        CountDownLatch xStarted = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);   // X started, or the test gave up and releases J
        CountDownLatch jDone = new CountDownLatch(1);
        AtomicReference<Throwable> jFailure = new AtomicReference<>();
        AtomicReference<Integer> jWorker = new AtomicReference<>();

        pool.execute(() -> {
            try {
                jWorker.set(Spindle.currentThreadIndex().orElse(-1));
                jWaiting.countDown();
                int v = viaGet ? poolFuture.get() : poolFuture.join();
                assertEquals(round, v);
                jResumed.countDown();
                // Keeps this worker busy (not in the pool's wait loop) until X starts: X can only run elsewhere.
                // The backstop only matters if the test thread itself is gone.
                if (!proceed.await(X_START_DEADLINE.toMillis() + STEP.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new AssertionError("J was never released");
                }
            } catch (Throwable e) {
                jFailure.set(e);
            } finally {
                jDone.countDown();
            }
        });
        Watchdog.await(jWaiting, STEP, ctx);

        int jw = jWorker.get();
        if (jSleepsFirst) {
            // Which worker blocks first matters to some protocols (HINT_PIPE's pipe watcher is the first blocked
            // worker): every other worker holds in a broadcast copy until J's worker (woken for its own copy) has
            // blocked again in J's wait.
            ctx.step = "round " + round + " (" + how + "): J (on worker " + jw + ") waits for its future; holding "
                    + "the other workers until it sleeps";
            AtomicBoolean jwRanCopy = new AtomicBoolean();
            Watchdog.run(STEP, ctx, () -> pool.broadcast(c -> {
                if (c.index() == jw) {
                    jwRanCopy.set(true);
                } else {
                    Watchdog.poll(() -> jwRanCopy.get() && asleep(pool, jw), SETTLE);
                }
                return null;
            }));
        }
        ctx.step = "round " + round + " (" + how + "): J (on worker " + jw
                + ") waits for its future; waiting for every worker to fall asleep";
        boolean asleep = settle(pool);

        // The outside thread (this one): set J's latch, then post X at once.
        ctx.step = "round " + round + " (" + how + "): completed J's future, posted X (every worker was "
                + (asleep ? "" : "NOT ") + "asleep)";
        Runnable x = () -> {
            xStarted.countDown();
            proceed.countDown();
        };
        outside.complete(round);
        switch (postKind) {
            case 0 -> pool.execute(x);
            case 1 -> pool.spawn(x);
            case 2 -> pool.submit(x);
            default -> pool.runAsync(x);
        }

        boolean resumed = false;
        try {
            Watchdog.await(jResumed, STEP, ctx); // a hang here is another lost wake-up: the latch set woke nobody
            resumed = true;
            if (!awaitQuietly(xStarted, X_START_DEADLINE)) {
                String dump = Watchdog.threadDump();
                throw new AssertionError("LOST WAKE-UP: X, posted from outside right after J's future was completed "
                        + "(which woke J's worker from its latch wait), did not start within "
                        + X_START_DEADLINE.toMillis() + " ms while J kept its worker busy waiting for X: no sleeping "
                        + "worker was woken for X (the latch-woken worker was counted as an idle searcher but "
                        + "returned into J without searching)\ncontext: " + ctx.get() + "\n" + dump);
            }
        } finally {
            proceed.countDown(); // release J in any case, so X can run on J's worker and the pool can close
            if (resumed) {
                Watchdog.await(jDone, STEP, ctx);
            }
        }
        Throwable jf = jFailure.get();
        if (jf != null) {
            throw new AssertionError("J failed; context: " + ctx.get(), jf);
        }
        return asleep;
    }

    private static boolean awaitQuietly(CountDownLatch latch, Duration deadline) {
        try {
            return latch.await(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
