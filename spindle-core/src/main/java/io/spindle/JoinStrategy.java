package io.spindle;

/**
 * When the second half of a {@code join} becomes stealable (docs/DESIGN.md §7). The semantics of a join are the same
 * under both (docs/DESIGN.md §1.2: both closures always run, {@code a}'s failure wins); what differs is the cost of a
 * join that nobody steals.
 *
 * <pre>{@code
 * try (ThreadPool pool = ThreadPool.builder().joinStrategy(JoinStrategy.EAGER).build()) {
 *     pool.install(() -> fib(30));
 * }
 * }</pre>
 *
 * <p>The default of a builder is {@link #LAZY}, or the value of the system property {@code spindle.joinStrategy}
 * ({@code lazy} or {@code eager}, any case).
 */
public enum JoinStrategy {
    /**
     * The default: {@code b} waits in a frame local to the worker, and {@code a} runs; a join nobody needed to share
     * then runs {@code b} inline at about the cost of a function call. At most about once per
     * {@link ThreadPool.Builder#heartbeatInterval heartbeat interval}, and only while another worker is idle, the worker
     * promotes its oldest waiting {@code b} (the outermost, so the largest piece of work) and makes it stealable.
     */
    LAZY,
    /**
     * rayon's and ForkJoinPool's join: every {@code b} is pushed onto the worker's deque as a job, where any idle
     * worker can steal it at once. Costs an allocation and a deque push per join; kept for comparison and for code
     * whose joins are few and coarse.
     */
    EAGER
}
