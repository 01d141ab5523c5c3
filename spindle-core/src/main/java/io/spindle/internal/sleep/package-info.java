/**
 * Sleep protocols: how idle workers go to sleep without missing work, and how posting work wakes as few of them as
 * needed. This page describes the JOBS_EVENT_COUNTER protocol ({@link io.spindle.internal.sleep.JecSleep}), Spindle's
 * default, taken from rayon-core's sleep module and RFC 5 (seeds {@code rayon-sleep-module.md},
 * {@code rayon-rfc5-sleep.md}, {@code blitz-thread-pool.md}). The code cites the invariants below by name; keep this
 * page true when the code changes.
 *
 * <h2>Thread states</h2>
 * A worker is <em>active</em> (running a job), <em>idle</em> (searching for work) or <em>sleeping</em> (blocked on its
 * {@code WorkerSleepState} condition). Idle and sleeping together are <em>inactive</em>. An idle worker that is about
 * to sleep is <em>sleepy</em>.
 *
 * <h2>The worker loop</h2>
 * See {@link io.spindle.internal.sleep.SleepProtocol}. A worker waits for a latch (its terminate latch at top level,
 * a join's or scope's latch inside a job). It first takes local work without touching shared sleep state; then it
 * calls {@code startLooking} and searches in rounds: own deque, own broadcast queue, the other workers' deques from a
 * random victim, the injector. After a failed search it calls {@code noWorkFound}: rounds 0..31 yield; at round
 * {@code ROUNDS_UNTIL_SLEEPY} (32) it announces itself sleepy; one more round later it tries to sleep. Finding work
 * calls {@code workFound}.
 *
 * <h2>The counters</h2>
 * {@link io.spindle.internal.sleep.JecCounters}: one 64-bit word holding sleeping threads (bits 0-15), inactive
 * threads (16-31) and the jobs event counter, JEC (32-63). Even JEC = "sleepy": no work was posted since a worker last
 * got sleepy; odd = "active". Starting to look increments inactive; finding work decrements it; registering to sleep
 * increments sleeping; waking a sleeper decrements it.
 *
 * <h2>Invariants</h2>
 * <dl>
 *   <dt>J1 - the JEC detects posts made while a worker is sleepy.</dt>
 *   <dd>Getting sleepy turns the JEC even and remembers it. Posting work turns an even JEC odd. A worker registers as
 *       sleeping only by one CAS from a word whose JEC equals the remembered value ({@code tryAddSleepingThread}); if
 *       it differs, the worker searches once more ({@code IdleState.wakePartly}) instead of sleeping. So a post after
 *       the announcement and before the registration is never slept through (modulo J4).</dd>
 *   <dt>J2 - the waker, not the sleeper, decrements {@code sleeping}.</dt>
 *   <dd>It does so at once, under the sleeper's lock, so other posters do not wake a thread that is already waking.
 *       The one exception: a worker whose final check (J5) finds work undoes its own registration.</dd>
 *   <dt>J3 - every counter access is sequentially consistent.</dt>
 *   <dd>Loads are volatile, updates are CAS or getAndAdd; together with the two fences of J5 they form one total
 *       order, which the proof of J5 needs.</dd>
 *   <dt>J4 - JEC roll-over is tolerated.</dt>
 *   <dd>The JEC has 32 bits and wraps; after exactly 2^31 posts a sleepy worker may see "unchanged" and sleep through a
 *       post. For internal posts that costs only parallelism (the poster is awake and runs its own job); for injected
 *       posts J5 prevents the hang.</dd>
 *   <dt>J5 - the two fences: an injected job is never slept through.</dt>
 *   <dd>The injector: push the job; full fence; read the counters (to wake). The sleeper: register as sleeping; full
 *       fence; read the injector (and its own broadcast queue). Whichever fence comes first in the total order, either
 *       the poster sees the registration (and wakes a sleeper) or the sleeper sees the job (and does not block).
 *       Internal pushes need no fence: their poster is an awake worker.</dd>
 *   <dt>J6 - no wake-up between registration and blocking.</dt>
 *   <dd>The sleeper takes its own lock before it registers and holds it until the condition wait releases it; a
 *       waker takes the same lock to read {@code isBlocked}. So a waker that saw the registration either finds the
 *       sleeper blocked or waits until it is.</dd>
 * </dl>
 *
 * <h2>Posting work and whom to wake</h2>
 * {@code newJobs}: turn the JEC odd (J1) and read the word. No sleepers: done. If the queue the job went into was
 * not empty before, the awake workers are not keeping up: wake {@code min(jobs, sleepers)}. Otherwise count on the
 * awake-but-idle workers ({@code inactive - sleeping}) to find the jobs and wake sleepers only for the rest. A worker
 * leaving the idle state wakes up to two sleepers ({@code CASCADE_WAKE_LIMIT}), so that a burst spreads. Injections
 * add J5's fence first. Broadcasts put one job in every worker's private queue and wake every sleeper.
 *
 * <h2>Latches</h2>
 * <dl>
 *   <dt>L1 - setting a latch wakes its owner exactly when the owner sleeps on it.</dt>
 *   <dd>{@link io.spindle.internal.latch.CoreLatch} has four states. Before sleeping, the owner CASes UNSET to SLEEPY;
 *       holding its lock, SLEEPY to SLEEPING; after waking (or giving up), SLEEPING back to UNSET. A setter swaps in
 *       SET and wakes the owner only if the old state was SLEEPING. If the setter swapped over UNSET or SLEEPY, the
 *       owner's next CAS fails and it does not block; if over SLEEPING, the owner holds or held its lock with the
 *       state SLEEPING, so the setter's lock-and-wake finds it blocked or waits until it is (J6). Owners of other
 *       latches are never disturbed: a worker blocked on a different latch would only wake to sleep again.</dd>
 * </dl>
 */
package io.spindle.internal.sleep;
