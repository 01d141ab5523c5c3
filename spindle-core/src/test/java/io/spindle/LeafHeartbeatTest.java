package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link Spindle#heartbeat()} (LZ10 in {@code internal/lazy/package-info}): a loop that makes no join but calls it
 * shares the latent join halves below it, and a call with nothing latent leaves a job's first check (LZ8) alone. The
 * loops here wait for an event with a generous deadline, never for a time: without the behaviour under test the event
 * never comes, and the deadline turns that into a failure.
 */
class LeafHeartbeatTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final long LOOP_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(50);
    /**
     * The longest interval the builder takes: no check but a job's first (LZ8) and a loop's after a second can be a
     * beat, and none is coarse (LZ5) unless a quarter second passes between two of them. So a cold start (lambdas
     * linked on first use, code interpreted) cannot make the inner join's own check promote.
     */
    private static final Duration SLOW_BEAT = Duration.ofSeconds(1);

    private static ThreadPool slowBeatPool(SleepStrategy s) {
        return ThreadPool.builder().threads(2).sleepStrategy(s).joinStrategy(JoinStrategy.LAZY)
                .heartbeatInterval(SLOW_BEAT).build();
    }

    /** Runs {@code round} until {@code event} happened, or at most {@link #LOOP_LIMIT_NANOS}. */
    private static void loopUntil(CountDownLatch event, Runnable round) {
        long deadline = System.nanoTime() + LOOP_LIMIT_NANOS;
        while (event.getCount() > 0 && System.nanoTime() < deadline) {
            round.run();
        }
    }

    /**
     * The root join shares its tiny {@code b} at once (LZ8), and that worker then goes idle. The inner join's frame
     * stays latent: the join's own check came right after the root's beat, well inside the {@link #SLOW_BEAT} interval.
     * Its {@code a} is a loop with no join in it, which ends only once the inner {@code b} started, so only the loop's
     * heartbeat, a second later, can promote it.
     */
    @ParameterizedTest
    @EnumSource(SleepStrategy.class)
    void aLoopThatBeatsSharesTheLatentHalfBelowIt(SleepStrategy s) throws Exception {
        try (ThreadPool pool = slowBeatPool(s)) {
            CountDownLatch innerBStarted = new CountDownLatch(1);
            AtomicReference<Thread> innerBThread = new AtomicReference<>();
            AtomicReference<Thread> loopThread = new AtomicReference<>();
            Watchdog.call(DEADLINE, () -> "leaf heartbeat on " + s + "\n" + pool, () -> pool.install(() -> {
                Spindle.join(() -> Spindle.join(() -> {
                    loopThread.set(Thread.currentThread());
                    loopUntil(innerBStarted, Spindle::heartbeat); // the only way the inner b can leave this worker
                }, () -> {
                    innerBThread.set(Thread.currentThread());
                    innerBStarted.countDown();
                }), () -> { });
                return null;
            }));
            assertEquals(0, innerBStarted.getCount(), "the inner b never started while the loop beat: not promoted");
            assertNotEquals(loopThread.get(), innerBThread.get(), "the inner b ran on the other worker");
            assertTrue(pool.stats().promotions() >= 2, "the root's b and the inner b: " + pool.stats());
        }
    }

    /**
     * A heartbeat before a job's first join finds nothing latent and must not use up the job's immediate check (LZ8):
     * the root join right after it still shares its {@code b}, although its {@code a} neither joins nor beats.
     */
    @ParameterizedTest
    @EnumSource(SleepStrategy.class)
    void aHeartbeatWithNothingLatentLeavesTheRootJoinsCheck(SleepStrategy s) throws Exception {
        try (ThreadPool pool = slowBeatPool(s)) {
            CountDownLatch bStarted = new CountDownLatch(1);
            AtomicBoolean startedWhileARan = new AtomicBoolean();
            String what = "heartbeat before the root join on " + s;
            Watchdog.call(DEADLINE, () -> what + "\n" + pool, () -> pool.install(() -> {
                Spindle.heartbeat();
                Spindle.join(() -> {
                    loopUntil(bStarted, Thread::onSpinWait); // no join, no heartbeat: only the root check shares b
                    startedWhileARan.set(bStarted.getCount() == 0); // else b runs inline, after this loop
                }, bStarted::countDown);
                return null;
            }));
            assertTrue(startedWhileARan.get(), "b started only after a: the root join did not share it at once");
        }
    }

    /** Off a worker, on an eager pool, and with no join waiting, the call does nothing and throws nothing. */
    @Test
    void aHeartbeatWhereThereIsNothingToShareDoesNothing() {
        Spindle.heartbeat(); // not a worker
        try (ThreadPool eager = ThreadPool.builder().threads(2).joinStrategy(JoinStrategy.EAGER).build()) {
            eager.install(() -> {
                Spindle.join(() -> Spindle.heartbeat(), () -> Spindle.heartbeat());
                return null;
            });
            assertEquals(0L, eager.stats().promotions());
        }
        try (ThreadPool lazy = ThreadPool.builder().threads(2).joinStrategy(JoinStrategy.LAZY).build()) {
            lazy.install(() -> {
                for (int i = 0; i < 10_000; i++) {
                    Spindle.heartbeat(); // nothing latent: no promotion
                }
                return null;
            });
            assertEquals(0L, lazy.stats().promotions());
        }
    }
}
