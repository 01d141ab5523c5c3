package io.spindle;

/**
 * How idle workers of a {@link ThreadPool} go to sleep and how posting work wakes them.
 *
 * <p>Every strategy guarantees that no posted job and no set latch is ever missed by sleeping workers; they differ in
 * how many workers they wake and at what cost.
 *
 * <pre>{@code
 * try (ThreadPool pool = ThreadPool.builder().sleepStrategy(SleepStrategy.SLEEPY_WORKER).build()) {
 *     pool.install(() -> work());
 * }
 * }</pre>
 */
public enum SleepStrategy {
    /**
     * rayon-core's current protocol (the default): a jobs event counter packed with sleeping/inactive thread counts,
     * progressive sleep, and wake-ups aimed at as few workers as the work needs; setting a latch wakes only its owner.
     */
    JOBS_EVENT_COUNTER,
    /**
     * rayon-core's legacy protocol: at most one "sleepy" worker at a time, and any new work or latch set wakes every
     * sleeping worker.
     */
    SLEEPY_WORKER,
    /**
     * EMPER's protocol: the notifier decrements a sleepers count and writes hints, telling each woken worker where the
     * new work is, into an OS pipe that sleeping workers block on.
     */
    HINT_PIPE
}
