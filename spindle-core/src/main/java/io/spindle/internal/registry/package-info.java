/**
 * The engine of one pool: its {@link io.spindle.internal.registry.Registry} (workers, injector, termination) and the
 * worker loop ({@link io.spindle.internal.registry.WorkerThread}). {@code Registry}'s class comment gives the overview.
 *
 * <h2>When the runtime itself fails: E1..E6</h2>
 * A user's closure may throw anything, and Spindle reports it by the rules of docs/DESIGN.md §1. This section is about
 * the runtime's own steps (a push, a queue node, a lock, a wake-up), which throw only Errors: {@code OutOfMemoryError}
 * when the heap is exhausted (an allocation, a lock's wait node), {@code StackOverflowError} when a deep recursion left
 * too little stack for the next call. Java cannot rule either out, so every sequence that reserves, publishes or
 * completes keeps these rules, and the code cites them where it keeps them. (rayon aborts the process in the
 * corresponding cases; a JVM library cannot.)
 * <ol>
 *   <li><b>E1, all or nothing.</b> A push ({@code WorkerThread.push}) or an injection ({@code Registry.inject}) either
 *       makes the job visible for good and returns, or throws with the job out of the pool. A push throws only before
 *       the job is visible (the deque grows first); if the protocol's notification throws after that, the push stands
 *       (an internal push is promised no wake-up: its pusher runs it, or a join takes it back). An injection whose
 *       notification throws takes its job back by claiming it ({@code InjectedJob}: a monitor, which the poster takes
 *       without a call, so the take-back works at the very depth where the notification overflowed the stack) and
 *       rethrows; so does one whose {@code add} throws, since a stack overflow inside the queue's {@code offer} may
 *       come after the node was linked (before, such a spawn threw and gave its count back while a worker ran its
 *       task: {@code InjectionTakeBackTest}); if a worker claimed the job first, it runs and the injection stands. The pool's own jobs, which
 *       nobody can be told about (a finished IO operation, a hand-back), are never taken back
 *       ({@code Registry.injectKept}): their notification is owed instead (E4), the job stays queued, and nothing is
 *       thrown (the IO package's IO6). Whoever takes a job from the
 *       injector claims it too (a worker, {@code shutdownNow}) and drops a job its poster took back; so does
 *       {@code stats()}, so that an idle pool's snapshot stays exact and keeps no failed task alive. An earlier design
 *       withdrew the job by {@code injector.remove}, a call, and when that overflowed as well retried the wake-up at
 *       the same depth for ever: an {@code install} near the stack's edge never returned. Callers rely on this: a
 *       count reserved for the job (the pool's termination count, a scope's count) is given back exactly when the
 *       call throws, and a join waits for its half only after a normal return. The pool's count goes back without a
 *       call too: the catch block adds it to {@code Termination.owed} inside that object's monitor and then tries to
 *       settle it into the count; where that call overflows, the next release, shutdown, wait for termination or
 *       {@code isTerminated} settles it (a release called there overflowed in 22 of 178 failed installs of
 *       {@code LazyEdgeWaitScan}, and the pool never terminated). A scope's count goes back the same way
 *       ({@code CountLatch.owed}), settled at once or by the next decrement: whoever spawns into a scope normally
 *       holds a count of its own (the body, or a running task). The residue: a thread holding no count that fails at
 *       a stack edge while the scope's last holder ends leaves the scope waiting; a pool shut down without a wait whose
 *       last owing could not settle does not terminate until someone calls {@code isTerminated} or waits.</li>
 *   <li><b>E2, completion is unconditional.</b> Whatever a job's closure does, the latch or count its waiter depends
 *       on is set: spawned, scope and broadcast jobs release in {@code finally}; an install sets its latch and releases
 *       the pool's count in {@code finally}; a stolen join half stores its outcome with a plain store (a failure is
 *       stored as it is, never wrapped, so storing it cannot run out of memory) and then sets its latch. Recording a
 *       failure never throws ({@code Failures.add}).</li>
 *   <li><b>E3, waits end only at their latch.</b> {@code WorkerThread.waitUntil} returns, or throws, only once its
 *       latch is set: a step that throws meanwhile has rolled itself back (the sleep protocols' rule for their own
 *       steps), the wait backs off for a millisecond (a failure that repeats must not spin a core) and goes on, and the
 *       first failure is thrown after the latch is set. A join likewise never ends while its b runs: taking b back or
 *       waiting for it is retried; only a stack overflow before b was stolen, which a retry at the same depth would
 *       meet again, makes the join give b up unrun (see below).</li>
 *   <li><b>E4, a wake-up owed for visible work is retried.</b> When the work is already visible and only a wake-up
 *       delivers it (a set latch whose owner may sleep on it; broadcast copies in private queues; the hand-on a worker
 *       leaving the idle state owes, A4 and H8 in the sleep package), the wake-up is retried until it succeeds rather
 *       than thrown to a caller who could do nothing about it. Each protocol's wake step rolls itself back when it
 *       throws, so that a retry redoes it whole: JEC's waker claims the sleeper (a CAS from BLOCKED to WAKING),
 *       decrements {@code sleeping} and, if that throws, undoes the claim with a plain store in the same frame; once
 *       the count is taken it makes no call before letting the sleeper go, and retries the unpark itself until done
 *       ({@code WorkerSleepState.wake}); HINT_PIPE gives the sleepers whose hints it could not write
 *       back to the count; SLEEPY_WORKER puts back the sleeping bit it cleared. Posters of new work (E1) rely on the
 *       same rollback when they withdraw their job. Only exhaustion ({@code VirtualMachineError}) is retried: any
 *       other exception is a bug (an assertion about the counters, say), and retrying it would hide it or repeat a
 *       step that was half done. Out of stack, a retry in the same frame overflows again for ever: a cross-pool
 *       install's wait at the stack's edge ran a stolen join half there and retried its owner's wake-up for ever
 *       (LazyEdgeWaitScan, two CI runs of eight). So a latch's wake-up that overflows is owed instead
 *       ({@code OwedLatchWakes}: two volatile field stores, no call and no monitor), and the pool's workers deliver it:
 *       every round of a wait loop tries first, and so does a wait loop whose latch the job just set, as it ends (the
 *       waker's own loop is three frames above the job whose wake-up overflowed), and an idle search tries instead of
 *       sleeping. A delivery tries every owe even if one throws (each failure is owed again, and the first throwable
 *       goes to the caller at the end): one owe that keeps failing does not starve the others. Limits, from two
 *       outside reviews: a delivery that still overflows (the waker's wait is that deep) is
 *       retried once a round, a millisecond apart, until that wait ends, and then only by the pool's next wait round or
 *       idle search, on any worker; an idle worker that found nothing owed just before such a delivery set its owe back
 *       may sleep meanwhile. So if the waker's wait, or what it does next, waits on the sleeping owner while every
 *       other worker sleeps (two workers each running the other's stolen half), the pool hangs as before. A waker that
 *       is not a worker of the owner's pool (a cross-pool install's job, a thread completing a pool's future) owes into
 *       the owner's pool, which delivers once one of its workers runs a wait round or an idle search. And a JEC or
 *       HINT_PIPE wake-up that overflows after it took the sleeper's count retries the unblock in its own frame
 *       ({@code WorkerSleepState.wake}). The same owes carry two IO wake-ups (the IO package's IO6 and IO10): the
 *       notification of a finished operation's injected job that threw, and an IO poller's wake-up of its owner whose
 *       delivery threw (owed in a flag of its own per worker, and made again by that poller's unblock: the protocol
 *       may already count that owner as woken).
 *       The IO watchdog delivers too, at the top of each of its steps, since those owes can come from threads that
 *       are not workers while every worker sleeps.</li>
 *   <li><b>E5, workers never die.</b> A worker's top-level loop reports a failure of the runtime to the default
 *       uncaught-exception handler (as an {@code IllegalStateException} naming the worker) and carries on: a worker
 *       that died silently would strand every later broadcast and its share of the rest.</li>
 *   <li><b>E6, first uses are linked before the pool accepts work.</b> E1..E5 hold once a path has run. Its first
 *       execution links what it calls (a VarHandle call site, a lambda, a native method, a class initializer), and
 *       linking allocates; completion and wake-ups may run for the first time with the heap full. A scope's tasks that
 *       filled the heap each failed their first count decrement, so the scope never ended; a join's owner asleep on its
 *       latch was never woken by the thief whose stolen half filled the heap: the thief retries the wake-up (E4), but
 *       each attempt links again (HINT_PIPE: the selector's wake-up is a native method's first call) and the memory
 *       goes only when the join returns; an install's caller was never woken either. So every pool, as it is built and
 *       before it accepts a job, makes sure that each path completion and wake-ups rely on has run once in this JVM, on
 *       throwaway objects ({@code FirstUse}): a count latch's decrements and the settling of owed counts (E1), every
 *       latch's set and its owner's wake-up, the pool's count and termination, the recording of failures (E2), each
 *       protocol's sleep and each of its wake-ups (a latch set, a broadcast, an injection, an internal push,
 *       termination), both deliveries of a worker's blocker (an unpark, a selector's wake-up), and every step of the
 *       owner's deque ({@code ChaseLevDeque.linkFirstUse}: push, growth, pop, the last element's pop and its CAS,
 *       the empty pop, steal) and of the promotion slots ({@code PromotionSlots.linkFirstUse}: publish, reclaim,
 *       steal): a scope's or an eager join's take-back of its last queued task was the first execution of the
 *       last-element CAS on a one-worker pool, and when that link failed after the pop had moved {@code bottom} the
 *       task was lost for good (outside review; the deque's I6 now also rolls such a pop back). The first build in a
 *       JVM does it; a later build pays two volatile reads, and a job nothing. A step that fails fails that build, and
 *       the next build runs the steps again. The residue: the steps that open a pipe or a selector are skipped while
 *       the OS refuses descriptors (a later build retries them), and until then a selector's wake-up is not covered;
 *       paths other than completion and wake-ups (a JFR recording's events, the IO operations) are not covered; nor are
 *       the worker loop's own steps, so a step that first runs only after many jobs must not link
 *       ({@code WorkerThread.pollIoIfDue} reads a plain field). Found by the outside review and still open: (a) the
 *       JDK's own completions: {@code submit(...).get()} completes through {@code FutureTask}, whose waiter-queue CAS
 *       first links when the task completes with a waiter queued; with the heap full that link throws and the waiter
 *       stays parked for ever (reproduced); linking it needs a second thread queued as a waiter on a throwaway task,
 *       which a pool build should not start and time, so it is left open ({@code CompletableFuture},
 *       {@code invokeAll} and {@code invokeAny} likely share it); (b) the worker loop's steps for its first job,
 *       which run before that job's {@code execute} and its try ({@code JOBS_EXECUTED.setOpaque},
 *       {@code lazy.jobStarting}, {@code poller.topLevelJobStarting}): if the very first job of the JVM is taken
 *       with the heap full, a link there may throw after the job was taken, and the job is dropped (E5 keeps the
 *       worker); (c) the injector's queue ({@code ConcurrentLinkedQueue}) and the JDK's counters first link on the
 *       first install (a poster's link fails before its job is visible, E1; a taker's before it claims one).
 *       {@code FirstUseUnderFullHeapTest} runs each of the three cases above, and a take-back of a scope's last
 *       queued task ({@code takeback}), per strategy, in a fresh JVM; the join case also checks that its owner was
 *       woken from a sleep, by its worker's wake-up count.</li>
 * </ol>
 * Code that runs only on a failure path must not allocate on its first execution either, since that execution may
 * come when memory is exhausted (E6 covers the paths every operation's completion takes; a failure path is run or
 * linked where it is written): a VarHandle call site and a lambda allocate when they are linked, lazily. Such steps
 * use a monitor and plain fields ({@code Failures}), or are run once at construction to link them
 * ({@code SleepyWorkerSleep.restoreSleepingBit}, {@code HintPipeSleep.giveBackSleepers}). The first OutOfMemoryError
 * test run found the first case: a scope's first failure, recorded through a never-executed CAS, escaped the scope's
 * bookkeeping and let it return before its tasks had run. The stack has the same trap: with the stack exhausted, even
 * resolving a class or method on its first use throws (CI caught an {@code instanceof VirtualMachineError} in a catch
 * block doing so). So failure paths test an Error's kind with catch clauses, not {@code instanceof}; a catch block
 * only records (the retry loops pause and report at the top of their next attempt, inside the try); and the few plain
 * stores a catch block makes, and the pause, are resolved at class initialization ({@code Join}'s abandon path).
 *
 * <h2>What these rules do not cover</h2>
 * A stack overflow can strike at any call, including the first call of a catch block that was meant to roll
 * something back. The rules above hold wherever the runtime's own steps need less stack than the user's code that
 * overflowed, which is the usual case (the closure recursed; the runtime's frames are few and small). What remains,
 * found by an outside review with injected failures and by a random-depth recursive-join stress on very small stacks:
 * <ul>
 *   <li>A join whose frame is at the very edge of the stack cannot run, take back or wait for b: b is dropped or
 *       abandoned unrun ({@code JoinJob.ABANDONED}) and the join throws the overflow (ThreadPool.join says so). A thief
 *       that stole b just before it was abandoned runs it after the join ended.</li>
 *   <li>A worker whose nested wait sits at the very edge of its stack can take a job and then fail to start it; that
 *       job is lost, and whoever waits for it hangs. Seen with 128 KiB worker stacks and 400-frame random recursion
 *       between joins (JOBS_EVENT_COUNTER, 1 run in 3); not with 256 KiB (the ErrorSafetyTest sizes) or larger.</li>
 *   <li>A stack overflow inside the few steps that must happen together (the deque's own index updates, a lock's
 *       internals, the call right after an atomic step in the sleep protocols) can leave them half done. JEC's state
 *       word (J6 in the sleep package) is built so that each hand-over CAS is followed by a plain store, and its last
 *       call (the waker's unpark) is retried: an unpark that overflows at every retry, at the same depth as a
 *       decrement that just succeeded, would strand its sleeper. SLEEPY_WORKER still waits on a lock and a condition:
 *       JDK 17's {@code Condition.signal} may allocate the lock's queue head on its first contended use, and an
 *       OutOfMemoryError there strands the signalled waiter.</li>
 * </ul>
 * Closing these needs steps that cannot overflow (checking stack headroom before a job starts, or a slot from which
 * another worker can take back a job its taker could not start); it is left for later, and said in the issue's
 * closing note.
 */
package io.spindle.internal.registry;
