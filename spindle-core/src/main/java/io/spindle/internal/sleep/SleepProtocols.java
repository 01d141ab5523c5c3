package io.spindle.internal.sleep;

import io.spindle.SleepStrategy;
import io.spindle.internal.event.PoolEvents;

/** Creates the sleep protocol a pool was built with. */
public final class SleepProtocols {
    private SleepProtocols() {}

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
