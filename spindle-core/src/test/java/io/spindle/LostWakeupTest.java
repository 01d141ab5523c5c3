package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hunts lost wake-ups: work posted to a pool whose workers have all fallen asleep, latches set after their owner fell
 * asleep, several outside threads posting at once. A lost wake-up shows up as a hang, which the {@link Watchdog} turns
 * into a failure with a thread dump (who sleeps where) and the seed that replays the run ({@code -Dspindle.seed=}).
 */
class LostWakeupTest {
    /** Deadline for one posted job / one blocking call to come back. */
    static final Duration STEP = Duration.ofSeconds(20);
    /** Deadline for a watchdog action that itself waits with {@link #STEP}: the inner wait reports first. */
    static final Duration OUTER = STEP.plusSeconds(5);
    /** Longest we wait for all workers to fall asleep before posting anyway (not a failure). */
    static final Duration SETTLE = Duration.ofSeconds(3);

    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    /** Everything a failure message needs: config, seed, the current step, the pool's stats and workers' states. */
    static final class Ctx implements Supplier<String> {
        final TestPools.Config config;
        final long seed;
        final String prefix;
        volatile String step = "start";
        volatile ThreadPool pool;
        volatile Watchdog.Workers workers;

        Ctx(TestPools.Config config, long seed, String test) {
            this.config = config;
            this.seed = seed;
            this.prefix = "lw" + POOL_IDS.incrementAndGet() + "-" + test + "-w";
        }

        ThreadPool.Builder builder() {
            return config.builder().threadName(i -> prefix + i);
        }

        Watchdog.Guard open(ThreadPool.Builder b) {
            ThreadPool p = b.build();
            pool = p;
            workers = new Watchdog.Workers(p, prefix, config.threads());
            return Watchdog.guard(p, this);
        }

        @Override
        public String get() {
            ThreadPool p = pool;
            Watchdog.Workers w = workers;
            return "config=" + config + " seed=" + seed + " (replay: -Dspindle.seed=" + seed + ") step=[" + step
                    + "] stats=" + (p == null ? "-" : p.stats()) + " pool=" + p + " workers=["
                    + (w == null ? "-" : w.describe()) + "]";
        }
    }

    static long seed() {
        Long fixed = Long.getLong("spindle.seed");
        return fixed != null ? fixed : System.nanoTime() ^ 0x5DEECE66DL * Thread.currentThread().getId();
    }

    static void pause(Random rnd, int maxMicros) {
        int us = rnd.nextInt(maxMicros + 1);
        if (us > 0) {
            LockSupport.parkNanos(us * 1_000L);
        }
    }

    static void sleepMicros(long micros) {
        long end = System.nanoTime() + micros * 1_000L;
        long left;
        while ((left = end - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }

    static <T> T get(Future<T> f, Ctx ctx) throws Exception {
        try {
            return f.get(STEP.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("HANG: submitted task not done after " + STEP.toMillis() + " ms\ncontext: "
                    + ctx.get() + "\n" + Watchdog.threadDump());
        }
    }

    // ---------------------------------------------------------------------------------------------------------------

    /**
     * 300 posts from outside with random gaps (0..2 ms; every few posts a wait until every worker sleeps again), of
     * every kind: spawn, execute, install, submit, join, scope, broadcast, internal spawns and spawn chains.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.TestPools#configs")
    void externalPostsToSleepingPool(TestPools.Config config) {
        Ctx ctx = new Ctx(config, seed(), "post");
        Random rnd = new Random(ctx.seed);
        int n = config.threads();
        int settled = 0;
        try (Watchdog.Guard g = ctx.open(ctx.builder())) {
            ThreadPool pool = g.pool();
            for (int i = 0; i < 300; i++) {
                int gap = rnd.nextInt(10);
                if (gap < 3) {
                    ctx.step = "i=" + i + " settling";
                    if (ctx.workers.settle(SETTLE)) {
                        settled++;
                    }
                } else if (gap < 5) {
                    // back to back
                } else {
                    pause(rnd, 2_000);
                }
                int kind = rnd.nextInt(10);
                int iter = i;
                ctx.step = "i=" + i + " kind=" + kind;
                Watchdog.run(OUTER, ctx, () -> {
                    switch (kind) {
                        case 0 -> {
                            CountDownLatch ran = new CountDownLatch(1);
                            pool.spawn(ran::countDown);
                            Watchdog.await(ran, STEP, ctx);
                        }
                        case 1 -> {
                            CountDownLatch ran = new CountDownLatch(1);
                            pool.execute(ran::countDown);
                            Watchdog.await(ran, STEP, ctx);
                        }
                        case 2 -> assertEquals(iter, pool.install(() -> iter));
                        case 3 -> assertEquals(iter, get(pool.submit(() -> iter), ctx));
                        case 4 -> {
                            Pair<Integer, Integer> p = pool.join(() -> iter, () -> -iter);
                            assertEquals(new Pair<>(iter, -iter), p);
                        }
                        case 5 -> {
                            AtomicInteger c = new AtomicInteger();
                            int r = pool.scopeWithResult(s -> {
                                s.spawn(c::incrementAndGet);
                                s.spawn(s2 -> s2.spawn(c::incrementAndGet));
                                return iter;
                            });
                            assertEquals(iter, r);
                            assertEquals(2, c.get());
                        }
                        case 6 -> {
                            List<Integer> got = pool.broadcast(BroadcastContext::index);
                            assertEquals(IntStream.range(0, n).boxed().collect(Collectors.toList()), got);
                        }
                        case 7 -> {
                            // a burst from outside: more jobs than workers
                            int k = 1 + rnd.nextInt(2 * n + 1);
                            CountDownLatch ran = new CountDownLatch(k);
                            for (int j = 0; j < k; j++) {
                                pool.spawn(ran::countDown);
                            }
                            Watchdog.await(ran, STEP, ctx);
                        }
                        case 8 -> {
                            // internal spawns from a worker while the others sleep
                            int k = 1 + rnd.nextInt(2 * n + 1);
                            CountDownLatch ran = new CountDownLatch(k);
                            pool.install(() -> {
                                for (int j = 0; j < k; j++) {
                                    Spindle.spawn(ran::countDown);
                                }
                                return null;
                            });
                            Watchdog.await(ran, STEP, ctx);
                        }
                        default -> {
                            // a chain of spawns, each posted after a short pause by the previous one
                            int len = 2 + rnd.nextInt(5);
                            long pauseSeed = rnd.nextLong();
                            CountDownLatch ran = new CountDownLatch(len);
                            pool.spawn(chain(pool, ran, len, new Random(pauseSeed)));
                            Watchdog.await(ran, STEP, ctx);
                        }
                    }
                });
            }
            System.out.println("[LostWakeupTest] " + config + " seed=" + ctx.seed + ": " + settled
                    + " posts went to a fully asleep pool; " + pool.stats());
        }
    }

    private static Runnable chain(ThreadPool pool, CountDownLatch ran, int left, Random rnd) {
        int pauseUs = rnd.nextInt(4) == 0 ? rnd.nextInt(1_500) : 0;
        return () -> {
            ran.countDown();
            if (left > 1) {
                if (pauseUs > 0) {
                    sleepMicros(pauseUs);
                }
                pool.spawn(chain(pool, ran, left - 1, rnd));
            }
        };
    }

    /** Busy-waits {@code nanos} (precise short delays; parkNanos is too coarse to aim at a race window). */
    static void spinNanos(long nanos) {
        long end = System.nanoTime() + nanos;
        long left;
        while ((left = end - System.nanoTime()) > 0) {
            if (left > 100_000L) {
                Thread.yield(); // long waits: stay precise without starving the workers on a small machine
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** Waits for {@code flag}, spinning briefly then yielding; a hang fails with a thread dump. */
    static void awaitFlag(AtomicBoolean flag, Ctx ctx) {
        long start = System.nanoTime();
        long spins = 0;
        while (!flag.get()) {
            if (++spins < 2_000) {
                Thread.onSpinWait();
                continue;
            }
            Thread.yield();
            if ((spins & 255) == 0 && System.nanoTime() - start > STEP.toNanos()) {
                throw new AssertionError("HANG: posted job did not run within " + STEP.toMillis() + " ms\ncontext: "
                        + ctx.get() + "\n" + Watchdog.threadDump());
            }
        }
    }

    /** @return how many workers the stats count as blocked now */
    static long asleep(ThreadPool pool) {
        PoolStats st = pool.stats();
        return st.sleeps() - st.wakeups();
    }

    /**
     * After a job ran: waits (yielding, at most 50 ms) until all workers but one are asleep, so that the last one is on
     * its way to sleep and the caller can aim at it. Returns whether that state was seen.
     */
    static boolean awaitAllButOneAsleep(ThreadPool pool, int n) {
        long t0 = System.nanoTime();
        while (System.nanoTime() - t0 < 50_000_000L) {
            long a = asleep(pool);
            if (a >= n - 1) {
                return a == n - 1;
            }
            Thread.yield();
        }
        return false;
    }

    /**
     * Posts aimed at the moment the last worker falls asleep. After each job, the poster waits until all workers but
     * one sleep, then posts after a precise random delay around the measured time the last one takes to register as
     * sleeping (re-measured every few posts under the same load): an external spawn, an external install, or a join
     * whose stolen half ends after a similar delay (racing the owner's sleep on its latch). This is where a missing
     * fence, a missing JEC bump or a missing final injector check loses a job: no later post comes to rescue it, so a
     * lost job is a hang. Bounded to ~2 s per config.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.TestPools#configs")
    void postsRacingTheFallAsleep(TestPools.Config config) {
        Ctx ctx = new Ctx(config, seed(), "race");
        Random rnd = new Random(ctx.seed);
        int n = config.threads();
        try (Watchdog.Guard g = ctx.open(ctx.builder())) {
            ThreadPool pool = g.pool();
            int[] posts = new int[5];
            long[] estimate = {50_000L};
            Watchdog.run(Duration.ofSeconds(60), ctx, () -> {
                ctx.workers.settle(SETTLE);
                long end = System.nanoTime() + 2_000_000_000L;
                boolean aimed = false;
                for (int i = 0; i < 50_000 && System.nanoTime() - end < 0; i++) {
                    if (i % 8 == 0 && aimed) {
                        // measure: how long until the last worker registers as asleep
                        ctx.step = "i=" + i + " measuring; estimate=" + estimate[0] + "ns";
                        long t0 = System.nanoTime();
                        while (System.nanoTime() - t0 < 200_000_000L) {
                            if (asleep(pool) >= n) {
                                estimate[0] = (estimate[0] * 3 + System.nanoTime() - t0) / 4;
                                break;
                            }
                            Thread.yield(); // on a loaded machine the worker's yield rounds take long; do not starve it
                        }
                        posts[3]++;
                    } else if (aimed) {
                        // half near the estimate, half log-uniform below it (the estimate is noisy under load)
                        double f = rnd.nextBoolean() ? 0.5 + 0.7 * rnd.nextDouble()
                                : Math.exp(Math.log(1_000.0 / estimate[0]) * rnd.nextDouble());
                        spinNanos((long) (estimate[0] * f));
                    } else {
                        posts[4]++; // the state was missed: post anyway
                    }
                    int kind = n >= 2 ? rnd.nextInt(3) : rnd.nextInt(2);
                    ctx.step = "i=" + i + " kind=" + kind + " aimed=" + aimed + " estimate=" + estimate[0] + "ns";
                    posts[kind]++;
                    switch (kind) {
                        case 0 -> {
                            AtomicBoolean done = new AtomicBoolean();
                            pool.spawn(() -> done.set(true));
                            awaitFlag(done, ctx);
                        }
                        case 1 -> {
                            int iter = i;
                            assertEquals(iter, pool.install(() -> iter));
                        }
                        default -> {
                            long bDelay = (long) (estimate[0] * 2 * rnd.nextDouble());
                            AtomicBoolean bStarted = new AtomicBoolean();
                            Pair<Integer, Integer> p = pool.install(() -> pool.join(() -> {
                                long stop = System.nanoTime() + 50_000_000L;
                                while (!bStarted.get() && System.nanoTime() - stop < 0) {
                                    Thread.onSpinWait();
                                }
                                return 1;
                            }, () -> {
                                bStarted.set(true);
                                spinNanos(bDelay);
                                return 2;
                            }));
                            assertEquals(new Pair<>(1, 2), p);
                        }
                    }
                    aimed = awaitAllButOneAsleep(pool, n);
                }
            });
            System.out.println("[LostWakeupTest] " + config + " seed=" + ctx.seed + ": last worker's time-to-sleep ~"
                    + estimate[0] / 1000 + " us; racing posts spawn/install/join = " + posts[0] + "/" + posts[1] + "/"
                    + posts[2] + " (" + posts[3] + " after measuring, " + posts[4] + " not aimed); " + pool.stats());
        }
    }

    /**
     * Four outside threads post at once to a pool that is fully asleep (rounds released by a barrier whose action
     * waits until every worker sleeps), then keep posting with random gaps.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.TestPools#configs")
    void concurrentOutsidePosters(TestPools.Config config) {
        Ctx ctx = new Ctx(config, seed(), "conc");
        int posters = 4;
        int rounds = 40;
        int freePosts = 60;
        try (Watchdog.Guard g = ctx.open(ctx.builder())) {
            ThreadPool pool = g.pool();
            CyclicBarrier barrier = new CyclicBarrier(posters, () -> ctx.workers.settle(SETTLE));
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            AtomicLong ran = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            Watchdog.run(Duration.ofSeconds(80), ctx, () -> {
                List<Thread> ts = new ArrayList<>();
                for (int p = 0; p < posters; p++) {
                    int me = p;
                    Random rnd = new Random(ctx.seed + 31L * p);
                    Thread t = new Thread(() -> {
                        try {
                            for (int r = 0; r < rounds + freePosts; r++) {
                                if (stop.get()) {
                                    return;
                                }
                                if (r < rounds) {
                                    barrier.await(STEP.toMillis(), TimeUnit.MILLISECONDS);
                                } else {
                                    pause(rnd, 2_000);
                                }
                                ctx.step = "poster " + me + " round " + r;
                                int kind = rnd.nextInt(4);
                                int k = 1 + rnd.nextInt(3);
                                switch (kind) {
                                    case 0 -> {
                                        CountDownLatch done = new CountDownLatch(k);
                                        for (int j = 0; j < k; j++) {
                                            pool.spawn(() -> {
                                                ran.incrementAndGet();
                                                done.countDown();
                                            });
                                        }
                                        Watchdog.await(done, STEP, ctx);
                                    }
                                    case 1 -> {
                                        CountDownLatch done = new CountDownLatch(k);
                                        for (int j = 0; j < k; j++) {
                                            pool.execute(() -> {
                                                ran.incrementAndGet();
                                                done.countDown();
                                            });
                                        }
                                        Watchdog.await(done, STEP, ctx);
                                    }
                                    case 2 -> {
                                        int v = pool.install(() -> {
                                            ran.incrementAndGet();
                                            return me;
                                        });
                                        assertEquals(me, v);
                                    }
                                    default -> {
                                        Pair<Integer, Integer> pr = pool.join(() -> {
                                            ran.incrementAndGet();
                                            return me;
                                        }, () -> {
                                            ran.incrementAndGet();
                                            return -me;
                                        });
                                        assertEquals(new Pair<>(me, -me), pr);
                                    }
                                }
                            }
                        } catch (BrokenBarrierException e) {
                            // another poster failed; its failure is reported
                        } catch (Throwable e) {
                            failures.add(e);
                            stop.set(true);
                            barrier.reset();
                        }
                    }, ctx.prefix + "-poster-" + p);
                    t.setDaemon(true);
                    ts.add(t);
                }
                ts.forEach(Thread::start);
                for (Thread t : ts) {
                    t.join();
                }
            });
            if (!failures.isEmpty()) {
                AssertionError e = new AssertionError("poster failed; context: " + ctx.get(), failures.peek());
                failures.stream().skip(1).forEach(e::addSuppressed);
                throw e;
            }
            assertTrue(ran.get() >= (long) posters * (rounds + freePosts), ctx.get());
        }
    }

    /**
     * A join whose stolen half finishes after the owner has run out of work and fallen asleep on the join's latch:
     * setting that latch must wake the owner. Also the mirror case (the inline half slow), a nested slow join, and
     * a join called from outside.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.TestPools#configs")
    void joinWhoseStolenHalfFinishesAfterOwnerSlept(TestPools.Config config) {
        Ctx ctx = new Ctx(config, seed(), "join");
        Random rnd = new Random(ctx.seed);
        int n = config.threads();
        int stolenSlowB = 0;
        int slowBRuns = 0;
        try (Watchdog.Guard g = ctx.open(ctx.builder())) {
            ThreadPool pool = g.pool();
            for (int i = 0; i < 80; i++) {
                if (rnd.nextBoolean()) {
                    ctx.step = "i=" + i + " settling";
                    ctx.workers.settle(SETTLE);
                } else {
                    pause(rnd, 1_000);
                }
                int variant = i % 4;
                int slowUs = 2_000 + rnd.nextInt(4_000);
                int iter = i;
                ctx.step = "i=" + i + " variant=" + variant + " slow=" + slowUs + "us";
                AtomicBoolean bStarted = new AtomicBoolean();
                AtomicReference<Thread> bThread = new AtomicReference<>();
                Supplier<Integer> waitForThief = () -> {
                    // give a sleeping worker time to wake and steal b (only a wake-up, no correctness, rides on it)
                    long end = System.nanoTime() + (n >= 2 ? 100_000_000L : 0L);
                    while (!bStarted.get() && System.nanoTime() - end < 0) {
                        LockSupport.parkNanos(20_000L);
                    }
                    return iter;
                };
                Supplier<Integer> slowB = () -> {
                    bThread.set(Thread.currentThread());
                    bStarted.set(true);
                    sleepMicros(slowUs);
                    return -iter;
                };
                Thread[] owner = new Thread[1];
                Pair<Integer, Integer> p = Watchdog.call(STEP, ctx, () -> switch (variant) {
                    case 0 -> pool.install(() -> {
                        owner[0] = Thread.currentThread();
                        return Spindle.join(waitForThief, slowB);
                    });
                    case 1 -> pool.install(() -> {
                        owner[0] = Thread.currentThread();
                        return pool.join(() -> {
                            sleepMicros(slowUs);
                            return iter;
                        }, () -> -iter);
                    });
                    case 2 -> pool.install(() -> {
                        owner[0] = Thread.currentThread();
                        // b is itself a join whose halves are both slow: two levels of owners sleep on latches
                        return pool.join(waitForThief, () -> {
                            Pair<Integer, Integer> inner = Spindle.join(slowB, () -> {
                                sleepMicros(slowUs / 2);
                                return 0;
                            });
                            return inner.first() + inner.second();
                        });
                    });
                    default -> pool.join(() -> {
                        owner[0] = Thread.currentThread();
                        return waitForThief.get();
                    }, slowB);
                });
                assertEquals(new Pair<>(iter, -iter), p, ctx.get());
                if (variant != 1) {
                    slowBRuns++;
                    if (bThread.get() != null && bThread.get() != owner[0]) {
                        stolenSlowB++;
                    }
                }
            }
            System.out.println("[LostWakeupTest] " + config + " seed=" + ctx.seed + ": slow b stolen in "
                    + stolenSlowB + "/" + slowBRuns + " joins; " + pool.stats());
            if (n >= 2) {
                // Not a timing check: a half that stays unstolen through 100 ms in every one of 60 joins means the
                // pushing owner never woke a sleeping worker, i.e. the scenario under test never happened.
                assertTrue(stolenSlowB > 0, "no slow half was ever stolen: the owner never slept on a stolen job; "
                        + ctx.get());
            }
        }
    }

    /**
     * A scope whose spawned tasks finish (or spawn more, or are spawned from an outside thread) after the scope's
     * owner has fallen asleep on the scope's counting latch.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.TestPools#configs")
    void scopeWhoseTasksFinishAfterOwnerSlept(TestPools.Config config) {
        Ctx ctx = new Ctx(config, seed(), "scope");
        Random rnd = new Random(ctx.seed);
        int n = config.threads();
        try (Watchdog.Guard g = ctx.open(ctx.builder())) {
            ThreadPool pool = g.pool();
            for (int i = 0; i < 60; i++) {
                if (rnd.nextBoolean()) {
                    ctx.step = "i=" + i + " settling";
                    ctx.workers.settle(SETTLE);
                } else {
                    pause(rnd, 1_000);
                }
                int variant = i % 4;
                int k = 1 + rnd.nextInt(n + 2);
                int slowUs = 1_000 + rnd.nextInt(3_000);
                ctx.step = "i=" + i + " variant=" + variant + " tasks=" + k + " slow=" + slowUs + "us";
                AtomicInteger ran = new AtomicInteger();
                int expected = Watchdog.call(STEP, ctx, () -> switch (variant) {
                    case 0 -> {
                        // external scope, body returns at once, every task slow
                        pool.scope(s -> {
                            for (int j = 0; j < k; j++) {
                                s.spawn(() -> {
                                    sleepMicros(slowUs);
                                    ran.incrementAndGet();
                                });
                            }
                        });
                        yield k;
                    }
                    case 1 -> {
                        // tasks spawn more tasks into the scope late, while the owner sleeps
                        pool.install(() -> {
                            Spindle.scope(s -> {
                                for (int j = 0; j < k; j++) {
                                    s.spawn(s2 -> {
                                        sleepMicros(slowUs);
                                        ran.incrementAndGet();
                                        s2.spawn(s3 -> {
                                            sleepMicros(slowUs / 2);
                                            ran.incrementAndGet();
                                            s3.spawn(ran::incrementAndGet);
                                        });
                                    });
                                }
                            });
                            return null;
                        });
                        yield 3 * k;
                    }
                    case 2 -> {
                        // a task hands the scope to a plain outside thread that spawns into it later: an injection
                        // into a scope whose owner (and every other idle worker) sleeps
                        pool.scope(s -> {
                            s.spawn(() -> {
                                Thread x = new Thread(() -> {
                                    sleepMicros(slowUs);
                                    for (int j = 0; j < k; j++) {
                                        s.spawn(ran::incrementAndGet);
                                    }
                                }, ctx.prefix + "-outside-spawner");
                                x.setDaemon(true);
                                x.start();
                                try {
                                    x.join();
                                } catch (InterruptedException e) {
                                    throw new AssertionError(e);
                                }
                                ran.incrementAndGet();
                            });
                        });
                        yield k + 1;
                    }
                    default -> {
                        // the body itself is slow after spawning quick tasks, then more slow tasks; scope in a join
                        Pair<Integer, Integer> p = pool.install(() -> Spindle.join(() -> {
                            Spindle.scope(s -> {
                                for (int j = 0; j < k; j++) {
                                    s.spawn(ran::incrementAndGet);
                                }
                                sleepMicros(slowUs / 2);
                                s.spawn(() -> {
                                    sleepMicros(slowUs);
                                    ran.incrementAndGet();
                                });
                            });
                            return 1;
                        }, () -> {
                            sleepMicros(slowUs / 3);
                            return 2;
                        }));
                        assertEquals(new Pair<>(1, 2), p);
                        yield k + 1;
                    }
                });
                assertEquals(expected, ran.get(), "scope returned before all its tasks ran; " + ctx.get());
            }
        }
    }

    /** Broadcasts to a fully sleeping pool, from outside and from a worker, some with one slow copy. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.TestPools#configs")
    void broadcastToSleepingPool(TestPools.Config config) {
        Ctx ctx = new Ctx(config, seed(), "bcast");
        Random rnd = new Random(ctx.seed);
        int n = config.threads();
        List<Integer> indices = IntStream.range(0, n).boxed().collect(Collectors.toList());
        try (Watchdog.Guard g = ctx.open(ctx.builder())) {
            ThreadPool pool = g.pool();
            for (int i = 0; i < 50; i++) {
                if (rnd.nextInt(3) != 0) {
                    ctx.step = "i=" + i + " settling";
                    ctx.workers.settle(SETTLE);
                } else {
                    pause(rnd, 1_000);
                }
                int variant = i % 3;
                int slowIndex = rnd.nextInt(n);
                int slowUs = 1_000 + rnd.nextInt(3_000);
                ctx.step = "i=" + i + " variant=" + variant + " slowIndex=" + slowIndex;
                ConcurrentLinkedQueue<String> bad = new ConcurrentLinkedQueue<>();
                java.util.function.Function<BroadcastContext, Integer> op = bc -> {
                    if (Spindle.currentThreadIndex().orElse(-1) != bc.index() || bc.threadCount() != n) {
                        bad.add(bc + " ran on " + Thread.currentThread().getName());
                    }
                    if (variant != 0 && bc.index() == slowIndex) {
                        sleepMicros(slowUs);
                    }
                    return bc.index();
                };
                List<Integer> got = Watchdog.call(STEP, ctx, () -> variant == 2
                        ? pool.install(() -> pool.broadcast(op))
                        : pool.broadcast(op));
                assertEquals(indices, got, ctx.get());
                assertTrue(bad.isEmpty(), bad + "; " + ctx.get());
            }
        }
    }

    /**
     * Interrupts never break a sleep protocol's blocking primitive (an interrupt during a blocking read closes a
     * java.nio pipe): sleeping workers are interrupted from outside, and tasks interrupt their own or another worker,
     * then work is posted to the sleeping pool and must still run, and the pool must still close.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.TestPools#configs")
    void interruptedSleepersStillWake(TestPools.Config config) {
        Ctx ctx = new Ctx(config, seed(), "intr");
        Random rnd = new Random(ctx.seed);
        int n = config.threads();
        try (Watchdog.Guard g = ctx.open(ctx.builder())) {
            ThreadPool pool = g.pool();
            Watchdog.awaitCondition(() -> ctx.workers.threads().length == n, Duration.ofSeconds(10), ctx);
            Thread[] ws = ctx.workers.threads();
            for (int i = 0; i < 120; i++) {
                if (rnd.nextBoolean()) {
                    ctx.step = "i=" + i + " settling";
                    ctx.workers.settle(SETTLE);
                } else {
                    pause(rnd, 500);
                }
                int how = rnd.nextInt(4);
                int victim = rnd.nextInt(n);
                ctx.step = "i=" + i + " interrupt=" + how + " victim=" + victim;
                switch (how) {
                    case 0 -> {
                        for (Thread w : ws) {
                            w.interrupt();
                        }
                    }
                    case 1 -> ws[victim].interrupt();
                    case 2 -> Watchdog.run(STEP, ctx, () -> pool.install(() -> {
                        Thread.currentThread().interrupt(); // left set on purpose
                        return null;
                    }));
                    default -> Watchdog.run(STEP, ctx, () -> pool.install(() -> {
                        ws[victim].interrupt();
                        return null;
                    }));
                }
                if (rnd.nextBoolean()) {
                    ctx.workers.settle(Duration.ofMillis(200)); // let the interrupted sleepers go back to sleep
                }
                int kind = rnd.nextInt(4);
                int iter = i;
                ctx.step = "i=" + i + " interrupt=" + how + " victim=" + victim + " post=" + kind;
                Watchdog.run(OUTER, ctx, () -> {
                    switch (kind) {
                        case 0 -> {
                            CountDownLatch ran = new CountDownLatch(1 + n);
                            for (int j = 0; j <= n; j++) {
                                pool.spawn(ran::countDown);
                            }
                            Watchdog.await(ran, STEP, ctx);
                        }
                        case 1 -> assertEquals(iter, pool.install(() -> iter));
                        case 2 -> assertEquals(n, pool.broadcast(BroadcastContext::index).size());
                        default -> {
                            Pair<Integer, Integer> p = pool.install(() -> pool.join(() -> {
                                sleepMicros(300);
                                return 1;
                            }, () -> {
                                sleepMicros(300);
                                return 2;
                            }));
                            assertEquals(new Pair<>(1, 2), p);
                        }
                    }
                });
            }
        }
    }

    /**
     * A worker of pool B waits on work it handed to a sleeping pool A (install / join / scope / broadcast); A's
     * completion must wake B's worker, which meanwhile sleeps in its own pool.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.TestPools#configs")
    void crossPoolWaitOnSleepingPool(TestPools.Config config) {
        Ctx ctx = new Ctx(config, seed(), "crossA");
        Random rnd = new Random(ctx.seed);
        int n = config.threads();
        String bPrefix = ctx.prefix + "-B";
        try (Watchdog.Guard ga = ctx.open(ctx.builder());
             Watchdog.Guard gb = Watchdog.guard(config.builder().threadName(i -> bPrefix + i).build(), ctx)) {
            ThreadPool a = ga.pool();
            ThreadPool b = gb.pool();
            Watchdog.Workers bWorkers = new Watchdog.Workers(b, bPrefix, n);
            for (int i = 0; i < 40; i++) {
                if (rnd.nextBoolean()) {
                    ctx.step = "i=" + i + " settling";
                    ctx.workers.settle(SETTLE);
                    bWorkers.settle(SETTLE);
                } else {
                    pause(rnd, 1_000);
                }
                int variant = i % 4;
                int slowUs = 1_000 + rnd.nextInt(3_000);
                int iter = i;
                ctx.step = "i=" + i + " variant=" + variant + " slow=" + slowUs + "us";
                AtomicInteger ran = new AtomicInteger();
                int v = Watchdog.call(STEP, ctx, () -> b.install(() -> switch (variant) {
                    case 0 -> a.install(() -> {
                        sleepMicros(slowUs);
                        return iter;
                    });
                    case 1 -> {
                        Pair<Integer, Integer> p = a.join(() -> iter, () -> {
                            sleepMicros(slowUs);
                            return 0;
                        });
                        yield p.first() + p.second();
                    }
                    case 2 -> {
                        a.scope(s -> {
                            for (int j = 0; j < n + 1; j++) {
                                s.spawn(() -> {
                                    sleepMicros(slowUs);
                                    ran.incrementAndGet();
                                });
                            }
                        });
                        yield ran.get() == n + 1 ? iter : -1;
                    }
                    default -> {
                        List<Integer> r = a.broadcast(bc -> {
                            sleepMicros(slowUs / 2);
                            return 1;
                        });
                        yield r.size() == n ? iter : -1;
                    }
                }));
                assertEquals(iter, v, ctx.get());
            }
        }
    }
}
