/**
 * Managed blocking ({@code Spindle.blocking}, {@code Spindle.managedBlock}; README, "Blocking calls inside tasks"): a
 * worker about to block hands its place in the pool to a stand-in thread, so that the pool keeps {@code threadCount()}
 * workers running while user code waits on a query, a file, a lock or a future outside the pool.
 *
 * <h2>Why a hand-off, and not a compensating worker</h2>
 * The sleep protocols count a fixed set of workers, one per index, each with its own deque, sleep state, broadcast
 * queue and IO selector. ForkJoinPool adds a compensating worker while one blocks; that would grow the set every
 * protocol counts. Cats Effect's {@code blocking} instead hands the blocked worker's identity to another thread; so do
 * we. What moves is the <em>index</em>: the registry's slot, the sleep protocol's per-index state, the broadcast queue
 * and the IO poller. What stays with the blocking thread is its <em>stack</em>: its own deque and its lazy-join frame
 * stack, which the frames below the blocking call still use as their owner when it returns. A simpler hand-off that
 * moved the deque too deadlocks: the returning thread would wait for its deque back from a stand-in whose job may wait
 * for a join half that the returning thread's own frames must finish.
 *
 * <h2>Rules</h2>
 * <dl>
 *   <dt>B1 (detached)</dt>
 *   <dd>A thread that handed its index off is <em>detached</em> until it stands in again (B4): it finishes its stack
 *       without sleeping through the protocol, searching for work or taking broadcast copies. Its frames keep working
 *       as before on its own deque and lazy frames: a join takes its half back or waits for it, a scope waits for its
 *       tasks, and the rest of its task spreads as a worker's does (its pushes and its heartbeat's promotions tell the
 *       protocol, where the index is only a hint's code, and its deque is in every search: B3). Tasks it spawns, and
 *       scope tasks, go through the injector instead: once its stack has unwound (a spare's exit hook) nobody scans its
 *       deque, and a task left there was lost (a second review found it). It uses no poller (its IO goes the way of a
 *       thread outside the pool: {@code WorkerThread.currentOf} answers null), and {@code Spindle.currentThreadIndex()}
 *       answers empty on it: the index is the stand-in's. The flag is the thread's own: only it reads and writes
 *       it.</dd>
 *   <dt>B2 (the hand-off)</dt>
 *   <dd>In this order: the thread makes every latent lazy frame stealable, since the blocked code may wait for one of
 *       those halves and only another thread can run it now (a review found the call hanging when only the four oldest
 *       were): the oldest through the heartbeat's own promotion into the free slots (LZ4 to LZ6), the rest, oldest
 *       first, pushed onto its deque as eager halves, which their joins take back as an eager join does. This comes
 *       first even where no hand-off follows (B5). Then, if the thread may hand off, under {@code StandIns}' monitor,
 *       everything that can fail: the detached table's room, a spare of this index or a new thread started (named after
 *       the index's worker with a {@code -standin-n} suffix, and given the context class loader and priority the
 *       workers inherited at the build, not the blocking task's), the spare's unpark (a permit it acts on only under
 *       the monitor). Then the commit, stores whose call sites were linked at the build (E6): the thread enters the
 *       detached table (B3), the spare is assigned, the registry's slot for the index is replaced (a release store:
 *       thieves and broadcasts that read the old holder reach the detached thread's deque or the shared queue, both
 *       still valid), the index's poller is bound to the spare (volatile: IO wake-ups go to it), and last the thread
 *       marks itself detached. To the sleep protocol nothing happened: the index's holder was running a job, and its
 *       loop now continues on the spare, which starts with an idle search.</dd>
 *   <dt>B3 (what a detached thread leaves visible, and how it is woken)</dt>
 *   <dd>Its deque and promotion slots stay stealable: every victim scan and every final check before sleep ({@code
 *       anyWorkVisible}, LZ6's promoted-frame check) also walks the detached table. Its pushes and promotions tell the
 *       protocol as a worker's do, with the same promise ("Internal pushes" in the sleep package-info: what nobody
 *       takes, it takes back or runs itself, B6). (Without that, a second blocking call in a task, which blocks where
 *       it is, waited for ever for a half nobody was told of, and the rest of the task ran on one thread.) When it
 *       waits for a latch, it runs what its own deque and slots still hold, then moves the latch UNSET to SLEEPY to
 *       SLEEPING (L1) and parks until SET. A setter wakes the latch's index ({@code Registry.wakeLatchOwner}, also on
 *       the E4 owed path), which unparks every detached thread of that index as well as waking the index's holder. The
 *       thread entered the table (release) before its first such CAS, so a setter whose swap read SLEEPING finds it
 *       ({@code DetachedTable}; jcstress {@code DetachedWaiterVsLatchSetTest} and its weakened variant). Wake-ups that
 *       find a thread not waiting on the set latch are spurious and harmless: it parks again.</dd>
 *   <dt>B4 (spares)</dt>
 *   <dd>A stand-in starts as a spare and takes its index only once assigned, under the monitor; it clears its own
 *       detached flag there. A thread stays bound to the index it was made for (its deque, sleep state and terminate
 *       latch are that index's), so spares are kept per index. A detached thread whose stack unwound becomes a spare of
 *       its index; a spare ends after the keep-alive idle ({@code Builder.blockingKeepAlive}). The threads beyond the
 *       workers (detached and spares) never exceed {@code maxBlockingThreads}; at the cap, an idle spare of another
 *       index is retired to make room (it no longer counts, and ends at once). Start and exit hooks run once per
 *       thread, with the index it serves: a stand-in's start hook may run while the index's previous thread still
 *       finishes its task, and a spare that ends runs its exit hook while the index lives on. A spare's figures (jobs,
 *       steals, promotions) stay in its index's {@code WorkerStats}; the statistics read each index's holder under the
 *       monitor a hand-off commits under, so no total ever goes down.</dd>
 *   <dt>B5 (when a blocking call blocks where it is)</dt>
 *   <dd>On a thread that is no Spindle worker ({@code managedBlock} then is ForkJoinPool's own), on a detached thread
 *       (a nested call, or a call after the first returned), inside a start or exit hook (the thread is not in its loop
 *       yet, or any more), at the cap, once termination began, or when no thread can be started. Also when {@code
 *       managedBlock}'s blocker is releasable at once, as in ForkJoinPool. A pool thread that blocks where it is first
 *       makes its latent frames stealable (B2) and then, if it left anything stealable, tells the protocol again after
 *       a full fence, as LZ6 announces a promotion: its unfenced pushes may have crossed a worker registering to sleep,
 *       and no stand-in will scan its deque.</dd>
 *   <dt>B6 (unwinding)</dt>
 *   <dd>A detached thread whose stack is back at its loop runs what its own deque still holds (jobs its frames left and
 *       nobody took), and only then leaves the detached table: nothing it pushed is left behind.</dd>
 *   <dt>B7 (termination)</dt>
 *   <dd>Termination takes the monitor, marks the pool terminated, and sets the terminate latch of each index's holder
 *       at that moment: no hand-off can replace a holder after that, so none misses its latch. Spares end at once;
 *       detached threads end when their tasks do. {@code awaitTermination} and {@code isTerminated} wait for them too,
 *       and {@code shutdownNow} interrupts them as it interrupts workers running tasks.</dd>
 *   <dt>B8 (failures)</dt>
 *   <dd>The body's failure is thrown as it is; an Error in {@code block()}, or an {@code InterruptedException}, leaves
 *       the hand-off standing: the thread stays detached and finishes its stack. A hand-off that cannot be made changes
 *       nothing (B2's order) and the call blocks where it is. One hole is left: a stack overflow at a call inside the
 *       commit (it makes four, each a store, at the depth of the blocking call) would leave it half made; nothing there
 *       allocates, and every call site is linked at the build.</dd>
 * </dl>
 */
package io.spindle.internal.blocking;
