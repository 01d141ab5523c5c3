package io.spindle.internal.sleep;

import io.spindle.SleepStrategy;
import io.spindle.internal.event.PoolEvents;

/** Creates the sleep protocol a pool was built with. */
public final class SleepProtocols {
    private SleepProtocols() {}

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
        switch (strategy) {
            case JOBS_EVENT_COUNTER:
                return new JecSleep(threads, JecSleep.IDLE_JUDGEMENT, events);
            case SLEEPY_WORKER:
                return new SleepyWorkerSleep(threads, events);
            case HINT_PIPE:
                return new HintPipeSleep(threads, events);
            default:
                throw new AssertionError(strategy);
        }
    }
}
