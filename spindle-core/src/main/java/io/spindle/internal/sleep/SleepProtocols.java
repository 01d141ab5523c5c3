package io.spindle.internal.sleep;

import io.spindle.SleepStrategy;

/** Creates the sleep protocol a pool was built with. */
public final class SleepProtocols {
    private SleepProtocols() {}

    /**
     * @throws UnsupportedOperationException for a strategy not implemented yet
     */
    public static SleepProtocol create(SleepStrategy strategy, int threads) {
        switch (strategy) {
            case JOBS_EVENT_COUNTER:
                return new JecSleep(threads);
            case SLEEPY_WORKER:
            case HINT_PIPE:
                throw new UnsupportedOperationException("sleep strategy " + strategy
                        + " is not implemented yet; use SleepStrategy.JOBS_EVENT_COUNTER");
            default:
                throw new AssertionError(strategy);
        }
    }
}
