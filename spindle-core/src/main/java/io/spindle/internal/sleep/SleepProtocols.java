package io.spindle.internal.sleep;

import io.spindle.SleepStrategy;
import io.spindle.internal.event.PoolEvents;

import java.util.function.IntFunction;

/** Creates the sleep protocol a pool was built with. */
public final class SleepProtocols {
    private SleepProtocols() {}

    /** Worker {@code i}'s blocker: the pool's, or a {@link ParkingBlocker} when none is given (tests, benchmarks). */
    static Blocker blockerFor(IntFunction<? extends Blocker> blockers, int i) {
        return blockers != null ? blockers.apply(i) : new ParkingBlocker();
    }

    /**
     * The protocols' shared argument check: their counters hold at most {@link JecCounters#THREADS_MAX} workers.
     *
     * @return {@code threads}
     * @throws IllegalArgumentException naming the value if it is out of range
     */
    static int checkThreads(int threads) {
        if (threads < 1 || threads > JecCounters.THREADS_MAX) {
            throw new IllegalArgumentException("threads must be in 1.." + JecCounters.THREADS_MAX + ", got " + threads);
        }
        return threads;
    }

    /**
     * E6 (registry package-info): runs {@code strategy}'s sleep and each of its wake-ups (a latch set, a broadcast, an
     * injection, an internal push, termination) once, on a throwaway protocol of one worker played by the calling
     * thread, so that their call sites are linked before any pool of this JVM accepts work ({@link WakePathLinks}).
     *
     * @throws java.io.UncheckedIOException for HINT_PIPE, if the OS refuses a pipe or selector
     */
    public static void linkWakePaths(SleepStrategy strategy) {
        WakePathLinks.link(strategy);
    }

    /**
     * @throws java.io.UncheckedIOException for HINT_PIPE, if the OS refuses a pipe or selector (e.g. out of file
     *                                      descriptors)
     */
    public static SleepProtocol create(SleepStrategy strategy, int threads) {
        return create(strategy, threads, PoolEvents.NONE);
    }

    /**
     * @param events where the protocol reports sleeps and wake-ups (JFR)
     * @throws java.io.UncheckedIOException for HINT_PIPE, if the OS refuses a pipe or selector
     */
    public static SleepProtocol create(SleepStrategy strategy, int threads, PoolEvents events) {
        return create(strategy, threads, events, null);
    }

    /**
     * @param blockers each worker's {@link Blocker} (a pool's IO pollers, docs/DESIGN.md §6), or null for plain parking
     * @throws java.io.UncheckedIOException for HINT_PIPE, if the OS refuses a pipe or selector
     */
    public static SleepProtocol create(SleepStrategy strategy, int threads, PoolEvents events,
                                       IntFunction<? extends Blocker> blockers) {
        switch (strategy) {
            case JOBS_EVENT_COUNTER:
                return new JecSleep(threads, JecSleep.IDLE_JUDGEMENT, events, blockers);
            case SLEEPY_WORKER:
                return new SleepyWorkerSleep(threads, events, blockers);
            case HINT_PIPE:
                return new HintPipeSleep(threads, events, blockers);
            default:
                throw new AssertionError(strategy);
        }
    }
}
