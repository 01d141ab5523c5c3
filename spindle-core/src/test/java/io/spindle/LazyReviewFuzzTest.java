package io.spindle;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Review of issue 14: random trees mixing lazy joins (promoted at every join), scopes, same-pool and cross-pool installs
 * and broadcasts, with nested waits everywhere. Every node must run exactly once, and a join must return only after both
 * of its halves ended. Runs 10 s (in each of the pom's three test executions); {@code -Dspindle.lazyFuzz.seconds=N}
 * for longer.
 */
class LazyReviewFuzzTest {
    static final int NODES = 1 << 20;
    final AtomicIntegerArray runs = new AtomicIntegerArray(NODES);
    final AtomicInteger next = new AtomicInteger();
    final AtomicReference<String> problem = new AtomicReference<>();

    void node(ThreadPool pool, ThreadPool other, long seed, int depth) {
        int id = next.getAndIncrement();
        if (id >= NODES) {
            return;
        }
        if (runs.incrementAndGet(id) != 1) {
            problem.compareAndSet(null, "node " + id + " ran twice");
        }
        if (depth == 0) {
            return;
        }
        SplittableRandom r = new SplittableRandom(seed);
        int kind = r.nextInt(20);
        long s1 = r.nextLong();
        long s2 = r.nextLong();
        if (kind < 12) {
            boolean[] done = new boolean[2];
            pool.join(() -> {
                node(pool, other, s1, depth - 1);
                done[0] = true;
            }, () -> {
                node(pool, other, s2, depth - 1);
                done[1] = true;
            });
            if (!done[0] || !done[1]) {
                problem.compareAndSet(null, "a join returned before its halves ended");
            }
        } else if (kind < 16) {
            pool.scope(sc -> {
                sc.spawn(() -> node(pool, other, s1, depth - 1));
                node(pool, other, s2, depth - 1);
            });
        } else if (kind < 18) {
            ThreadPool target = r.nextBoolean() ? pool : other;
            target.install(() -> {
                node(pool, other, s1, depth - 1);
                return null;
            });
            node(pool, other, s2, depth - 1);
        } else if (kind == 18 && depth > 6) {
            pool.broadcast(ctx -> {
                if (ctx.index() == 0) {
                    node(pool, other, s1, depth - 1);
                }
                return null;
            });
            node(pool, other, s2, depth - 1);
        } else {
            Spindle.join(() -> node(pool, other, s1, depth - 1), () -> node(pool, other, s2, depth - 1));
        }
    }

    @Test
    void randomNestingRunsEveryNodeOnce() {
        long end = System.nanoTime() + Duration.ofSeconds(Long.getLong("spindle.lazyFuzz.seconds", 10)).toNanos();
        int round = 0;
        while (System.nanoTime() < end) {
            for (int threads : new int[] {2, 3, 4}) {
                try (ThreadPool pool = ThreadPool.builder().threads(threads).joinStrategy(JoinStrategy.LAZY)
                        .heartbeatInterval(Duration.ZERO).build();
                     ThreadPool other = ThreadPool.builder().threads(2).joinStrategy(JoinStrategy.LAZY)
                        .heartbeatInterval(Duration.ZERO).build()) {
                    for (int i = 0; i < NODES; i++) {
                        runs.set(i, 0);
                    }
                    next.set(0);
                    long seed = 0x5EEDL * (++round);
                    Watchdog.call(Duration.ofSeconds(60), () -> "fuzz round " + pool, () -> {
                        pool.install(() -> {
                            node(pool, other, seed, 14);
                            return null;
                        });
                        return null;
                    });
                    int n = Math.min(next.get(), NODES);
                    for (int i = 0; i < n; i++) {
                        assertEquals(1, runs.get(i), "node " + i + " of " + n);
                    }
                    assertNull(problem.get());
                }
            }
        }
    }
}
