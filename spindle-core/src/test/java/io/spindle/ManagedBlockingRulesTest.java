package io.spindle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Managed blocking's rules B1 to B8 ({@code io.spindle.internal.blocking}'s package-info), one test or a small family
 * per rule, through the public API only: {@link Spindle#blocking}, {@link Spindle#managedBlock},
 * {@link ThreadPool.Builder#maxBlockingThreads}, {@link ThreadPool.Builder#blockingKeepAlive},
 * {@link PoolStats#blockedWorkers()} and {@link PoolStats#standInThreads()} (and the {@code io.spindle.HandOff} JFR
 * event), with one white-box wait: {@link #awaitSpareWaiting} looks for a thread parked in the spares' wait (by its
 * stack), so that a reuse test does not race the returning thread's unwinding. {@link ManagedBlockingTest} holds the
 * main acceptance. Each test says in its comment what would make it fail. No pass/fail assertion depends on timing:
 * {@link #HANG_MS} only turns a hang into a failure (with a dump of the pool's threads), and the one short wait
 * ({@link #STILL_NOT_RUN_MS}) is used only to see that something has not happened yet.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@SuppressWarnings("try") // each test's Closing resource is there only for its close()
class ManagedBlockingRulesTest {
    /** Turns a hang into a failure; never a timing assertion. */
    private static final long HANG_MS = 30_000;
    /** A negative check's wait: "still not run after this long", never "ran within this long". */
    private static final long STILL_NOT_RUN_MS = 200;
    private static final String HAND_OFF_EVENT = "io.spindle.HandOff";
    /** Thread names of the pools built here with custom names (the others are "spindle-N-worker-i"). */
    private static final String NAME_PREFIX = "mbr-";
    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    // --- sources ----------------------------------------------------------------------------------------------------

    static Stream<Arguments> strategies() {
        List<Arguments> out = new ArrayList<>();
        for (SleepStrategy s : TestPools.IMPLEMENTED) {
            for (JoinStrategy j : JoinStrategy.values()) {
                out.add(Arguments.of(s, j));
            }
        }
        return out.stream();
    }

    static Stream<Arguments> sleepStrategies() {
        return TestPools.IMPLEMENTED.stream().map(Arguments::of);
    }

    private static ThreadPool.Builder builder(SleepStrategy s, JoinStrategy j, int threads) {
        return ThreadPool.builder().sleepStrategy(s).joinStrategy(j).threads(threads);
    }

    // =================================================================================================================
    // 1. Nested blocking (B1, B5: a detached thread blocks where it is)
    // =================================================================================================================

    /** Fails if a detached thread hands off again (B5): the inner calls would count 2 blocked workers, 2 stand-ins. */
    @ParameterizedTest
    @MethodSource("strategies")
    void nestedBlockingCallsHandOffOnceAndReturnTheirResults(SleepStrategy s, JoinStrategy j) throws Exception {
        ThreadPool pool = builder(s, j, 1).blockingKeepAlive(Duration.ofSeconds(10)).build();
        try (Closing closing = new Closing(pool)) {
            AtomicInteger outerBlocked = new AtomicInteger(-1);
            AtomicInteger innerBlocked = new AtomicInteger(-1);
            AtomicInteger innerStandIns = new AtomicInteger(-1);
            AtomicInteger blockedInManaged = new AtomicInteger(-1);
            List<Thread> threads = new CopyOnWriteArrayList<>();
            CountingBlocker blocker = new CountingBlocker(2, () -> {
                threads.add(Thread.currentThread());
                blockedInManaged.set(pool.stats().blockedWorkers());
            });
            String r = install(pool, () -> Spindle.blocking(() -> {
                threads.add(Thread.currentThread());
                outerBlocked.set(pool.stats().blockedWorkers());
                String inner = Spindle.blocking(() -> {
                    threads.add(Thread.currentThread());
                    PoolStats st = pool.stats();
                    innerBlocked.set(st.blockedWorkers());
                    innerStandIns.set(st.standInThreads());
                    return "inner";
                });
                managedBlock(blocker); // managedBlock inside blocking
                return inner + "+outer";
            }));
            assertEquals("inner+outer", r);
            assertEquals(1, outerBlocked.get(), "the outer call handed off");
            assertEquals(1, innerBlocked.get(), "the nested blocking call handed off again");
            assertEquals(1, innerStandIns.get(), "a second stand-in was started for the nested call");
            assertEquals(1, blockedInManaged.get(), "managedBlock nested in blocking handed off again");
            assertEquals(2, blocker.blocks.get(), "block() until it returned true");
            assertEquals(1, threads.stream().distinct().count(), "every body ran on the calling thread: " + threads);
            assertEquals(0, pool.stats().blockedWorkers(), pool.stats().toString());

            // blocking inside managedBlock's block(): one hand-off as well
            AtomicInteger blockedInNestedBlocking = new AtomicInteger(-1);
            CountingBlocker outer = new CountingBlocker(1, () -> blockedInNestedBlocking.set(
                    Spindle.blocking(() -> pool.stats().blockedWorkers())));
            installRun(pool, () -> managedBlock(outer));
            assertEquals(1, blockedInNestedBlocking.get(), "blocking nested in managedBlock handed off again");
            assertEquals(0, pool.stats().blockedWorkers(), pool.stats().toString());
            assertEquals(fib(20), (long) install(pool, () -> fibJoin(20)));
        }
    }

    // =================================================================================================================
    // 2. Where a blocking call is made: install, scopes, joins (B1, B2, B3)
    // =================================================================================================================

    /**
     * Fails if the blocked thread's deque is not stealable by the stand-in (B3): a scope task that the blocked body
     * (or a blocked sibling) waits for would stay in the blocked thread's deque, a hang.
     */
    @ParameterizedTest
    @MethodSource("strategies")
    void blockingInsideInstallAScopeBodyAndScopeTasks(SleepStrategy s, JoinStrategy j) throws Exception {
        ThreadPool pool = builder(s, j, 1).build();
        try (Closing closing = new Closing(pool)) {
            assertEquals(1, (int) install(pool, () -> Spindle.blocking(() -> pool.stats().blockedWorkers())),
                    "blocking inside install handed off");

            // a scope body blocks until a task it spawned ran: on the stand-in, the only other thread
            CountDownLatch taskRan = new CountDownLatch(1);
            AtomicLong bodyResult = new AtomicLong();
            runOrHang(pool, "scope body", () -> pool.install(() -> Spindle.scope(sc -> {
                sc.spawn(taskRan::countDown);
                bodyResult.set(Spindle.blocking(() -> await(taskRan) ? 5L : -1L));
            })));
            assertEquals(5L, bodyResult.get());

            // a scope task blocks until its sibling ran
            CountDownLatch siblingRan = new CountDownLatch(1);
            AtomicLong taskResult = new AtomicLong();
            runOrHang(pool, "scope task", () -> pool.install(() -> Spindle.scope(sc -> {
                sc.spawn(siblingRan::countDown); // pushed first: the owner's wait pops the blocking task first
                sc.spawn(() -> taskResult.set(Spindle.blocking(() -> await(siblingRan) ? 7L : -1L)));
            })));
            assertEquals(7L, taskResult.get());

            // three scope tasks each wait until all three are inside Spindle.blocking: three hand-offs at once
            int k = 3;
            CountDownLatch allInside = new CountDownLatch(k);
            AtomicInteger maxBlocked = new AtomicInteger();
            AtomicLong sum = new AtomicLong();
            runOrHang(pool, "three scope tasks waiting for each other",
                    () -> pool.install(() -> Spindle.scope(sc -> {
                for (int i = 0; i < k; i++) {
                    long v = i + 1;
                    sc.spawn(() -> sum.addAndGet(Spindle.blocking(() -> {
                        allInside.countDown();
                        boolean all = await(allInside);
                        maxBlocked.accumulateAndGet(pool.stats().blockedWorkers(), Math::max);
                        return all ? v : -100L;
                    })));
                }
            })));
            assertEquals(6L, sum.get());
            assertEquals(k, maxBlocked.get(), "the first to look saw all three handed off");
            awaitCondition(() -> pool.stats().blockedWorkers() == 0, "blockedWorkers back to 0", pool);
            assertEquals(fib(20), (long) install(pool, () -> fibJoin(20)));
        }
    }

    /**
     * Fails if a thief that runs a join's second half cannot hand off (B2 on a stand-in), or if the first half's
     * latent b is not made stealable before its hand-off (B2's promotion): a hang or a wrong sum.
     */
    @ParameterizedTest
    @MethodSource("strategies")
    void blockingInsideAJoinsSecondHalfRunByAThief(SleepStrategy s, JoinStrategy j) throws Exception {
        ThreadPool pool = builder(s, j, 1).build();
        try (Closing closing = new Closing(pool)) {
            AtomicReference<Thread> aThread = new AtomicReference<>();
            AtomicReference<Thread> bThread = new AtomicReference<>();
            AtomicInteger blockedInB = new AtomicInteger(-1);
            CountDownLatch bInside = new CountDownLatch(1);
            long r = callOrHang(pool, "join", () -> pool.install(() -> Spindle.join(
                    () -> {
                        aThread.set(Thread.currentThread());
                        return Spindle.blocking(() -> await(bInside) ? 1L : -1L);
                    },
                    () -> {
                        bThread.set(Thread.currentThread());
                        return Spindle.blocking(() -> {
                            blockedInB.set(pool.stats().blockedWorkers());
                            bInside.countDown();
                            return 2L;
                        });
                    },
                    Long::sum)));
            assertEquals(3L, r);
            assertNotSame(aThread.get(), bThread.get(), "b ran on a thief while a blocked");
            assertEquals(2, blockedInB.get(), "the thief handed off too while a still blocked");
            awaitCondition(() -> pool.stats().blockedWorkers() == 0, "blockedWorkers back to 0", pool);
            assertEquals(fib(20), (long) install(pool, () -> fibJoin(20)));
        }
    }

    /**
     * Fails if B2's promotion does not make every latent second half of the enclosing joins stealable before the
     * hand-off, past the four promotion slots too: the innermost first half waits for its own second half, the newest
     * frame, which would stay latent on the blocked thread (the bounded wait inside then gives -1, not 1).
     */
    @ParameterizedTest
    @MethodSource("strategies")
    void everyEnclosingJoinsSecondHalfRunsWhileTheInnermostBlocks(SleepStrategy s, JoinStrategy j) throws Exception {
        ThreadPool pool = builder(s, j, 1).build();
        try (Closing closing = new Closing(pool)) {
            for (int depth = 1; depth <= 10; depth++) {
                CountDownLatch released = new CountDownLatch(1);
                int d = depth;
                long r = callOrHang(pool, "depth " + depth, () -> pool.install(() -> nestedJoins(d, released)));
                assertEquals(1L, r, "depth " + depth + ": the innermost join's second half did not run while its "
                        + "first half blocked");
            }
        }
    }

    /**
     * Fails if a blocking call on a thread that already handed off (it blocks where it is, B5) does not first make
     * its latent halves stealable and tell the protocol (B2: the promotion comes first even where no hand-off
     * follows; B1/B3: a detached thread's pushes tell the protocol): the half it waits for would stay with it.
     */
    @ParameterizedTest
    @MethodSource("strategies")
    void aSecondBlockingCallInATaskWaitsForAHalfThatRunsElsewhere(SleepStrategy s, JoinStrategy j) throws Exception {
        // a heartbeat of 1 s: no beat promotes the join's latent half while the test runs, only B2's promotion does
        ThreadPool pool = builder(s, j, 2).heartbeatInterval(Duration.ofSeconds(1)).build();
        try (Closing closing = new Closing(pool)) {
            for (int round = 0; round < 3; round++) {
                CountDownLatch bRan = new CountDownLatch(1);
                AtomicInteger secondBlocked = new AtomicInteger(-1);
                long r = callOrHang(pool, "round " + round, () -> pool.install(() -> {
                    long first = Spindle.blocking(() -> 1L); // hands off: this thread is detached from here
                    first += fibJoin(13) - fib(13); // the job's first join takes its at-once beat (LZ8)
                    return first + Spindle.join(
                            () -> Spindle.blocking(() -> { // blocks where it is
                                secondBlocked.set(pool.stats().blockedWorkers());
                                return await(bRan) ? 10L : -1000L;
                            }),
                            () -> {
                                bRan.countDown();
                                return 100L;
                            },
                            Long::sum);
                }));
                assertEquals(111L, r, "round " + round);
                assertEquals(0, secondBlocked.get(), "round " + round + ": the second call handed off again");
            }
        }
    }

    /**
     * Fails if a detached thread's heartbeat does not promote its latent halves and tell the protocol (B1: "the
     * rest of its task spreads as a worker's does"): its first half waits, calling the heartbeat, until another
     * thread ran the second half; with nothing promoted, or nobody woken, the bounded wait gives -1. Lazy joins only
     * (an eager push is only best effort: "Internal pushes" in the sleep package-info; a promotion is fenced).
     */
    @ParameterizedTest
    @MethodSource("sleepStrategies")
    void afterABlockingCallTheRestOfTheTaskSpreadsThroughHeartbeatPromotions(SleepStrategy s) throws Exception {
        ThreadPool pool = builder(s, JoinStrategy.LAZY, 2).build();
        try (Closing closing = new Closing(pool)) {
            for (int round = 0; round < 3; round++) {
                AtomicReference<Thread> bThread = new AtomicReference<>();
                AtomicReference<Thread> aThread = new AtomicReference<>();
                long r = callOrHang(pool, "round " + round, () -> pool.install(() -> {
                    Spindle.blocking(() -> 1L); // hands off: this thread is detached from here
                    return Spindle.join(() -> {
                        aThread.set(Thread.currentThread());
                        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(HANG_MS);
                        while (bThread.get() == null) {
                            if (System.nanoTime() > deadline) {
                                return -1L;
                            }
                            Spindle.heartbeat(); // long leaf code's way to let the latent b be promoted
                            Thread.onSpinWait();
                        }
                        return 1L;
                    }, () -> {
                        bThread.set(Thread.currentThread());
                        return 2L;
                    }, Long::sum);
                }));
                assertEquals(3L, r, "round " + round + ": the second half never ran elsewhere");
                assertNotSame(aThread.get(), bThread.get());
            }
        }
    }

    /** {@code depth} nested joins; the innermost first half blocks until the innermost second half ran. */
    private static long nestedJoins(int depth, CountDownLatch released) {
        if (depth == 0) {
            return Spindle.blocking(() -> await(released) ? 1L : -1L);
        }
        return Spindle.join(() -> nestedJoins(depth - 1, released), () -> {
            if (depth == 1) {
                released.countDown();
            }
            return 0L;
        }, Long::sum);
    }

    /**
     * Fails if a thread back from a blocking call cannot finish its stack detached (B1, B3): its later joins (their
     * halves pushed to its own deque, stolen or not, waited for on latches that must wake it) would hang or compute a
     * wrong result. Other tasks keep the workers busy so that they steal from the detached thread.
     */
    @ParameterizedTest
    @MethodSource("strategies")
    void joinsAfterABlockingCallReturnCompleteWithTheRightResults(SleepStrategy s, JoinStrategy j) throws Exception {
        ThreadPool pool = builder(s, j, 2).build();
        try (Closing closing = new Closing(pool)) {
            List<Future<Long>> background = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                background.add(pool.submit(() -> fibJoin(18)));
            }
            for (int round = 0; round < 5; round++) {
                CountDownLatch bStarted = new CountDownLatch(1);
                long r = callOrHang(pool, "round " + round, () -> pool.install(() -> {
                    long joined = Spindle.join(
                            () -> {
                                long x = Spindle.blocking(() -> await(bStarted) ? 1L : -1L);
                                return x + fibJoin(22); // joins on the detached thread
                            },
                            () -> {
                                bStarted.countDown();
                                return fibJoin(21);
                            },
                            Long::sum);
                    // still on the thread that blocked: more joins and a scope
                    long more = fibJoin(20);
                    AtomicLong scoped = new AtomicLong();
                    Spindle.scope(sc -> {
                        for (int i = 0; i < 4; i++) {
                            sc.spawn(() -> scoped.addAndGet(fibJoin(16)));
                        }
                    });
                    return joined + more + scoped.get();
                }));
                assertEquals(1 + fib(22) + fib(21) + fib(20) + 4 * fib(16), r, "round " + round);
            }
            for (Future<Long> f : background) {
                assertEquals(fib(18), (long) get(f, pool));
            }
            awaitCondition(() -> pool.stats().blockedWorkers() == 0, "blockedWorkers back to 0", pool);
        }
    }

    /**
     * Fails if a task spawned by a thread that handed off goes to its own deque without telling the protocol (B1, B3:
     * a detached thread's pushes tell the protocol as a worker's do): the stand-in sleeps here, and the spawner then
     * waits in a blocking call (which blocks where it is, B5), so nobody would run the task. Likewise a broadcast made
     * by a detached thread: it takes no copy itself (B1), so its index's copy must run on the stand-in, whose setting
     * of the broadcast's latch must wake the detached caller (B3).
     */
    @ParameterizedTest
    @MethodSource("sleepStrategies")
    void aTaskSpawnedOrABroadcastMadeAfterABlockingCallRuns(SleepStrategy s) throws Exception {
        ThreadPool pool = ThreadPool.builder().sleepStrategy(s).threads(1).build();
        try (Closing closing = new Closing(pool)) {
            Future<Boolean> f = pool.submit(() -> {
                long sleeps = pool.stats().sleeps();
                Spindle.blocking(() -> 1);
                awaitStandInAsleep(pool, sleeps); // so that only a wake-up can make it run what we post
                CountDownLatch spawnedRan = new CountDownLatch(1);
                Spindle.spawn(spawnedRan::countDown);
                return Spindle.blocking(() -> await(spawnedRan)); // the task must run on the index's holder
            });
            assertTrue(get(f, pool), () -> "the task spawned by the detached thread never ran: " + pool.stats()
                    + "\n" + threadDump());
            // a broadcast from a detached thread: its index's copy runs on the stand-in, and the caller is woken
            Future<List<Integer>> b = pool.submit(() -> {
                long sleeps = pool.stats().sleeps();
                Spindle.blocking(() -> 1);
                awaitStandInAsleep(pool, sleeps);
                return pool.broadcast(ctx -> ctx.index());
            });
            assertEquals(List.of(0), get(b, pool));
        }
    }

    /**
     * Fails if the index's broadcast queue stays with the blocked thread instead of going to the stand-in (B2): the
     * broadcast's copy for the only index would wait until the blocking call returns, a hang here.
     */
    @ParameterizedTest
    @MethodSource("sleepStrategies")
    void aBroadcastRunsOnTheStandInWhileTheOnlyWorkerBlocks(SleepStrategy s) throws Exception {
        ThreadPool pool = ThreadPool.builder().sleepStrategy(s).threads(1).build();
        CountDownLatch release = new CountDownLatch(1);
        try (Closing closing = new Closing(pool, release::countDown)) {
            AtomicReference<Thread> blockedThread = new AtomicReference<>();
            CountDownLatch inside = new CountDownLatch(1);
            Future<Boolean> blocker = pool.submit(() -> Spindle.blocking(() -> {
                blockedThread.set(Thread.currentThread());
                inside.countDown();
                return await(release);
            }));
            awaitLatch(inside, "the blocking task started", pool);
            CompletableFuture<List<Thread>> copies = CompletableFuture.supplyAsync(
                    () -> pool.broadcast(ctx -> Thread.currentThread()),
                    r -> new Thread(r, NAME_PREFIX + "broadcaster").start());
            List<Thread> ran = getCf(copies, pool);
            assertEquals(1, ran.size());
            assertNotSame(blockedThread.get(), ran.get(0), "the copy ran on the blocked thread");
            assertEquals(1, release.getCount(), "the broadcast completed while the worker still blocked");
            release.countDown();
            assertTrue(get(blocker, pool));
        }
    }

    // =================================================================================================================
    // 3. Failures (B8)
    // =================================================================================================================

    static final class BodyError extends Error {
        private static final long serialVersionUID = 1L;

        BodyError(String m) {
            super(m);
        }
    }

    /**
     * Fails if Spindle.blocking wraps or replaces the body's failure (B8), if blockedWorkers is not given back on a
     * throw, or if the thread that threw cannot finish its stack afterwards (joins on it, later installs).
     */
    @ParameterizedTest
    @MethodSource("strategies")
    void theBodysRuntimeExceptionAndErrorAreThrownAsTheyAre(SleepStrategy s, JoinStrategy j) throws Exception {
        ThreadPool pool = builder(s, j, 1).build();
        try (Closing closing = new Closing(pool)) {
            for (Throwable failure : List.of(new IllegalStateException("body failed"), new BodyError("body error"))) {
                AtomicInteger blockedInside = new AtomicInteger(-1);
                AtomicLong joinedAfter = new AtomicLong();
                Throwable caught = install(pool, () -> {
                    Throwable t = null;
                    try {
                        Spindle.blocking(() -> {
                            blockedInside.set(pool.stats().blockedWorkers());
                            throw sneaky(failure);
                        });
                    } catch (Throwable thrown) {
                        t = thrown;
                    }
                    joinedAfter.set(fibJoin(20)); // the thread that threw finishes its stack, detached
                    return t;
                });
                assertSame(failure, caught, "thrown as it is");
                assertEquals(1, blockedInside.get(), "the failing call had handed off");
                assertEquals(fib(20), joinedAfter.get());
                assertEquals(0, pool.stats().blockedWorkers(), pool.stats().toString());
                assertEquals(fib(21), (long) install(pool, () -> fibJoin(21)));
            }
        }
    }

    /**
     * Fails if managedBlock swallows, wraps or replaces what block() throws (B8), if blockedWorkers is not given
     * back, or if the thread is left unable to finish its stack (a later join on it, a later install).
     */
    @ParameterizedTest
    @MethodSource("strategies")
    void whatBlockThrowsPropagatesAndThePoolKeepsWorking(SleepStrategy s, JoinStrategy j) throws Exception {
        ThreadPool pool = builder(s, j, 1).build();
        try (Closing closing = new Closing(pool)) {
            for (Throwable failure : List.of(new InterruptedException("block interrupted"),
                    new BodyError("block error"), new IllegalArgumentException("block failed"))) {
                AtomicInteger blockedInside = new AtomicInteger(-1);
                AtomicLong joinedAfter = new AtomicLong();
                Throwable caught = install(pool, () -> {
                    Throwable t = null;
                    try {
                        Spindle.managedBlock(new ForkJoinPool.ManagedBlocker() {
                            @Override
                            public boolean block() throws InterruptedException {
                                blockedInside.set(pool.stats().blockedWorkers());
                                if (failure instanceof InterruptedException) {
                                    throw (InterruptedException) failure;
                                }
                                throw sneaky(failure);
                            }

                            @Override
                            public boolean isReleasable() {
                                return false;
                            }
                        });
                    } catch (Throwable thrown) {
                        t = thrown;
                    }
                    joinedAfter.set(fibJoin(20));
                    return t;
                });
                assertSame(failure, caught, "thrown as it is");
                assertEquals(1, blockedInside.get(), "the call had handed off");
                assertEquals(fib(20), joinedAfter.get());
                assertEquals(0, pool.stats().blockedWorkers(), pool.stats().toString());
                assertEquals(fib(21), (long) install(pool, () -> fibJoin(21)));
                assertEquals(fib(19), (long) install(pool, () -> Spindle.join(() -> fibJoin(18), () -> fibJoin(17),
                        Long::sum)));
            }
        }
    }

    /**
     * Fails if a stand-in is not made as B2 says: named after its index's worker with a "-standin-" suffix and with
     * no user code (the builder's threadName, which throws after the build here, would break the hand-off), given the
     * context class loader and priority of the build, not the blocking task's; or if the index is not the stand-in's
     * (B1: {@code currentThreadIndex()} answers empty on the thread that handed off, the index on the stand-in).
     */
    @ParameterizedTest
    @MethodSource("sleepStrategies")
    void aStandInIsNamedAfterItsWorkerAndGetsTheBuildsContextNotTheTasks(SleepStrategy s) throws Exception {
        AtomicInteger names = new AtomicInteger();
        String prefix = NAME_PREFIX + POOL_IDS.incrementAndGet() + "-w";
        ClassLoader buildLoader = Thread.currentThread().getContextClassLoader();
        int buildPriority = Thread.currentThread().getPriority();
        ThreadPool pool = ThreadPool.builder().sleepStrategy(s).threads(1).threadName(i -> {
            if (names.getAndIncrement() > 0) {
                throw new IllegalStateException("threadName called after the build");
            }
            return prefix + i;
        }).build();
        CountDownLatch release = new CountDownLatch(1);
        ClassLoader taskLoader = new java.net.URLClassLoader(new java.net.URL[0], null);
        try (Closing closing = new Closing(pool, release::countDown)) {
            CountDownLatch inside = new CountDownLatch(1);
            Future<String> blocker = pool.submit(() -> {
                Thread.currentThread().setContextClassLoader(taskLoader);
                Thread.currentThread().setPriority(buildPriority == Thread.MIN_PRIORITY ? Thread.MIN_PRIORITY + 1
                        : Thread.MIN_PRIORITY);
                String before = String.valueOf(Spindle.currentThreadIndex());
                return Spindle.blocking(() -> {
                    inside.countDown();
                    String during = String.valueOf(Spindle.currentThreadIndex());
                    return before + " " + during + " " + await(release) + " blocked="
                            + pool.stats().blockedWorkers();
                });
            });
            awaitLatch(inside, "the blocking task started", pool);
            Future<List<Object>> onStandIn = pool.submit(() -> List.of(Thread.currentThread().getName(),
                    String.valueOf(Thread.currentThread().getContextClassLoader() == buildLoader),
                    Thread.currentThread().getPriority(), String.valueOf(Spindle.currentThreadIndex())));
            List<Object> seen = get(onStandIn, pool);
            release.countDown();
            assertEquals("OptionalInt[0] OptionalInt.empty true blocked=1", get(blocker, pool),
                    "the index before the call, then on the detached thread; and the hand-off happened");
            assertEquals(1, names.get(), "threadName called only for the worker, at the build");
            assertTrue(((String) seen.get(0)).startsWith(prefix + "0-standin-"), "stand-in name: " + seen.get(0));
            assertEquals("true", seen.get(1), "the stand-in's context class loader is the build's");
            assertEquals(buildPriority, seen.get(2), "the stand-in's priority is the build's");
            assertEquals("OptionalInt[0]", seen.get(3), "the stand-in holds the index");
        }
    }

    // =================================================================================================================
    // 4. B5: the cap
    // =================================================================================================================

    /** Fails if maxBlockingThreads(0) still hands off: the queued task would run while the only worker blocks. */
    @ParameterizedTest
    @MethodSource("sleepStrategies")
    void withNoStandInsABlockingCallBlocksItsWorker(SleepStrategy s) throws Exception {
        ThreadPool pool = ThreadPool.builder().sleepStrategy(s).threads(1).maxBlockingThreads(0).build();
        CountDownLatch release = new CountDownLatch(1);
        try (Closing closing = new Closing(pool, release::countDown)) {
            CountDownLatch inside = new CountDownLatch(1);
            Future<Boolean> blocker = pool.submit(() -> Spindle.blocking(() -> {
                inside.countDown();
                return await(release);
            }));
            awaitLatch(inside, "the blocking task started", pool);
            CountDownLatch computed = new CountDownLatch(1);
            pool.execute(computed::countDown);
            assertFalse(computed.await(STILL_NOT_RUN_MS, TimeUnit.MILLISECONDS),
                    "a queued task ran while the only worker blocked with maxBlockingThreads(0)");
            PoolStats during = pool.stats();
            assertEquals(0, during.blockedWorkers(), during.toString());
            assertEquals(0, during.standInThreads(), during.toString());
            release.countDown();
            assertTrue(get(blocker, pool));
            awaitLatch(computed, "the queued task ran once the worker was free", pool);
        }
    }

    /** Fails if the cap is not kept (B4, B5): both blocked workers would hand off, 2 stand-ins. */
    @ParameterizedTest
    @MethodSource("sleepStrategies")
    void atTheCapOnlyOneOfTwoBlockedWorkersHandsOff(SleepStrategy s) throws Exception {
        ThreadPool pool = ThreadPool.builder().sleepStrategy(s).threads(2).maxBlockingThreads(1).build();
        CountDownLatch release = new CountDownLatch(1);
        try (Closing closing = new Closing(pool, release::countDown)) {
            CountDownLatch inside = new CountDownLatch(2);
            List<Future<Boolean>> blockers = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                blockers.add(pool.submit(() -> Spindle.blocking(() -> {
                    inside.countDown();
                    return await(release);
                })));
            }
            awaitLatch(inside, "both blocking tasks inside Spindle.blocking", pool);
            PoolStats during = pool.stats();
            assertEquals(1, during.blockedWorkers(), "exactly one hand-off under a cap of 1: " + during);
            assertTrue(during.standInThreads() <= 1, during.toString());
            assertEquals(1, during.standInThreads(), during.toString());
            // one thread holding an index is free (the stand-in, or the worker that did not block): work runs
            assertEquals(fib(20), (long) get(pool.submit(() -> fibJoin(20)), pool), "compute while both block");
            assertTrue(pool.stats().standInThreads() <= 1, pool.stats().toString());
            release.countDown();
            for (Future<Boolean> f : blockers) {
                assertTrue(get(f, pool));
            }
            awaitCondition(() -> pool.stats().blockedWorkers() == 0, "blockedWorkers back to 0", pool);
            assertTrue(pool.stats().standInThreads() <= 1, pool.stats().toString());
        }
    }

    /**
     * Fails if, at the cap, an idle spare of another index is not retired to make room (B4): the second worker would
     * block where it is (no hand-off), or the threads beyond the workers would exceed the cap.
     */
    @ParameterizedTest
    @MethodSource("sleepStrategies")
    void atTheCapAnIdleSpareOfAnotherIndexRetiresToMakeRoom(SleepStrategy s) throws Exception {
        ThreadPool pool = ThreadPool.builder().sleepStrategy(s).threads(2).maxBlockingThreads(1)
                .blockingKeepAlive(Duration.ofHours(1)).build();
        CountDownLatch release = new CountDownLatch(1);
        try (Closing closing = new Closing(pool, release::countDown)) {
            // index 0 hands off and returns: its thread becomes an idle spare of index 0, the only one the cap allows
            CompletableFuture<List<Integer>> first = broadcastAsync(pool, ctx -> ctx.index() == 0
                    ? Spindle.blocking(() -> pool.stats().blockedWorkers()) : -1);
            assertEquals(List.of(1, -1), getCf(first, pool));
            awaitSpareWaiting(pool);
            assertEquals(1, pool.stats().standInThreads(), pool.stats().toString());
            // now index 1 blocks: no spare of its own, the cap reached by index 0's idle spare
            CountDownLatch inside = new CountDownLatch(1);
            CompletableFuture<List<Integer>> second = broadcastAsync(pool, ctx -> ctx.index() == 1
                    ? Spindle.blocking(() -> {
                        int blocked = pool.stats().blockedWorkers();
                        inside.countDown();
                        return await(release) ? blocked : -2;
                    }) : -1);
            awaitLatch(inside, "index 1 inside Spindle.blocking", pool);
            PoolStats during = pool.stats();
            assertEquals(1, during.blockedWorkers(), "index 1 handed off: " + during);
            // B4: the retired spare no longer counts against the cap, but is alive (standInThreads counts it) until
            // it ended, which it does at once (its keep-alive is an hour): then 2 holders and the blocked thread
            assertTrue(during.standInThreads() <= 2, "the cap, and at most the retiring spare: " + during);
            awaitCondition(() -> pool.stats().standInThreads() == 1 && poolThreadsAlive(pool) == 3,
                    "the retired spare ended", pool);
            release.countDown();
            assertEquals(List.of(-1, 1), getCf(second, pool));
        }
    }

    private static <T> CompletableFuture<List<T>> broadcastAsync(ThreadPool pool,
            java.util.function.Function<BroadcastContext, T> op) {
        return CompletableFuture.supplyAsync(() -> pool.broadcast(op), r -> {
            Thread t = new Thread(r, NAME_PREFIX + "broadcaster");
            t.setDaemon(true);
            t.start();
        });
    }

    /** Fails if managedBlock hands off although the blocker is releasable at once (B5, as ForkJoinPool). */
    @ParameterizedTest
    @MethodSource("sleepStrategies")
    void aBlockerReleasableAtOnceNeitherBlocksNorHandsOff(SleepStrategy s) throws Exception {
        ThreadPool pool = ThreadPool.builder().sleepStrategy(s).threads(1)
                .blockingKeepAlive(Duration.ofSeconds(10)).build();
        try (Closing closing = new Closing(pool)) {
            AtomicInteger blocks = new AtomicInteger();
            installRun(pool, () -> managedBlock(new ForkJoinPool.ManagedBlocker() {
                @Override
                public boolean block() {
                    blocks.incrementAndGet();
                    return true;
                }

                @Override
                public boolean isReleasable() {
                    return true;
                }
            }));
            assertEquals(0, blocks.get(), "block() called although releasable");
            // a hand-off would have started a stand-in, alive for the keep-alive (10 s)
            assertEquals(0, pool.stats().standInThreads(), pool.stats().toString());
            assertEquals(1, poolThreadsAlive(pool), "threads of the pool alive");
        }
    }

    // =================================================================================================================
    // 5. Off the pool (B5)
    // =================================================================================================================

    /** Fails if managedBlock off the pool does not run ForkJoinPool's loop (block() until it or isReleasable says). */
    @Test
    void managedBlockOffThePoolLoopsAsForkJoinPoolDoes() throws Exception {
        CountingBlocker b = new CountingBlocker(3, () -> { });
        Spindle.managedBlock(b);
        assertEquals(3, b.blocks.get(), "block() until it returned true");

        AtomicInteger blocks = new AtomicInteger();
        AtomicInteger checks = new AtomicInteger();
        Spindle.managedBlock(new ForkJoinPool.ManagedBlocker() {
            @Override
            public boolean block() {
                blocks.incrementAndGet();
                return false;
            }

            @Override
            public boolean isReleasable() {
                return checks.incrementAndGet() >= 3; // releasable on the third look
            }
        });
        assertEquals(2, blocks.get(), "block() until isReleasable said done");
    }

    /** Fails if managedBlock on a Spindle worker does not keep ForkJoinPool's loop after its hand-off. */
    @ParameterizedTest
    @MethodSource("sleepStrategies")
    void managedBlockOnAWorkerLoopsAsForkJoinPoolDoes(SleepStrategy s) throws Exception {
        ThreadPool pool = ThreadPool.builder().sleepStrategy(s).threads(1).build();
        try (Closing closing = new Closing(pool)) {
            AtomicInteger blockedInBlock = new AtomicInteger(-1);
            CountingBlocker b = new CountingBlocker(3, () -> blockedInBlock.set(pool.stats().blockedWorkers()));
            installRun(pool, () -> managedBlock(b));
            assertEquals(3, b.blocks.get(), "block() until it returned true");
            assertEquals(1, blockedInBlock.get(), "the worker handed off");
            assertEquals(0, pool.stats().blockedWorkers());
        }
    }

    /**
     * Fails if managedBlock on a ForkJoinPool worker does not delegate to ForkJoinPool.managedBlock: the pool of 1
     * would not compensate, and the task that opens the latch would never run (a deadlock).
     */
    @Test
    void managedBlockOnAForkJoinWorkerLetsForkJoinPoolCompensate() throws Exception {
        ForkJoinPool fjp = new ForkJoinPool(1);
        CountDownLatch latch = new CountDownLatch(1);
        try {
            CountDownLatch started = new CountDownLatch(1);
            AtomicBoolean onFjWorker = new AtomicBoolean();
            Future<Boolean> blocked = fjp.submit(() -> {
                onFjWorker.set(Thread.currentThread() instanceof ForkJoinWorkerThread);
                started.countDown();
                Spindle.managedBlock(new ManagedBlockingTest.LatchBlocker(latch));
                return latch.getCount() == 0;
            });
            assertTrue(started.await(HANG_MS, TimeUnit.MILLISECONDS), "the blocking task started");
            Future<?> opener = fjp.submit(latch::countDown); // runs only if the pool compensates the blocked worker
            try {
                assertTrue(blocked.get(HANG_MS, TimeUnit.MILLISECONDS));
                opener.get(HANG_MS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                fail("HANG: ForkJoinPool(1) did not compensate a worker blocked in Spindle.managedBlock: " + fjp
                        + "\n" + allThreadsDump());
            }
            assertTrue(onFjWorker.get());
        } finally {
            latch.countDown();
            fjp.shutdownNow();
        }
    }

    /** Fails if Spindle.blocking off the pool does anything but run the body, on the calling thread, as it is. */
    @Test
    void blockingOffThePoolJustRunsTheBody() throws Exception {
        Thread me = Thread.currentThread();
        assertEquals("ran here", Spindle.blocking(() -> Thread.currentThread() == me ? "ran here" : "elsewhere"));
        RuntimeException failure = new IllegalStateException("off-pool failure");
        try {
            Spindle.blocking(() -> {
                throw failure;
            });
            fail("nothing thrown");
        } catch (IllegalStateException e) {
            assertSame(failure, e);
        }
        ForkJoinPool fjp = new ForkJoinPool(1);
        try {
            String r = fjp.submit(() -> {
                Thread t = Thread.currentThread();
                return Spindle.blocking(() -> Thread.currentThread() == t ? "ran on the fj worker" : "elsewhere");
            }).get(HANG_MS, TimeUnit.MILLISECONDS);
            assertEquals("ran on the fj worker", r);
        } finally {
            fjp.shutdownNow();
        }
    }

    // =================================================================================================================
    // 6. Hooks (B5)
    // =================================================================================================================

    /**
     * Fails if a blocking call inside a start or exit hook hands off (B5): inside the hook the pool would count a
     * blocked worker and a stand-in.
     */
    @ParameterizedTest
    @MethodSource("sleepStrategies")
    void aBlockingCallInsideAHookDoesNotHandOff(SleepStrategy s) throws Exception {
        int n = 2;
        AtomicReference<ThreadPool> ref = new AtomicReference<>();
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch hooksDone = new CountDownLatch(n);
        List<String> seenInStartHooks = new CopyOnWriteArrayList<>();
        List<String> seenInExitHooks = new CopyOnWriteArrayList<>();
        AtomicInteger starts = new AtomicInteger();
        ThreadPool pool = ThreadPool.builder().sleepStrategy(s).threads(n)
                .blockingKeepAlive(Duration.ofSeconds(10))
                .onThreadStart(i -> {
                    starts.incrementAndGet();
                    Spindle.blocking(() -> {
                        if (await(go)) {
                            PoolStats st = ref.get().stats();
                            seenInStartHooks.add(st.blockedWorkers() + "/" + st.standInThreads());
                        }
                        hooksDone.countDown();
                        return null;
                    });
                })
                .onThreadExit(i -> Spindle.blocking(() -> {
                    PoolStats st = ref.get().stats();
                    seenInExitHooks.add(st.blockedWorkers() + "/" + st.standInThreads());
                    return null;
                }))
                .build();
        try (Closing closing = new Closing(pool)) {
            ref.set(pool);
            go.countDown();
            awaitLatch(hooksDone, "the start hooks' blocking calls returned", pool);
            assertEquals(List.of("0/0", "0/0"), seenInStartHooks, "blocked/standIns inside the start hooks");
            assertEquals(n, starts.get(), "start hooks ran (a stand-in runs them too)");
            assertEquals(fib(20), (long) install(pool, () -> fibJoin(20)));
            PoolStats after = pool.stats();
            assertEquals(0, after.blockedWorkers(), after.toString());
            assertEquals(0, after.standInThreads(), after.toString());
            assertEquals(n, poolThreadsAlive(pool), "threads of the pool alive");
        }
        assertEquals(List.of("0/0", "0/0"), seenInExitHooks, "blocked/standIns inside the exit hooks");
    }

    /**
     * Fails if the start and exit hooks do not run once per thread, with the index it serves (B4): a stand-in would
     * start without its start hook, or a spare that ends after the keep-alive (while the index lives on) or at
     * termination would skip its exit hook, or a hook would run twice on one thread.
     */
    @ParameterizedTest
    @MethodSource("sleepStrategies")
    void startAndExitHooksRunOncePerThreadIncludingStandIns(SleepStrategy s) throws Exception {
        List<String> starts = new CopyOnWriteArrayList<>();
        List<String> exits = new CopyOnWriteArrayList<>();
        ThreadPool pool = ThreadPool.builder().sleepStrategy(s).threads(1).blockingKeepAlive(Duration.ofMillis(100))
                .onThreadStart(i -> starts.add(Thread.currentThread().getName() + "@" + i))
                .onThreadExit(i -> exits.add(Thread.currentThread().getName() + "@" + i))
                .build();
        try (Closing closing = new Closing(pool)) {
            String standIn = install(pool, () -> Spindle.blocking(() -> {
                try {
                    return pool.submit(() -> Thread.currentThread().getName()).get(HANG_MS, TimeUnit.MILLISECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
            assertTrue(starts.contains(standIn + "@0"), "the stand-in ran its start hook: " + starts);
            awaitCondition(() -> pool.stats().standInThreads() == 0 && exits.size() == 1,
                    "one thread ended after the keep-alive, with its exit hook", pool);
        }
        assertEquals(2, starts.size(), "start hooks: " + starts);
        assertEquals(2, exits.size(), "exit hooks: " + exits);
        assertEquals(new java.util.HashSet<>(starts), new java.util.HashSet<>(exits),
                "each thread ran both hooks once, with index 0");
    }

    // =================================================================================================================
    // 7. Shutdown while blocked (B7)
    // =================================================================================================================

    /**
     * Fails if termination does not wait for detached threads (B7: awaitTermination / isTerminated would say done
     * while tasks still block), or if a spare does not end at termination (with a keep-alive of an hour, the pool
     * would not terminate within the hang limit).
     */
    @ParameterizedTest
    @MethodSource("sleepStrategies")
    void shutdownWaitsForTasksBlockedInBlockingCalls(SleepStrategy s) throws Exception {
        ThreadPool pool = ThreadPool.builder().sleepStrategy(s).threads(2)
                .blockingKeepAlive(Duration.ofHours(1)).build();
        CountDownLatch release = new CountDownLatch(1);
        try (Closing closing = new Closing(pool, release::countDown)) {
            CountDownLatch inside = new CountDownLatch(2);
            List<Future<String>> blockers = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                int k = i;
                blockers.add(pool.submit(() -> Spindle.blocking(() -> {
                    inside.countDown();
                    return await(release) ? "released " + k : "not released";
                })));
            }
            awaitLatch(inside, "both tasks inside Spindle.blocking", pool);
            awaitCondition(() -> pool.stats().blockedWorkers() == 2, "both handed off", pool);
            pool.shutdown();
            assertFalse(pool.awaitTermination(STILL_NOT_RUN_MS, TimeUnit.MILLISECONDS),
                    "terminated while tasks still block: " + pool.stats());
            assertFalse(pool.isTerminated(), "terminated while tasks still block");
            release.countDown();
            assertTrue(pool.awaitTermination(HANG_MS, TimeUnit.MILLISECONDS),
                    () -> "HANG: not terminated after the blocked tasks returned: " + pool.stats() + "\n"
                            + threadDump());
            assertTrue(pool.isTerminated());
            assertEquals("released 0", get(blockers.get(0), pool));
            assertEquals("released 1", get(blockers.get(1), pool));
            PoolStats after = pool.stats();
            assertEquals(0, after.blockedWorkers(), after.toString());
            assertEquals(0, after.standInThreads(), after.toString());
            awaitCondition(() -> poolThreadsAlive(pool) == 0, "every thread of the pool ended", pool);
        }
    }

    /**
     * Fails if awaitTermination or isTerminated look only at the index holders (B7: "awaitTermination and
     * isTerminated wait for them too"): the thread that handed off ends after the holders, here held in its exit hook
     * after its task ended, and the pool would report termination while it is still alive.
     */
    @ParameterizedTest
    @MethodSource("sleepStrategies")
    void terminationWaitsForTheThreadThatHandedOffToEnd(SleepStrategy s) throws Exception {
        java.util.Set<Thread> blockedThreads = java.util.concurrent.ConcurrentHashMap.newKeySet();
        CountDownLatch exitGate = new CountDownLatch(1);
        CountDownLatch inExitHook = new CountDownLatch(1);
        ThreadPool pool = ThreadPool.builder().sleepStrategy(s).threads(1).blockingKeepAlive(Duration.ofHours(1))
                .onThreadExit(i -> {
                    if (blockedThreads.contains(Thread.currentThread())) {
                        inExitHook.countDown();
                        await(exitGate);
                    }
                }).build();
        try (Closing closing = new Closing(pool, exitGate::countDown)) {
            assertEquals("blocked", install(pool, () -> Spindle.blocking(() -> {
                blockedThreads.add(Thread.currentThread());
                return "blocked";
            })));
            pool.shutdown();
            awaitLatch(inExitHook, "the thread that handed off reached its exit hook", pool);
            assertFalse(pool.awaitTermination(STILL_NOT_RUN_MS, TimeUnit.MILLISECONDS),
                    "terminated while the thread that handed off is still in its exit hook: " + pool.stats());
            assertFalse(pool.isTerminated(), "terminated while the thread that handed off is still alive");
            exitGate.countDown();
            assertTrue(pool.awaitTermination(HANG_MS, TimeUnit.MILLISECONDS),
                    () -> "HANG: not terminated: " + pool.stats() + "\n" + threadDump());
            assertTrue(pool.isTerminated());
            assertEquals(0, pool.stats().standInThreads());
        }
    }

    /**
     * Fails if shutdownNow does not interrupt threads blocked in Spindle.blocking (B7: detached threads are
     * interrupted as workers running tasks are): the bodies would sleep for an hour / wait for ever.
     */
    @ParameterizedTest
    @MethodSource("sleepStrategies")
    void shutdownNowInterruptsTasksBlockedInBlockingCalls(SleepStrategy s) throws Exception {
        ThreadPool pool = ThreadPool.builder().sleepStrategy(s).threads(2).build();
        CountDownLatch never = new CountDownLatch(1);
        try (Closing closing = new Closing(pool, never::countDown)) {
            CountDownLatch inside = new CountDownLatch(2);
            Future<String> sleeper = pool.submit(() -> Spindle.blocking(() -> {
                inside.countDown();
                try {
                    Thread.sleep(TimeUnit.HOURS.toMillis(1));
                    return "slept";
                } catch (InterruptedException e) {
                    return "interrupted";
                }
            }));
            Future<String> waiter = pool.submit(() -> Spindle.blocking(() -> {
                inside.countDown();
                try {
                    never.await();
                    return "opened";
                } catch (InterruptedException e) {
                    return "interrupted";
                }
            }));
            awaitLatch(inside, "both tasks inside Spindle.blocking", pool);
            awaitCondition(() -> pool.stats().blockedWorkers() == 2, "both handed off", pool);
            pool.shutdownNow();
            assertEquals("interrupted", get(sleeper, pool), "Thread.sleep inside Spindle.blocking");
            assertEquals("interrupted", get(waiter, pool), "CountDownLatch.await inside Spindle.blocking");
            assertTrue(pool.awaitTermination(HANG_MS, TimeUnit.MILLISECONDS),
                    () -> "HANG: not terminated after shutdownNow: " + pool.stats() + "\n" + threadDump());
            assertTrue(pool.isTerminated());
            assertEquals(0, pool.stats().standInThreads());
        }
    }

    // =================================================================================================================
    // 8. Keep-alive and reuse (B4)
    // =================================================================================================================

    /**
     * Fails if a thread back from its blocking call does not become a spare of its index, or if a spare is not
     * reused (B4): the second and third hand-offs would start new threads (standInThreads 2, 3 threads alive, a
     * HandOff event with threadStarted true).
     */
    @ParameterizedTest
    @MethodSource("strategies")
    void aSecondBlockingCallReusesTheSpareLeftByTheFirst(SleepStrategy s, JoinStrategy j) throws Exception {
        Path file = Files.createTempFile("spindle-handoff-", ".jfr");
        String poolName;
        List<Boolean> startedByRound = new ArrayList<>();
        try (Recording recording = new Recording()) {
            recording.enable(HAND_OFF_EVENT).withoutThreshold();
            recording.start();
            ThreadPool pool = builder(s, j, 1).blockingKeepAlive(Duration.ofSeconds(10)).build();
            poolName = ShutdownTest.poolName(pool);
            try (Closing closing = new Closing(pool)) { // a spare with 10 s left ends at termination (B7)
                int maxStandIns = 0;
                for (int round = 0; round < 3; round++) {
                    CountDownLatch inside = new CountDownLatch(1);
                    CountDownLatch release = new CountDownLatch(1);
                    Future<Boolean> blocker = pool.submit(() -> Spindle.blocking(() -> {
                        inside.countDown();
                        return await(release);
                    }));
                    try {
                        awaitLatch(inside, "round " + round + ": inside Spindle.blocking", pool);
                        PoolStats during = pool.stats();
                        maxStandIns = Math.max(maxStandIns, during.standInThreads());
                        assertEquals(1, during.blockedWorkers(), "round " + round + ": " + during);
                        assertEquals(1, during.standInThreads(), "round " + round + ": one thread beyond the worker: "
                                + during);
                        assertTrue(poolThreadsAlive(pool) <= 2, "round " + round + ": threads of the pool alive: "
                                + poolThreadsAlive(pool) + "\n" + threadDump());
                        // the index's holder works while the other blocks (a reused spare runs lazy joins again)
                        assertEquals(fib(21), (long) callOrHang(pool, "round " + round + ": compute",
                                () -> pool.install(() -> fibJoin(21))));
                    } finally {
                        release.countDown();
                    }
                    assertTrue(get(blocker, pool));
                    // B4: the thread that blocked unwinds, then waits as a spare; a call before that may start another
                    awaitSpareWaiting(pool);
                    maxStandIns = Math.max(maxStandIns, pool.stats().standInThreads());
                }
                assertEquals(1, maxStandIns, "standInThreads never above 1");
                assertEquals(2, poolThreadsAlive(pool), "the worker and one spare");
            }
            recording.stop();
            recording.dump(file);
            for (RecordedEvent e : RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().equals(HAND_OFF_EVENT)
                            && poolName.equals(e.getString("pool")))
                    .sorted(Comparator.comparing(RecordedEvent::getStartTime)).collect(Collectors.toList())) {
                assertEquals(0, e.getInt("worker"), e.toString());
                startedByRound.add(e.getBoolean("threadStarted"));
            }
        } finally {
            Files.deleteIfExists(file);
        }
        assertEquals(List.of(true, false, false), startedByRound,
                "HandOff events' threadStarted: a new thread the first time, the spare afterwards");
    }

    /**
     * Fails if spares never end (B4's keep-alive) or if a spare that ended is not taken off the count: the pool
     * would keep 2 threads, or standInThreads stay 1, after a short keep-alive.
     */
    @ParameterizedTest
    @MethodSource("sleepStrategies")
    void sparesEndAfterTheKeepAliveAndTheNextCallStartsAFreshOne(SleepStrategy s) throws Exception {
        ThreadPool pool = ThreadPool.builder().sleepStrategy(s).threads(1)
                .blockingKeepAlive(Duration.ofMillis(100)).build();
        try (Closing closing = new Closing(pool)) {
            for (int round = 0; round < 2; round++) {
                assertEquals(1, (int) install(pool, () -> Spindle.blocking(() -> pool.stats().blockedWorkers())),
                        "round " + round);
                awaitCondition(() -> pool.stats().standInThreads() == 0 && poolThreadsAlive(pool) == 1,
                        "round " + round + ": back to the worker alone after the keep-alive", pool);
            }
            assertEquals(fib(20), (long) install(pool, () -> fibJoin(20)));
        }
    }

    // =================================================================================================================
    // 9. IO (B1, B2: the index's poller goes to the stand-in; the blocked thread's IO goes as from outside)
    // =================================================================================================================

    /**
     * Fails if the index's IO does not move to the stand-in (B2): a read pending on the only worker's poller would
     * not complete while that worker blocks in a completion callback; or if the detached thread's own IO afterwards
     * (B1: as a thread outside the pool) or the pool's later IO is broken.
     */
    @ParameterizedTest
    @MethodSource("sleepStrategies")
    void aCompletionCallbackBlocksWhileOtherTasksAndIoRun(SleepStrategy s) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(new TestPools.Config(s, 1))) {
            PoolIO io = p.io;
            IoFixtures.Conn c1 = p.conn();
            IoFixtures.Conn c2 = p.conn();
            CountDownLatch inside = new CountDownLatch(1);
            CompletableFuture<Integer> pendingRead = new CompletableFuture<>();
            ByteBuffer buf2 = ByteBuffer.allocate(16);
            AtomicReference<Thread> callbackThread = new AtomicReference<>();
            AtomicReference<CompletableFuture<byte[]>> readAfter = new AtomicReference<>();
            CompletableFuture<String> callback = io.read(c1.mine(), ByteBuffer.allocate(16)).thenApply(n -> {
                callbackThread.set(Thread.currentThread());
                // started on the worker: this index's poller serves it; it must complete while we block below
                io.read(c2.mine(), buf2).whenComplete((r, e) -> {
                    if (e != null) {
                        pendingRead.completeExceptionally(e);
                    } else {
                        pendingRead.complete(r);
                    }
                });
                String r = Spindle.blocking(() -> {
                    inside.countDown();
                    return await(release) ? "read " + n : "not released";
                });
                // back from blocking (detached): IO from here goes as from outside the pool
                readAfter.set(IoFixtures.readExactly(io, c1.mine(), 3));
                return r;
            });
            p.phase = "first read";
            IoFixtures.writeFully(c1.peer(), new byte[] {1, 2, 3, 4});
            p.phase = "callback blocking";
            assertTrue(inside.await(HANG_MS, TimeUnit.MILLISECONDS), () -> "HANG: callback never blocked: "
                    + p.ctx().get() + "\n" + threadDump());
            assertEquals(1, p.pool.stats().blockedWorkers(), p.ctx());
            // another task runs while the callback blocks
            assertEquals(fib(18), (long) get(p.pool.submit(() -> fibJoin(18)), p.pool));
            // the read pending on the blocked worker's poller completes on the stand-in
            p.phase = "pending read while blocked";
            IoFixtures.writeFully(c2.peer(), new byte[] {9, 8});
            assertEquals(2, (int) IoFixtures.get(pendingRead, p.ctx()));
            assertArrayEquals(new byte[] {9, 8}, java.util.Arrays.copyOf(buf2.array(), 2));
            assertEquals(1, release.getCount(), "still blocked");
            // a fresh read started from outside while the worker blocks
            IoFixtures.Conn c3 = p.conn();
            CompletableFuture<byte[]> third = IoFixtures.readExactly(io, c3.mine(), 5);
            IoFixtures.writeFully(c3.peer(), new byte[] {5, 5, 5, 5, 5});
            assertArrayEquals(new byte[] {5, 5, 5, 5, 5}, IoFixtures.get(third, p.ctx()));
            p.phase = "release";
            release.countDown();
            assertEquals("read 4", IoFixtures.get(callback, p.ctx()));
            assertNotNull(callbackThread.get());
            // the detached thread's own read, then more IO on the pool: an echo through the pool's IO
            IoFixtures.writeFully(c1.peer(), new byte[] {7, 7, 7});
            assertArrayEquals(new byte[] {7, 7, 7}, IoFixtures.get(readAfter.get(), p.ctx()));
            p.phase = "later IO";
            for (int round = 0; round < 3; round++) {
                byte[] msg = IoFixtures.pattern(1000, round);
                CompletableFuture<byte[]> back = IoFixtures.readExactly(io, c2.mine(), msg.length);
                IoFixtures.writeFully(c2.peer(), msg);
                assertArrayEquals(msg, IoFixtures.get(back, p.ctx()));
                CompletableFuture<Integer> w = io.write(c2.mine(), ByteBuffer.wrap(msg));
                IoFixtures.get(w, p.ctx());
                assertArrayEquals(msg, IoFixtures.readFully(c2.peer(), msg.length), "round " + round);
            }
            awaitCondition(() -> p.pool.stats().blockedWorkers() == 0, "blockedWorkers back to 0", p.pool);
        } finally {
            release.countDown();
        }
    }

    // =================================================================================================================
    // 10. Statistics across hand-offs
    // =================================================================================================================

    /**
     * Fails if the jobs of threads that handed off, stood in, waited as spares or ended are lost from the index's
     * figures (PoolStats.standInThreads' doc: "Jobs they ran count in their index's figures"), or if the per-worker
     * list grows with stand-ins.
     */
    @ParameterizedTest
    @MethodSource("sleepStrategies")
    void jobsExecutedNeverDecreasesAcrossHandOffsSparesAndTheirEnd(SleepStrategy s) throws Exception {
        int n = 2;
        ThreadPool pool = ThreadPool.builder().sleepStrategy(s).threads(n)
                .blockingKeepAlive(Duration.ofMillis(200)).build();
        CountDownLatch release = new CountDownLatch(1);
        try (Closing closing = new Closing(pool, release::countDown)) {
            List<PoolStats> samples = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                get(pool.submit(() -> fibJoin(16)), pool);
            }
            samples.add(pool.stats()); // before
            CountDownLatch inside = new CountDownLatch(n);
            List<Future<Boolean>> blockers = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                blockers.add(pool.submit(() -> Spindle.blocking(() -> {
                    inside.countDown();
                    return await(release);
                })));
            }
            awaitLatch(inside, "every worker blocked", pool);
            awaitCondition(() -> pool.stats().blockedWorkers() == n, "every worker handed off", pool);
            samples.add(pool.stats()); // during the hand-offs
            for (int i = 0; i < 20; i++) {
                get(pool.submit(() -> fibJoin(16)), pool); // run by the stand-ins
            }
            samples.add(pool.stats());
            release.countDown();
            for (Future<Boolean> f : blockers) {
                assertTrue(get(f, pool));
            }
            samples.add(pool.stats()); // back: detached threads finishing, then spares
            awaitCondition(() -> pool.stats().standInThreads() == 0, "spares ended after the keep-alive", pool);
            samples.add(pool.stats()); // after the spares ended
            for (int i = 0; i < 5; i++) {
                get(pool.submit(() -> fibJoin(16)), pool);
            }
            samples.add(pool.stats());
            assertMonotonic(samples, n);
            long lastTotal = samples.get(samples.size() - 1).jobsExecuted();
            assertTrue(lastTotal >= 20 + n + 20 + 5, "every task counted: " + samples.get(samples.size() - 1));
        }
    }

    /**
     * Fails if a snapshot taken while a hand-off reuses a spare misses a thread's jobs (the holder read before the
     * hand-off, the spare no longer among the spares nor yet the holder): a sampler that reads stats() without pause
     * while the two threads of a 1-worker pool hand off to each other would see jobsExecuted go down.
     */
    @ParameterizedTest
    @MethodSource("sleepStrategies")
    void concurrentSnapshotsNeverSeeJobsExecutedDecreaseWhileSparesAreReused(SleepStrategy s) throws Exception {
        ThreadPool pool = ThreadPool.builder().sleepStrategy(s).threads(1).maxBlockingThreads(1)
                .blockingKeepAlive(Duration.ofSeconds(30)).build();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<String> violation = new AtomicReference<>();
        AtomicLong snapshots = new AtomicLong();
        Thread sampler = new Thread(() -> {
            PoolStats prev = pool.stats();
            while (!stop.get() && violation.get() == null) {
                PoolStats cur = pool.stats();
                snapshots.incrementAndGet();
                if (cur.workers().size() != 1) {
                    violation.set("per-worker entries: " + cur.workers().size() + "\n" + cur);
                } else if (cur.jobsExecuted() < prev.jobsExecuted()) {
                    violation.set("jobsExecuted went down from " + prev.jobsExecuted() + " to "
                            + cur.jobsExecuted() + "\nbefore: " + prev + "\nafter: " + cur);
                }
                prev = cur;
            }
        }, NAME_PREFIX + "sampler");
        sampler.setDaemon(true);
        try (Closing closing = new Closing(pool, () -> stop.set(true))) {
            sampler.start();
            long handOffs = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(4); // a budget of rounds, not an assertion
            for (int round = 0; round < 3000 && System.nanoTime() < deadline && violation.get() == null; round++) {
                int blocked = get(pool.submit(() -> {
                    fib(5); // a job of some weight on whichever thread holds the index
                    return Spindle.blocking(() -> pool.stats().blockedWorkers());
                }), pool);
                handOffs += blocked;
            }
            stop.set(true);
            sampler.join(HANG_MS);
            assertNull(violation.get(), () -> violation.get() + "\n(after " + snapshots.get() + " snapshots)");
            assertTrue(handOffs > 0, "no hand-off happened");
        }
    }

    // --- helpers ----------------------------------------------------------------------------------------------------

    /** A ManagedBlocker that is never releasable and whose block() says done on its {@code doneAt}-th call. */
    static final class CountingBlocker implements ForkJoinPool.ManagedBlocker {
        final int doneAt;
        final Runnable onBlock;
        final AtomicInteger blocks = new AtomicInteger();

        CountingBlocker(int doneAt, Runnable onBlock) {
            this.doneAt = doneAt;
            this.onBlock = onBlock;
        }

        @Override
        public boolean block() {
            onBlock.run();
            return blocks.incrementAndGet() >= doneAt;
        }

        @Override
        public boolean isReleasable() {
            return false;
        }
    }

    private static void managedBlock(ForkJoinPool.ManagedBlocker b) {
        try {
            Spindle.managedBlock(b);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Inside a pool's task: waits for {@code latch} up to the hang limit; false if it did not open. */
    private static boolean await(CountDownLatch latch) {
        try {
            return latch.await(HANG_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable t) throws E {
        throw (E) t;
    }

    private static void awaitLatch(CountDownLatch latch, String what, ThreadPool pool) throws InterruptedException {
        assertTrue(latch.await(HANG_MS, TimeUnit.MILLISECONDS), () -> "HANG: " + what + ": " + pool.stats() + "\n"
                + threadDump());
    }

    private static void awaitCondition(BooleanSupplier c, String what, ThreadPool pool) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(HANG_MS);
        while (!c.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("HANG: never " + what + ": " + pool.stats() + "\n" + threadDump());
            }
            Thread.sleep(5);
        }
    }

    /**
     * On a thread back from a blocking call: waits (bounded, never failing) until the pool counted a sleep since
     * {@code sleepsBefore}, i.e. until the stand-in found nothing to do and slept. Only makes a missing wake-up show.
     */
    private static void awaitStandInAsleep(ThreadPool pool, long sleepsBefore) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(HANG_MS);
        while (pool.stats().sleeps() <= sleepsBefore && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    /** Waits for the thread back from a blocking call to wait as a spare (parked in StandIns.awaitAssignment). */
    private static void awaitSpareWaiting(ThreadPool pool) throws InterruptedException {
        String prefix = ShutdownTest.poolName(pool) + "-worker-";
        awaitCondition(() -> Thread.getAllStackTraces().entrySet().stream().anyMatch(e -> {
            Thread t = e.getKey();
            if (!t.getName().startsWith(prefix) || t.getState() != Thread.State.TIMED_WAITING) {
                return false;
            }
            for (StackTraceElement f : e.getValue()) {
                if (f.getMethodName().equals("awaitAssignment")) {
                    return true;
                }
            }
            return false;
        }), "a spare waiting for its index", pool);
    }

    private static <T> T get(Future<T> f, ThreadPool pool) throws InterruptedException {
        try {
            return f.get(HANG_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("HANG: task not done: " + pool.stats() + "\n" + threadDump());
        } catch (ExecutionException e) {
            throw new AssertionError("task failed", e.getCause());
        }
    }

    private static <T> T getCf(CompletableFuture<T> f, ThreadPool pool) throws InterruptedException {
        return get(f, pool);
    }

    /** {@code pool.install(op)} from the test thread; a hang fails with a dump. */
    private static <T> T install(ThreadPool pool, Supplier<T> op) throws InterruptedException {
        return callOrHang(pool, "install", () -> pool.install(op));
    }

    private static void installRun(ThreadPool pool, Runnable op) throws InterruptedException {
        runOrHang(pool, "install", () -> pool.install(op));
    }

    /** Runs {@code op} (which waits on the pool) on a helper thread, so that a hang fails with a dump. */
    private static void runOrHang(ThreadPool pool, String what, Runnable op) throws InterruptedException {
        callOrHang(pool, what, () -> {
            op.run();
            return null;
        });
    }

    private static <T> T callOrHang(ThreadPool pool, String what, Supplier<T> op) throws InterruptedException {
        CompletableFuture<T> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                f.complete(op.get());
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        }, NAME_PREFIX + "caller");
        t.setDaemon(true);
        t.start();
        try {
            return f.get(HANG_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("HANG: " + what + ": " + pool.stats() + "\n" + threadDump());
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof AssertionError) {
                throw (AssertionError) c;
            }
            throw new AssertionError(what + " failed", c);
        }
    }

    /**
     * Closes a pool at the end of a try-with-resources, after {@code first} (releasing what the test blocked): a hang
     * in termination then fails the test with a dump, added as suppressed to the test's own failure if there is one.
     */
    private static final class Closing implements AutoCloseable {
        private final ThreadPool pool;
        private final Runnable[] first;

        Closing(ThreadPool pool, Runnable... first) {
            this.pool = pool;
            this.first = first;
        }

        @Override
        public void close() {
            for (Runnable r : first) {
                r.run();
            }
            try {
                ManagedBlockingRulesTest.close(pool);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while closing " + pool, e);
            }
        }
    }

    private static void close(ThreadPool pool) throws InterruptedException {
        pool.shutdown();
        assertTrue(pool.awaitTermination(HANG_MS, TimeUnit.MILLISECONDS), () -> "HANG: not terminated: "
                + pool.stats() + "\n" + threadDump());
    }

    private static void assertMonotonic(List<PoolStats> samples, int threads) {
        for (int i = 0; i < samples.size(); i++) {
            PoolStats cur = samples.get(i);
            assertEquals(threads, cur.workers().size(), "per-worker entries: " + cur);
            if (i == 0) {
                continue;
            }
            PoolStats prev = samples.get(i - 1);
            assertTrue(cur.jobsExecuted() >= prev.jobsExecuted(), "jobsExecuted went down at sample " + i
                    + ":\nbefore: " + prev + "\nafter: " + cur);
            for (int w = 0; w < threads; w++) {
                assertTrue(cur.workers().get(w).jobsExecuted() >= prev.workers().get(w).jobsExecuted(),
                        "worker " + w + "'s jobsExecuted went down at sample " + i + ":\nbefore: " + prev
                                + "\nafter: " + cur);
            }
        }
    }

    /** Threads named as this pool's workers are (the default names: "spindle-N-worker-i"). */
    static long poolThreadsAlive(ThreadPool pool) {
        String prefix = ShutdownTest.poolName(pool) + "-worker-";
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith(prefix) && t.isAlive()).count();
    }

    /** The threads of Spindle's pools (and this test's helpers), with their stacks. */
    static String threadDump() {
        return dump(name -> name.startsWith("spindle") || name.startsWith(NAME_PREFIX) || name.startsWith("pio"));
    }

    static String allThreadsDump() {
        return dump(name -> true);
    }

    private static String dump(java.util.function.Predicate<String> names) {
        StringBuilder b = new StringBuilder("===== threads =====\n");
        Thread.getAllStackTraces().forEach((t, st) -> {
            if (names.test(t.getName())) {
                b.append(t.getName()).append(' ').append(t.getState()).append('\n');
                for (StackTraceElement e : st) {
                    b.append("    ").append(e).append('\n');
                }
            }
        });
        return b.toString();
    }

    private static String stackTrace(Throwable t) {
        java.io.StringWriter w = new java.io.StringWriter();
        t.printStackTrace(new java.io.PrintWriter(w));
        return w.toString();
    }

    static long fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    static long fibJoin(int n) {
        if (n < 12) {
            return fib(n);
        }
        return Spindle.join(() -> fibJoin(n - 1), () -> fibJoin(n - 2), Long::sum);
    }
}
