package io.spindle.smoke;

import io.spindle.Pair;
import io.spindle.PoolStats;
import io.spindle.Scope;
import io.spindle.SleepStrategy;
import io.spindle.Spindle;
import io.spindle.ThreadPool;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Run in a child JVM by {@code JfrOptionalTest}: builds a pool of every sleep strategy and drives each path that
 * reaches the JFR hooks (sleeping, waking by injection, internal pushes and latches, steals, broadcast), checking
 * results. Prints {@code SMOKE OK} and exits 0; any failure, including one on a worker thread, exits non-zero at once.
 *
 * <p>Only java.base is used, so that it runs under {@code --limit-modules java.base}. Argument: {@code jfr=present}
 * or {@code jfr=absent}, what the parent expects of the boot layer (so that a wrong set-up fails instead of passing).
 */
public final class PoolSmokeMain {
    private PoolSmokeMain() {}

    public static void main(String[] args) throws Exception {
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            System.out.println("uncaught on " + t.getName() + ":");
            e.printStackTrace(System.out);
            System.out.flush();
            Runtime.getRuntime().halt(4);
        });
        Thread hangGuard = new Thread(() -> {
            try {
                Thread.sleep(TimeUnit.SECONDS.toMillis(90));
            } catch (InterruptedException e) {
                return;
            }
            System.out.println("smoke run hung");
            System.out.flush();
            Runtime.getRuntime().halt(3);
        }, "smoke-hang-guard");
        hangGuard.setDaemon(true);
        hangGuard.start();

        boolean jfrPresent = ModuleLayer.boot().findModule("jdk.jfr").isPresent();
        System.out.println("jdk.jfr in boot layer: " + jfrPresent + "; spindle module: "
                + ThreadPool.class.getModule());
        if (args.length != 1 || !args[0].equals(jfrPresent ? "jfr=present" : "jfr=absent")) {
            fail("expected " + (args.length == 1 ? args[0] : "one argument") + ", but jdk.jfr present = " + jfrPresent);
        }

        for (SleepStrategy strategy : SleepStrategy.values()) {
            try (ThreadPool pool = ThreadPool.builder().sleepStrategy(strategy).threads(3).build()) {
                exercise(strategy, pool);
                System.out.println(strategy + ": " + pool.stats().toString().lines().findFirst().orElse(""));
            }
        }
        System.out.println("SMOKE OK");
    }

    private static void exercise(SleepStrategy strategy, ThreadPool pool) throws Exception {
        check(pool.install(() -> fib(22)) == 17711L, strategy + ": install(fib(22))");
        Pair<Long, Long> pair = pool.join(() -> fib(15), () -> fib(16));
        check(pair.first() == 610L && pair.second() == 987L, strategy + ": join");
        AtomicInteger sum = new AtomicInteger();
        pool.scope((Scope s) -> {
            for (int i = 1; i <= 100; i++) {
                int k = i;
                s.spawn(() -> sum.addAndGet(k));
            }
        });
        check(sum.get() == 5050, strategy + ": scope sum " + sum.get());

        // Let workers block, then wake them from outside (injection) and from inside (pushes, latches).
        awaitTrue(() -> pool.stats().sleeps() > 0, strategy + ": a worker sleeps");
        CountDownLatch spawned = new CountDownLatch(20);
        for (int i = 0; i < 20; i++) {
            pool.spawn(spawned::countDown);
        }
        check(spawned.await(30, TimeUnit.SECONDS), strategy + ": 20 spawns ran");
        List<Integer> indices = pool.broadcast(ctx -> ctx.index());
        check(indices.equals(List.of(0, 1, 2)), strategy + ": broadcast " + indices);
        check(pool.supplyAsync(() -> 6 * 7).join() == 42, strategy + ": supplyAsync");
        // Until a wake-up is counted: post work, then wait until a worker sleeps again (so the next post finds one).
        while (pool.stats().wakeups() == 0) {
            long sleeps = pool.stats().sleeps();
            pool.install(() -> fib(18));
            awaitTrue(() -> pool.stats().wakeups() > 0 || pool.stats().sleeps() > sleeps,
                    strategy + ": a worker sleeps again");
        }
        PoolStats s = pool.stats();
        check(s.workers().size() == 3, strategy + ": per-worker stats");
    }

    static long fib(int n) {
        if (n < 12) {
            return n < 2 ? n : fib(n - 1) + fib(n - 2);
        }
        Pair<Long, Long> r = Spindle.join(() -> fib(n - 1), () -> fib(n - 2));
        return r.first() + r.second();
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("never: " + what);
            }
            Thread.sleep(5);
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            fail(what);
        }
    }

    private static void fail(String why) {
        System.out.println("SMOKE FAILED: " + why);
        System.out.flush();
        Runtime.getRuntime().halt(2);
    }
}
