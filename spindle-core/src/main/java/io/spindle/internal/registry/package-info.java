/**
 * The engine of one pool: its {@link io.spindle.internal.registry.Registry} (workers, injector, termination) and the
 * worker loop ({@link io.spindle.internal.registry.WorkerThread}). {@code Registry}'s class comment gives the overview.
 *
 * <h2>When the runtime itself fails: E1..E5</h2>
 * A user's closure may throw anything, and Spindle reports it by SPEC §1's rules. This section is about the runtime's
 * own steps (a push, a queue node, a lock, a wake-up), which throw only Errors: {@code OutOfMemoryError} when the heap
 * is exhausted (an allocation, a lock's wait node), {@code StackOverflowError} when a deep recursion left too little
 * stack for the next call. Java cannot rule either out, so every sequence that reserves, publishes or completes keeps
 * these rules, and the code cites them where it keeps them. (rayon aborts the process in the corresponding cases; a
 * JVM library cannot.)
 * <ol>
 *   <li><b>E1, all or nothing.</b> A push ({@code WorkerThread.push}) or an injection ({@code Registry.inject}) either
 *       makes the job visible for good and returns, or throws with the job out of the pool: a protocol step that
 *       throws after the job became visible makes it take the job back (pop, or remove from the injector) and rethrow;
 *       if a worker already took it, the job runs and the call returns, since the failed step only concerned waking
 *       sleepers. Callers rely on this: a count reserved for the job (the pool's termination count, a scope's count) is
 *       returned exactly when the call throws, and a join waits for its half only after a normal return.</li>
 *   <li><b>E2, completion is unconditional.</b> Whatever a job's closure does, the latch or count its waiter depends
 *       on is set: spawned, scope and broadcast jobs release in {@code finally}; an install sets its latch and releases
 *       the pool's count in {@code finally}; a stolen join half stores its outcome with a plain store (a failure is
 *       stored as it is, never wrapped, so storing it cannot run out of memory) and then sets its latch. Recording a
 *       failure never throws ({@code Failures.add}).</li>
 *   <li><b>E3, waits end only at their latch.</b> {@code WorkerThread.waitUntil} returns, or throws, only once its
 *       latch is set: a step that throws meanwhile has rolled itself back (the sleep protocols' rule for their own
 *       steps), the wait backs off for a millisecond (a failure that repeats must not spin a core) and goes on, and the
 *       first failure is thrown after the latch is set. A join likewise never ends before its b ran: taking b back or
 *       waiting for it is retried from the join's own, shallower frame.</li>
 *   <li><b>E4, a wake-up owed for visible work is retried.</b> When the work is already visible and only a wake-up
 *       delivers it (a set latch whose owner may sleep on it; broadcast copies in private queues; the hand-on a worker
 *       leaving the idle state owes, A4 and H8 in the sleep package), the wake-up is retried until it succeeds rather
 *       than thrown to a caller who could do nothing about it. Each protocol's wake step rolls itself back when it
 *       throws, so that a retry redoes it whole: JEC signals, decrements {@code sleeping}, then clears
 *       {@code isBlocked}, a plain store that cannot fail; HINT_PIPE gives the sleepers whose hints it could not write
 *       back to the count; SLEEPY_WORKER puts back the sleeping bit it cleared. Posters of new work (E1) rely on the
 *       same rollback when they withdraw their job.</li>
 *   <li><b>E5, workers never die.</b> A worker's top-level loop reports a failure of the runtime to the default
 *       uncaught-exception handler (as an {@code IllegalStateException} naming the worker) and carries on: a worker
 *       that died silently would strand every later broadcast and its share of the rest.</li>
 * </ol>
 * Code that runs only on a failure path must not allocate on its first execution either, since that execution may
 * come when memory is exhausted: a VarHandle call site and a lambda allocate when they are linked, lazily. Such steps
 * use a monitor and plain fields ({@code Failures}), or are run once at construction to link them
 * ({@code SleepyWorkerSleep.restoreSleepingBit}, {@code HintPipeSleep.giveBackSleepers}). The first OutOfMemoryError
 * test run found the first case: a scope's first failure, recorded through a never-executed CAS, escaped the scope's
 * bookkeeping and let it return before its tasks had run.
 *
 * What these rules do not cover: a stack overflow inside the few steps that must happen together (the deque's own
 * index updates, a lock's internals) can still leave them half done; such steps make no calls of their own once
 * compiled, and the JDK's own locks have the same exposure.
 */
package io.spindle.internal.registry;
