/**
 * Lazy joins (docs/DESIGN.md §7, {@link io.spindle.JoinStrategy#LAZY}): a join's second half waits in a frame local to
 * the worker and becomes stealable only when the worker promotes it at a heartbeat, so that a join nobody needs to
 * share costs about a function call. The design follows Spice and Chili (per-worker latent jobs, oldest promoted first)
 * and Forte (no heartbeat thread: the owner times itself).
 *
 * <h2>The pieces</h2>
 * <ul>
 *   <li>{@link io.spindle.internal.lazy.LazyJoin}: the join itself.</li>
 *   <li>{@link io.spindle.internal.lazy.LazyWorker}: one per worker; the frame stack, the heartbeat, the promotion.</li>
 *   <li>{@link io.spindle.internal.lazy.PromotionSlots}: the only state other threads touch: a few steal-only slots.</li>
 *   <li>{@link io.spindle.internal.lazy.Heartbeat}: how often the owner reads the clock.</li>
 * </ul>
 * A promoted half is an ordinary {@link io.spindle.internal.join.JoinJob}, the eager join's job: a thief runs it and
 * sets its latch, which wakes the owner through the sleep protocol (L1) as for an eager join.
 *
 * <h2>Invariants</h2>
 * <dl>
 *   <dt>LZ1 - the promoted frames are a prefix.</dt>
 *   <dd>Frames {@code [0, depth)} are in use, one per join whose {@code a} (or whose wait for a stolen {@code b}) is on
 *       the Java stack, innermost last. Frames {@code [0, lo)} are promoted, {@code [lo, depth)} latent, and
 *       {@code lo <= depth} always: a promotion takes frame {@code lo} (the oldest latent one) and moves {@code lo} up
 *       by one; a join leaving a promoted frame {@code d} sets {@code depth = lo = d}; a join leaving a latent frame
 *       sets {@code depth = d} (and {@code lo <= d} held, or the frame would be promoted). So "was my frame promoted?"
 *       is {@code d < lo}, and a promoted frame's job sits in {@code promoted[d]}.</dd>
 *   <dt>LZ2 - who writes what.</dt>
 *   <dd>The frames ({@code closures}, {@code arguments}, {@code kinds}, {@code promoted}, {@code slotOf}),
 *       {@code depth}, {@code lo} and the heartbeat fields belong to the worker's thread: plain reads and writes, no
 *       fence, no atomic. Only the owner promotes, so the owner's check needs no synchronization; only a thief needs
 *       a CAS (LZ7). Thieves never read a frame: they see only the job a promotion made, which is never reused, so a
 *       frame can be reused the moment its join leaves it, and no failure can leave a thief reading a dead
 *       frame.</dd>
 *   <dt>LZ3 - the heartbeat costs nothing when idle.</dt>
 *   <dd>No thread ticks. A join decrements a countdown; when it runs out the owner reads {@code System.nanoTime()}
 *       and adapts the countdown's period so that it reads the clock about four times per interval (a few ns per join
 *       gives a long period, coarse joins give period 1). The time a promotion itself takes is left out of that
 *       measure (the clock is read again after it): a wake-up's system call is not join work. A beat is a check at
 *       least one interval after the last beat. An idle pool runs no join, so it reads no clock and burns no
 *       CPU. The check's work (clock, period, promotion, making the jobs) is one method, out of line by its shape:
 *       it has more bytecodes than C2 inlines at a call site it counts as hot ({@code FreqInlineSize}, 325), which a
 *       join's call is while code warms (LZ8). Split into smaller methods it was inlined into every join, and the
 *       join's compiled code (6 KB instead of 2.3 KB, JDK 17) was then too big to be inlined into the user's
 *       recursion. {@code HeartbeatShapeTest} keeps the size.</dd>
 *   <dt>LZ4 - promoted halves go beside the deque, not into it.</dt>
 *   <dd>Each worker has {@link io.spindle.internal.lazy.PromotionSlots#SLOTS} steal-only slots. The owner's
 *       Chase-Lev deque stays LIFO for its own spawns; a promoted half is the worker's oldest waiting work, which is
 *       what a thief should get. Every search that steals (the idle loop's, a waiting join's, a scope's) looks at the
 *       slots of each victim after its deque, and at its own slots after its own deque.</dd>
 *   <dt>LZ5 - promote only when it can help, at most once per beat.</dt>
 *   <dd>At a beat the owner asks the sleep protocol how many workers are idle
 *       ({@link io.spindle.internal.sleep.SleepProtocol#idleWorkersEstimate()}: one load of its counters) and
 *       promotes that many of its oldest latent frames at most (and no more than there are free slots), so a busy pool
 *       pays one clock read per period and nothing else, and a pool of many sleepers ramps up in fewer beats. The
 *       exception is coarse joins (the period is 1: each join covers a quarter interval of work or more): then every
 *       check promotes, into every free slot, whoever is idle. A promotion costs well under a microsecond against the
 *       25 µs or more of work it shares, and a worker inside a long leaf cannot share until its next join, so its
 *       halves must be out before another worker runs dry (eager joins get this for free; without it matmul ran 1.4
 *       times slower lazy than eager). A pool of one worker never promotes. Each step
 *       of a promotion either completes or leaves the frame latent: the job is allocated before any field changes, and
 *       a failure (out of memory, a stack overflow in the protocol's call) is swallowed, costing only
 *       parallelism. Order matters for that: the job is published before {@code lo} moves (a plain store after the
 *       call), so a publication that overflowed leaves the frame latent and its join runs {@code b} inline; and the
 *       frame stack grows by making all five new arrays before replacing any.</dd>
 *   <dt>LZ6 - a promotion is a new internal job, and is not slept through.</dt>
 *   <dd>The owner publishes the job with a volatile store into a free slot, issues a full fence, and tells the
 *       protocol ({@code newInternalJobs}: JEC's J1 counter bump and wake, the legacy tickle, HINT_PIPE's hint naming
 *       the owner), which then reads its sleep counters. A sleeper registers, fences (J5), and its final check reads
 *       every worker's slots ({@code WorkerThread.hasInjectedOrPrivateWork}). As for an injection, one of the two sees
 *       the other. Beyond that a promoted half is never stranded anyway: its owner reclaims it (LZ7).</dd>
 *   <dt>LZ7 - exactly one runs a promoted half.</dt>
 *   <dd>The slot is emptied by CAS, by the owner reclaiming the job at the end of its {@code a} or by a thief (the
 *       owner's own idle search included). The owner that wins runs {@code b} inline; the owner that loses waits for
 *       the job's latch running other work (the thief sets it, waking the owner only if it sleeps on it: L1). While it
 *       waits, frame {@code d} stays pushed and {@code lo == depth == d + 1}, so work it runs meanwhile starts a fresh
 *       lazy region above it.</dd>
 *   <dt>LZ8 - a job's first join checks for a beat at once.</dt>
 *   <dd>A job started from the work loop (injected, stolen, spawned, a promoted half) has its next join check and
 *       promote without waiting for the interval: a root join of two long halves on an idle pool runs them in
 *       parallel, and work that was stolen proved big enough to share again (commonware's eager expansion). This check
 *       promotes one frame even if the protocol counts no idle worker (on a pool of two or more): SLEEPY_WORKER and
 *       HINT_PIPE count only sleepy or registered sleepers, not workers still searching, and a root join's first half
 *       may run long without another join.</dd>
 *   <dt>LZ9 - a job ends with the stack as it found it.</dt>
 *   <dd>Once a join's frame is pushed, the join reaches its end: {@code push} (its {@code pushed} step) swallows a
 *       stack overflow of its heartbeat call (no beat this time), because a join that threw there would leave a latent
 *       frame that a later promotion could share after the join ended. Every join restores {@code depth} (and {@code lo}) to absolute
 *       values, a join waiting for a promoted half first re-sets them for its wait, and {@code WorkerThread.execute}
 *       restores the depth it saw when the job started. There the closures (and the function form's arguments) the
 *       job's joins left above are dropped, so an idle worker keeps no finished computation's data alive.</dd>
 *   <dt>LZ10 - a long loop can beat without joining.</dt>
 *   <dd>{@code Spindle.heartbeat()} runs the join's countdown (LZ3) and, when it runs out, the same out-of-line check,
 *       so a leaf loop that calls it shares the latent frames below it within about an interval, under LZ5's rules.
 *       It pushes no frame and touches nothing while no frame is latent ({@code lo == depth}): then there is nothing
 *       to promote, and a job's pending first check (LZ8) stays pending for its first join. (A job started while
 *       an outer join below it still has latent frames, in a scope's or a future's wait that runs other work, may
 *       have its first check taken by such a call: it promotes the same oldest frames the job's first join would.)
 *       Like a join's push it swallows a stack overflow of its call into the check, so once the check starts it
 *       throws nothing (nothing has changed at that point either, so a throw there would be harmless, unlike in a
 *       push: LZ9).</dd>
 *   <dt>LZ11 - the arrays a join stores references into stay young.</dt>
 *   <dd>A join stores its {@code b} (and the function form its argument) into the frame stack's {@code closures}
 *       and {@code arguments}. In the old generation, such a store runs G1's post-write barrier to its end, a
 *       StoreLoad fence included (JDK 17 to 25), because the stored object is in another region and the array's card
 *       is not a young one; in a young array the barrier stops at that card check. A worker's arrays live as long as
 *       its pool, so any application that runs long enough, or calls {@code System.gc()}, ends up with old ones:
 *       fib(30) on one worker then ran 9-17 times slower than sequential code instead of 4 (BENCHMARKS.md). So the
 *       heartbeat (LZ3) replaces the two arrays with fresh copies, young by construction, at its first clock read at
 *       least {@code LazyWorker.FRAME_RENEWAL_NANOS} (1 ms) after the last renewal: a young object is tenured only after
 *       surviving several collections (or one that overflows the survivor space), so an array is old for at most
 *       about that long while joins run, at a cost of two small arrays per millisecond of joining and nothing for an
 *       idle worker. A stack of 128 frames or more (its capacity: a power of two) is renewed every 8 µs per frame
 *       instead, so that renewals allocate at most about 1-2 MB/s; one that a deep recursion grew and that is
 *       shallow again is shrunk at its next renewal to its fitting size (all five arrays, to twice its depth rounded
 *       up to a power of two, at least 64) when it is four times that or more, or when it is above 32,768 frames and
 *       the fitting size is not, so that one deep recursion does not leave big, rarely renewed arrays for the rest of
 *       the pool's life; and one deeper than 16,384 frames is not renewed (G1 would allocate copies of more than
 *       32,768 frames as humongous objects, old from birth). The renewal's time is recorded before it allocates, so
 *       a renewal that fails is retried an interval later, not at every join.
 *       Every new array is made before any replaces its old one, so a failure to allocate changes
 *       nothing (LZ5); the new arrays hold the same frames, and only the owner reads or writes them (LZ2: thieves
 *       see only promoted jobs, and no join holds an array across a call that may beat), so a renewal needs no
 *       synchronization and may come at any depth of the stack. Otherwise {@code promoted} is written only at
 *       promotions, and {@code kinds} and {@code slotOf} hold no references, so they are renewed only when the stack
 *       shrinks.</dd>
 * </dl>
 *
 * <h2>Failures</h2>
 * The rules of docs/DESIGN.md §1.2, as in the eager join: both closures always run; {@code a}'s failure wins,
 * {@code b}'s is added as suppressed; a failure of a runtime step comes last. A latent {@code b} runs in the join's own
 * frame, so nothing of the runtime stands between {@code a} and {@code b}. A promoted one follows the eager join's E3:
 * the owner retries a failed step of its wait and throws the first failure after {@code b} ran; a stack overflow before
 * a thief took the job (the call into the wait included) cannot be retried at that depth, so the job is abandoned
 * ({@link io.spindle.internal.join.JoinJob#ABANDONED}, skipped by whoever takes it) and the join throws the overflow.
 * The stack-overflow scans of {@code LazyJoinReviewScanTest} drive an overflow at every depth of these paths for the
 * {@code Runnable} form; the other forms share its steps (push, heartbeat, {@code finishPromoted}) and repeat its
 * catch blocks. The eager
 * join's one residual race stays: a thief that took the job just before it was abandoned runs it after the join ended.
 *
 * <h2>What lazy joins do not do</h2>
 * A worker promotes only at its joins and at {@code Spindle.heartbeat()} (LZ10): code that runs for a long time
 * without either (a long sequential leaf that does not call it, a library call such as {@code Arrays.sort}) shares
 * nothing meanwhile. The parallel operations ({@code internal/par}) split adaptively with few, coarse joins and long
 * leaves (user functions, or {@code Arrays.sort} in the sorts), so they keep eager joins, stealable at once (see
 * {@code internal/par/package-info}); at a few dozen joins per operation the eager join's cost does not show.
 */
package io.spindle.internal.lazy;
