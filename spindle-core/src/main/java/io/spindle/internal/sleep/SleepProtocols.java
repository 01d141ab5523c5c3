package io.spindle.internal.sleep;

import io.spindle.SleepStrategy;

/** Creates the sleep protocol a pool was built with. */
public final class SleepProtocols {
    private SleepProtocols() {}

    /**
     * @throws java.io.UncheckedIOException for HINT_PIPE, if the OS refuses a pipe or selector (e.g. out of file
     *                                      descriptors)
     */
    public static SleepProtocol create(SleepStrategy strategy, int threads) {
        switch (strategy) {
            case JOBS_EVENT_COUNTER:
                return new JecSleep(threads);
            case SLEEPY_WORKER:
                return new SleepyWorkerSleep(threads);
            case HINT_PIPE:
                return new HintPipeSleep(threads);
            default:
                throw new AssertionError(strategy);
        }
    }
}
