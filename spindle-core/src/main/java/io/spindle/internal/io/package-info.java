/**
 * IO on the pool (docs/DESIGN.md §6): EMPER's IO subsystem on the JVM. Each worker owns a poller ({@code IoPoller}, a
 * {@code java.nio.channels.Selector} opened on first use) that is also the {@code Blocker} its sleep protocol blocks
 * with, so that an idle worker that holds IO waits for its IO and for new work in one wait, and an IO completion costs
 * one kernel wake-up, on the worker that then runs what follows.
 *
 * <h2>Where things are</h2>
 * {@code PoolIoImpl} is the public {@code PoolIO}: argument checks, the table of channels the pool knows
 * ({@code ChannelState}: the channel's home poller, its key, one slot per pending operation), and what becomes of
 * finished, cancelled, closed and shut-down operations. {@code IoOp} and its five kinds in {@code IoOps} are the
 * operations: a non-blocking step each, and, once finished, a job that completes the caller's future.
 * {@code Deregistration} is a hand-back ({@code PoolIO.deregister}) waiting for its channel's keys to go.
 * {@code IoWatchdog} polls for busy owners.
 *
 * <h2>Invariants (cited in the code as IO1..IO13)</h2>
 * <dl>
 *   <dt>IO1 Futures complete on a worker.</dt>
 *   <dd>A finished operation is a job: the worker that finished it pushes it onto its own deque (where others can steal
 *       it); a thread that cannot push (the watchdog, shutdown, an off-pool caller, a worker inside a sleep step)
 *       injects it. Running it completes the future, so dependent stages without an executor run on the pool and free
 *       functions inside them mean this pool. Nothing completes a future while holding a channel's monitor or a
 *       poll lock.</dd>
 *   <dt>IO2 One home per channel; registration by the home's owner.</dt>
 *   <dd>A channel's first operation homes it at the calling worker's poller (locality, EMPER's per-worker IoContext),
 *       or round robin when called off the pool; it stays there while the pool knows it. The home's owner registers it
 *       and adds interest; another thread queues an interest request and wakes the owner (IO10), which applies it in
 *       its idle search or at its next busy poll; the watchdog applies it for an owner that stays busy (IO7).</dd>
 *   <dt>IO3 An operation leaves PENDING exactly once.</dt>
 *   <dd>Every change of an operation's phase, and of its channel's slots, happens under the channel's
 *       {@code ChannelState} monitor: finishing (a step succeeded or threw), withdrawing (an outside completion, in two
 *       steps: IO11), failing (close, direct close found by the sweep, shutdown; a WITHDRAWING operation too). So an
 *       operation ends FINISHED, with exactly one job that completes its future if nobody did, or WITHDRAWN, with no
 *       job, and a slot frees exactly once.</dd>
 *   <dt>IO4 Registrations persist while operations are pending.</dt>
 *   <dd>Interest is added when an operation needs it and removed only when readiness comes that no pending operation
 *       waited for (write and connect interest as soon as nobody wants it, since a writable socket stays writable). A
 *       ping-pong read finds OP_READ still registered and costs no {@code epoll_ctl}; a read whose key already waits
 *       for OP_READ makes no first attempt (readiness drives it). A poller about to block holding no pending
 *       operation (it parks, or, as HINT_PIPE's watcher, selects only for the hint pipe) cancels its channels' keys
 *       and deregisters them with one {@code selectNow} first, and the next operation registers its channel again
 *       (see IO8 for why such a poller must not keep keys). So a home that holds other IO (a server's accept) keeps
 *       the key of a channel whose operations all ended, and the channel cannot go back to blocking mode until it is
 *       handed back (IO13). A thread other than the owner that takes the home's last pending operation away (a
 *       cancel, the watchdog's or a closer's poll) wakes the owner, so that it blocks again holding nothing and
 *       deregisters its keys; a look for closed channels that detaches one (the table's amortized look) makes its
 *       home deregister the key at once, as close does. A channel's key still in the selector after that selectNow
 *       is one the flush could not deregister: invalid, another thread is cancelling it (a direct close invalidates
 *       its channel's keys, then queues them for their selectors, outside our monitors; a CI run once parked its owner
 *       in between, and the descriptor stayed open), or a cancel threw between its two steps (IO13's lost key); valid
 *       with nothing pending, the flush kept it for an operation another thread placed and then finished at its call.
 *       The owner's wait is then bounded (1 ms, doubling up to the sweep interval) and it flushes again until the key
 *       is gone. Open: an operation placed and finished at its call by another thread after that look (or between an
 *       owner's holdsIo and its select without a timeout) wakes nobody, and its key stays until the owner's next
 *       wake-up: waking the owner after every such operation would put a lock on every write's path.</dd>
 *   <dt>IO5 A worker that holds IO sleeps in its selector.</dt>
 *   <dd>It holds IO while operations are pending at its home or interest requests are queued for it (and, under
 *       HINT_PIPE, while it watches the hint pipe, H9). Then its {@code block()} selects; otherwise it parks. Its own
 *       IO ends the sleep with no waker: every protocol then leaves the sleep as if it had not blocked, and exactly one
 *       of the owner and a racing waker undoes the sleep's registration (J7, H9, S7 in the sleep package's
 *       {@code package-info}: the three-way race of the kernel, a notifier and the worker). Ready keys are collected
 *       during the select and handled after the sleep, in the idle search ({@code processReady}), so no IO step runs
 *       inside a sleep protocol's step.</dd>
 *   <dt>IO6 An operation holds a terminate count.</dt>
 *   <dd>From its start (refused after shutdown) until its job ran, or until it was withdrawn. So a pool does not
 *       terminate while a completion is still to be delivered, and every failure path gives the count back. A
 *       finished operation is handed out exactly once ({@code PoolIoImpl.queueFinished}: each leaves the caller's list
 *       as it is pushed or injected, so a caller that hands out again after a throw hands out only the rest), and its
 *       job is never taken back: E1's take-back suits a spawn, whose caller is told, but nobody can be told of a
 *       completion. If the sleep protocol's notification of the injected job throws, the job stays queued, where a
 *       searching worker finds it, and the notification is owed ({@code Registry.injectKept}: two volatile stores,
 *       no call), for a worker's next wait round or idle search, or the watchdog's next step, to make. Before, the
 *       injection took the job back and threw, the job stayed marked as claimed, and the next poll dropped it: a
 *       read failed by a close from outside, or finished by the watchdog's poll, never completed, and the pool never
 *       terminated ({@code IoHandOutKeptTest}). A thread that is not a worker (a closer, an off-pool caller,
 *       shutdown) tries to deliver what it owed right after its hand-outs, from the frame that made them. Limit: if
 *       that delivery throws too (the same stack's edge) while every worker sleeps and the watchdog is parked
 *       (nothing pending), the owe waits for the pool's next wake-up of any kind; the job is queued meanwhile, and
 *       its count held. And while the heap stays full, a job that cannot be queued is owed again at every delivery,
 *       so idle workers deliver instead of sleeping until it can: they spin for as long as the heap stays full. A
 *       hand-out that cannot queue its job at all (no memory for the injector's node after the push failed too, or a
 *       stack overflow inside the queue's {@code offer}) owes the job itself, linked through a field of the job under
 *       the owes' monitor (no call, no allocation), and the delivery injects it again; if the node had been linked
 *       after all, whichever node is claimed first runs it. So a hand-out never throws once entered: a close whose
 *       hand-out threw lost the operations it had failed, since they were detached from their channels already and
 *       no sweep could find them ({@code IoHandOutKeptTest}). The call that hands out a step's list ({@code queueFinished}) can still overflow
 *       at a stack's edge before any of it ran, so every caller (a close, a poll, a sweep, shutdown, an owner's own
 *       interest request) catches that and owes the list whole: it is a {@code FinishedOps}, which the catch block
 *       links under the owes' monitor and then signals with {@code any} ({@code FinishedOps.owe} written out inline:
 *       no call, one monitor, as {@code injectKept}'s owe of a job; the field references are resolved when the pool is
 *       built).
 *       The next delivery makes each operation still in the list enter through the injector, once (those handed out
 *       before the overflow are marked and skipped); the list itself is never queued or run. An owe wakes nobody: with
 *       every worker asleep and nothing pending it waits for the pool's next activity or its shutdown. An operation
 *       whose hand-out once went to the injector always goes there again ({@code IoOp.injecting}): an injection that
 *       threw may have linked its node after all, and only the injector's claim then keeps a retry from running it
 *       twice. Before, such a list was lost: a close near the stack's edge stranded reads in 3 of 30 iterations of
 *       {@code PoolIoErrorSafetyTest}'s close at every depth, run in a loop ({@code FinishedOpsOwedTest}; jcstress
 *       {@code OwedJobOweVsDeliverTest}). Not covered: a single operation finished at its call (a write or accept that
 *       completed at once, IO12's direct completion, a placement whose interest request failed) is handed out or run
 *       through calls with no such catch, and {@code IoOp.execute} gives its count back through a call: at the very
 *       edge either can leave a count that keeps the pool from terminating (found by reading in two reviews, not seen
 *       in a test). An operation that a poll or a close finishes under its channel's monitor is listed before it
 *       leaves its slot, with no call in between (the list's room is reserved before any step), so its job runs from the
 *       list whatever the rest of the step does (before, it left the slot first, and an overflow in the list's
 *       {@code add} lost it). If {@code ChannelState.clear}'s entry then overflows, the operation stays FINISHED in its
 *       slot with its home's count, and the next placement in that slot, a hand-back, or a close, sweep or shutdown
 *       frees both; an overflow at {@code clear}'s own call of the home's count, or a readiness wait left in its list
 *       by an overflow inside the list's remove, still leaves the home's count one too high (the owner then selects
 *       when idle as if it held IO).</dd>
 *   <dt>IO7 Ready IO is not stranded behind a busy owner.</dt>
 *   <dd>A worker that holds IO polls without blocking every {@code IoPoller.JOBS_PER_BUSY_POLL} (64) jobs, and at the
 *       same tick, between top-level jobs, runs one job from the injector (where the watchdog's completions wait: a
 *       worker whose deque never empties would otherwise leave them there for ever; only at the top level, since an
 *       injected job that waits in turn would nest the next one). An idle search polls too, if the worker holds IO
 *       and has not polled for 50 µs. A long job is covered by the watchdog: while some worker that holds IO runs a
 *       job, it ticks every 2 ms and polls the selector of an owner that has not polled for 2 ms, injecting what
 *       finished, so an idle worker (or the owner's next tick) runs it; ready IO thus waits a few milliseconds. It
 *       stops ticking one tick after it last saw such a worker (it then parks until IO8's next look, or for good if
 *       nothing is pending); a tick after which both an owner woke by its own IO and a claim (below) found the
 *       watchdog awake counts as a busy owner seen, so IO that starts jobs holding IO more often than the watchdog
 *       ticks keeps it ticking instead of parking and being unparked per request (when to park is a cost, not a rule:
 *       parking later is never unsafe). It is woken when a worker that holds IO starts a job, when a job places an
 *       operation at its own worker, and when an operation is placed at a busy home (each a Dekker pair: the busy state
 *       or the placement, a full fence, the load of the other side's flag). It only tries the poll lock and never polls
 *       for a sleeping owner (EMPER MR 214): a try that fails means the owner is polling right then, and the next tick
 *       looks again (EMPER MR 117's lost completion cannot happen with a retry per tick). A job that places an
 *       operation and then runs long without returning is covered the same way. The watchdog's ticks are the price of
 *       the guarantee: a timed wake costs about 17 µs of CPU on the 2-vCPU VM.
 *       "Busy" is the running depth: an owner that waits inside a job (a join, a future's join) and sleeps in its own
 *       selector still counts as busy, so the watchdog ticks, and finds the poll lock held or the owner just polled,
 *       for as long as that wait lasts. It stays so because leaving it out would need the owner to claim the watchdog
 *       again whenever such a wait ends and the job goes on (a new Dekker pair on every wake-up of a waiting worker,
 *       where today there is one per job start), and a design without a ticking watchdog (idle workers polling a busy
 *       owner's selector) would remove the case altogether; the cost is one timed wake per tick while such a wait
 *       lasts.
 *       Why a thread of its own, and not an idle worker waiting in the busy owner's selector (as Tokio's idle worker
 *       parks on its IO driver). Once the pool has been idle for a tick, whoever keeps the bound is asleep (nothing
 *       ticks then but IO8's sweep), and Java has no timer that wakes a thread without someone waking it first, so a
 *       job that starts after such a pause costs at least one wake-up besides the owner's own. The watchdog pays an
 *       unpark, then a tick per 2 ms while its looks see an owner that holds IO busy: for a short request one tick if
 *       its first look still sees the request's jobs running, none otherwise. Measured (BENCHMARKS.md), that is 1.6
 *       watchdog wake-ups per request at one request per 10 ms, and 0.47 at one per ms, where it ticks through the
 *       gaps. A selector selects for one thread at a time. An idle worker that takes the owner's selector at the job's
 *       start and gives it back by a {@code Selector.wakeup()} when the owner returns pays 2 per short job. One that
 *       keeps it, the worker that ran the job becoming the free one, pays 1: less than the watchdog at one request per
 *       10 ms (an estimated tenth of the server's CPU per request there), more at one per ms. Its price: no fixed owner
 *       (IO2, IO5), a new wake-up pair between a change of holder and its wakers (IO10), a {@code wakeup()} of the
 *       holder for each interest change, and the watchdog still, for when no worker is free. Not built.
 *       Nothing ends the watchdog while the pool lives (owners rely on it for IO8 too): a step that throws is retried
 *       after a pause, exhaustion as the workers' steps are (E4), anything else reported to the thread's handler at
 *       most once a second. The pool's close stops it before it closes the selectors, and a poll that began before
 *       the stop and meets a closed selector is that close, not an error: it is not reported. A busy owner's claim of
 *       a parked watchdog retries its CAS until it sees it awake, since the watchdog may move from PARKED to SWEEPING
 *       between the claim's read and its CAS.</dd>
 *   <dt>IO8 Close.</dt>
 *   <dd>{@code PoolIO.close} detaches the channel, fails its pending operations with
 *       {@code AsynchronousCloseException} at once, closes it, and makes its home's selector deregister the key now
 *       (a wakeup of the select in progress, or a {@code selectNow} of its own): the JDK keeps a registered channel's
 *       descriptor open until its selector deregisters the cancelled key, and until then the peer sees no end of
 *       stream. A channel closed directly does not wake a selector. While operations are pending anywhere, the
 *       watchdog looks over the table every {@code PoolIO.DIRECT_CLOSE_NOTICE_MILLIS} and asks the home of each
 *       channel it finds closed, if operations are pending there, to sweep ({@code requestSweep}: a flag, then the
 *       owner's unblock, an own event as an interest request is), and the home fails what is pending there and, at
 *       its next select, deregisters the key; a busy owner's polls sweep on their own clock. So an owner's blocking
 *       select has no timeout, and idle workers with idle connections use no CPU: the pool's one timed wake per
 *       interval is the watchdog's. The watchdog parks without a timeout only after it saw nothing pending, and an
 *       operation that waits wakes it from there (a Dekker pair: the pendingOps increment, a full fence, the load of
 *       the watchdog's state; against its store of PARKED, a full fence, its loads of every pendingOps). With the
 *       watchdog off, each owner's select times out by the next sweep and it looks itself. A home that blocks with
 *       nothing pending holds no key (IO4), so a direct close of a channel there takes effect at once. A channel
 *       closed directly after its operations ended is forgotten by the pool when the table has doubled since it last
 *       looked, or found by the next look while operations are pending at its home.</dd>
 *   <dt>IO9 Shutdown.</dt>
 *   <dd>The pool's shutdown sets the terminate flag, then the IO flag, then detaches every channel, failing its pending
 *       operations with {@code ShutdownChannelGroupException} and cancelling its key (the channel stays open). An
 *       operation that started concurrently placed itself (under its channel's monitor) before it reads the IO flag,
 *       so either the sweep finds it or it fails itself.</dd>
 *   <dt>IO10 One wake-up per sleep, delivered where the owner waits.</dt>
 *   <dd>The poller's wake flag and the owner's mode (RUNNING, PARKED, SELECTING) change together under the poller's
 *       monitor. {@code unblock()} sets the flag and, only if it was clear, wakes the wait the mode names:
 *       {@code Selector.wakeup()} when selecting, {@code unpark} when parked, nothing when running (the owner's next
 *       block finds the flag and returns at once). The owner consumes the flag or sets its mode in one critical
 *       section, so either the waker sees the mode and wakes that wait (both wake-ups are sticky), or the owner sees
 *       the flag. While the flag stays set, from a wake-up until the owner's next block, further wakers make no
 *       syscall: {@code Selector.wakeup()} is a syscall and a lock, deduplicated as Netty does. A monitor rather than
 *       VarHandles because it takes no call: a waker that overflows its stack retries its unblock at the same depth
 *       until done (E4 in the registry's package-info), which a parking worker's unblock (a monitor and an unpark)
 *       allows as the plain unpark did; a delivery that throws clears the flag again so that the retry delivers, and
 *       owes the wake-up as well (E4's owed wake-ups, {@code OwedLatchWakes.pollerFlags}: this poller's own unblock,
 *       made again by the next worker's wait round or idle search, or by the watchdog's next step, whatever the
 *       flag says, since its reset under the monitor may itself have overflowed), because wakers
 *       that came while the flag was set returned counting on that delivery (a sleep protocol's waker among them,
 *       which already marked the owner woken, so a wake-up through the protocol would do nothing), and two callers
 *       never retry ({@code requestInterest}, whose own operation fails instead, and
 *       {@code wakeIfLastOperationLeftElsewhere}). The throwable still goes to the caller: a waker that is not a
 *       worker, with every worker asleep, has nobody to deliver what it owes, so it keeps retrying as before.
 *       Another thread's {@code selectNow} on the owner's selector (the watchdog's, a closer's flush) consumes a
 *       pending {@code wakeup()}: so an owner that waited for the poll lock checks the flag again once it holds the
 *       lock, after which nobody else can select and a wake-up stays sticky. On the parking path nothing may wait for
 *       a {@code java.util.concurrent} lock between publishing PARKED and the park: such a wait parks inside the lock
 *       and swallows the unpark of a waker that saw PARKED, and the owner's park then waits for ever (the flag stays
 *       set, so no later waker unparks it either). So a parking owner deregisters its idle keys (IO4, under the poll
 *       lock) before it takes its position; the io-starvation benchmark hung on this ({@code IoPollerLostPermitTest}).
 *       A selecting worker's {@code wakeup()} is a few frames deeper than the counters' step, so at the very edge of a
 *       waker's stack its retry could go on for as long as the waker stays at that depth.</dd>
 *   <dt>IO11 What the channel gave is delivered: an outside completion never takes an operation's outcome.</dt>
 *   <dd>{@code cancel}, {@code complete}, {@code completeExceptionally} and {@code completeAsync} on an operation's
 *       future (and so {@code orTimeout} and {@code completeOnTimeout}, which call them) first withdraw the operation
 *       (IO3). If it already finished (a read that took bytes, an accept that took a connection, a write that went
 *       out whole), the call completes the future with the operation's own outcome, on the calling thread, and returns
 *       false: the future is done when the call returns (as {@code Future.cancel} promises), a timeout still ends the
 *       wait, and nothing the channel gave is lost; the operation's job then finds the future done. Before, such a
 *       cancel returned true and the bytes or the connection were lost (an outside conformance test found it, racing
 *       cancel against readiness), and a timed-out read stayed pending and took the next bytes. A write withdrawn part
 *       of the way has sent what its buffer's position says. Anything the operation throws finishes it too, an Error
 *       included: one that escaped left the operation PENDING behind a call that threw, or behind a poll that threw
 *       it again on every round. {@code obtrude*} withdraws but always completes: an accepted connection it replaced
 *       is closed, never leaked. The withdrawal takes two steps around the future's completion: PENDING to
 *       WITHDRAWING (no step runs the operation and no interest is kept for it, but it keeps its slot and its counts),
 *       then, once the future is complete, WITHDRAWN (slot and counts given back). An Error between the two (a stack
 *       overflow inside the completion) leaves an operation that a later outside completion, a close, a sweep or
 *       shutdown still finishes, where a one-step withdrawal left a future nobody would complete (a reviewer saw 2 to
 *       33 of 400 cancels made at every depth of a stack's edge). A stage of the completed future that starts the
 *       next operation on the channel finds the slot still held, and ends the withdrawal itself (only once the
 *       future is complete: another thread's placement between the two steps is refused, as before). The second step
 *       frees the slot and the home's count before it marks the operation WITHDRAWN, so an overflow before the slot is
 *       free leaves a WITHDRAWING operation that close, a sweep or shutdown still finishes. Gaps remain at the very
 *       edge of a stack, after the futures are complete: an overflow in the second step once the slot is free leaks
 *       the home's count (that worker then selects when idle, as if it held IO), and one at the release of the pool's
 *       count leaks that count (the pool does not terminate). A call-free owed path, as E1's {@code Termination.owed},
 *       would close both; a reviewer's test (400 cancels at every depth of a stack's edge) still sees them in some
 *       rounds. It stays open because that path is a monitor on the pool's one {@code Termination}: taken for every
 *       operation's end (the release cannot tell, once it threw, whether its atomic step happened, so only owing
 *       first and settling after is exact), it would put a contended monitor, and under contention a park, on every
 *       completion of every worker, where today there is one atomic add; a per-poller owed count, settled by the
 *       paths that settle {@code Termination.owed}, would not, and is the way to close it.</dd>
 *   <dt>IO12 Direct completions are bounded per top-level job.</dt>
 *   <dd>An operation that finishes at its call (a write the socket took whole; a read whose key did not wait for
 *       OP_READ and found bytes waiting: a new connection, bytes sent while no read was pending, a read after a cancel
 *       or a timeout; an accept with a connection waiting; a connect that completed at once) completes its future on
 *       the calling worker's stack, before the call returns, sparing a push and a wake-up; a stage attached afterwards
 *       then runs on the caller's stack too. The JDK's model for {@code AsynchronousChannelGroup} ({@code
 *       sun.nio.ch.Invoker}) bounds this per thread: each worker counts such completions in a plain field of its
 *       poller ({@code directCompletions}, owner only), resets it when a top-level job starts (no job on its stack;
 *       a job run inside a join's wait is nested and keeps the count), adds one per direct completion and never takes
 *       one back within the job; from {@code PoolIoImpl.MAX_DIRECT_COMPLETIONS} (8) on, a finished operation is
 *       pushed onto the worker's deque, so its future is incomplete when the call returns, and its job completes it
 *       later, as a new top-level job (the count starts over) or popped by a join's wait (whose loop does not grow
 *       the stack per job). So a loop written as {@code read(...).whenComplete((n, e) -> loop())} runs at most 8 turns
 *       deep on the worker's stack and then unwinds. Off the pool a direct completion is injected (IO1). A count that
 *       went down when the completion returned, as the first version's did, was 0 again by the time the caller
 *       attached its stage: every turn that found its bytes waiting ran the next one on the caller's stack, and the
 *       {@code StackOverflowError}, swallowed by {@code CompletableFuture}, ended the chain silently after about 4 MB
 *       read in 4 KiB turns, or about 1,070 writes. Left as it is: a thief that steals a pushed operation and
 *       completes its future before the caller attached its stage makes that stage run on the caller's stack, one
 *       turn deeper; each further turn needs the thief to win that race (the window from the push to the attach)
 *       again, every time in a row, since the first time the caller attaches first the chain moves to the completing
 *       thread and the caller's stack unwinds. That is not a bound: a thief that never sleeps wins it most times, and
 *       a review's request/response loop on 2 workers (write, then a joined read, per turn) chained 60 to 115 such
 *       turns (400 to 624 frames) in runs of 300,000 turns, without overflowing a default stack. Closing it needs the
 *       pushed operation kept from thieves until the caller's job ends, which would starve a caller that then blocks
 *       on it (still open). Outside the budget too: a read
 *       into a buffer with nothing remaining completes with 0 at once (docs/DESIGN.md §6) and places nothing; a loop
 *       over it makes no progress whatever its stack does, and, as for any completed future, its stages run on the
 *       thread that attaches them. And an outside completion (IO11) completes the future on its caller's thread.</dd>
 *   <dt>IO13 A hand-back completes once no selector of the pool holds the channel.</dt>
 *   <dd>{@code PoolIO.deregister} refuses a channel with an operation pending (a WITHDRAWING one whose future is
 *       complete ends its withdrawal first, as a placement does: IO11; a FINISHED one left in its slot by an overflow
 *       leaves it, IO6), and otherwise, under the channel's monitor,
 *       detaches its state and cancels its key, then removes the state from the table, so that the next operation
 *       homes and registers the channel afresh. A cancelled key stays in its selector, and the channel cannot go back
 *       to blocking mode, until a selection deregisters it (the JDK does so before and after every select's wait), and
 *       a home that holds other IO does not drop keys on its own (IO4). So the caller first queues and counts a wait at
 *       each poller whose selector still holds a cancelled key of the channel (the add, then a volatile RMW of that
 *       poller's count), entering once the monitor of each such key's {@code ChannelState} first, inside which every
 *       cancel of ours runs, so that a cancel still in progress has queued its key at the selector before the add.
 *       Then it arms the hand-back: its own decrement (a volatile RMW) of the keys left, which start at n + 1. Only
 *       once that decrement returned is the count the hand-back's job's: an Error before it (a stack's edge) leaves
 *       the job unable to run, and the caller owes the count back without a call (E1's {@code Termination.owed} in the
 *       registry's package-info, inside its monitor; settled at once where the stack allows, else by the next
 *       release, shutdown or wait for termination), where a release, a call, overflowed and leaked it; a wait queued
 *       then, counted or not, is stepped and removed by a later pass. If the arming decrement was the last (every key
 *       went meanwhile), the caller injects the job itself, and an inject that throws took it back (E1): the count is
 *       again the caller's to owe. Then, per poller, it selects once itself if {@code tryLock} gets the poll lock,
 *       else wakes the selector: the holder may be the owner in a select without a timeout that began before the
 *       cancel. Every holder of the poll lock unlocks directly in the {@code finally}
 *       of the {@code try} that follows its lock (nothing of ours in between), and after the unlock, if the queue is
 *       not empty, drains ({@code drainHandBacks}): while a wait was counted that no finished pass covered, it takes
 *       the lock with {@code tryLock} and makes a pass (it marks the waits queued so far, makes a selectNow, then
 *       completes the waits whose key is gone and judges lost the marked ones whose key is not; it covers the waits
 *       counted before its select), or, if the lock is taken, wakes the selector and leaves the drain to the holder,
 *       whose unlock comes after the failed {@code tryLock} and so after the add (a Dekker pair: the add and count,
 *       then the arming and the {@code tryLock}'s volatile read; the unlock's volatile write, then the drain's
 *       volatile reads). So a wait queued while the lock was held is seen by the release that follows, none waits for
 *       a select that nobody makes, whether the owner sleeps in its selector, parks, or runs a long job, and a wait
 *       that a select after its cancel did not complete is judged lost by the pass that covered it rather than
 *       selected for again and again (the first version's release looped while the queue was not empty, and spun
 *       about one CPU for ever on such a wait). A wait leaves the queue only once its step is done, and only
 *       a lock holder steps one, so a step that fails at a stack's edge is redone by the next pass; nothing waits for
 *       the lock (IO10's parking path). The last of the waits' and the arming's decrements injects the hand-back's
 *       job, which completes the future on a worker (IO1); the hand-back holds a terminate count from the call until
 *       that job ran (IO6), so it is refused after shutdown, which deregisters every channel itself (IO9). A channel
 *       no selector of the pool holds (never seen, or let go of already) is handed back at once, with a future
 *       complete when returned. An operation
 *       started right after a hand-back, at the same home, may find the hand-back's cancelled key still in the
 *       selector (the JDK's register then throws {@code CancelledKeyException}): the channel is open, so this is not
 *       a close; the registering thread (the owner, or the lock holder's poll) makes a selectNow under the poll lock,
 *       which deregisters that key, and registers again (the first version failed such an operation with
 *       {@code AsynchronousCloseException}). At the very edge of a caller's stack, an overflow in
 *       the select or wakeup after the arming leaves counted waits to the next release of that poll lock (the owner's
 *       select ends at the latest when its pending operations end, as at shutdown: IO4, IO9). The JDK's own steps can
 *       lose a cancelled key there: {@code SelectionKey.cancel} overflowing after it marked the key invalid and before
 *       it queued it at the selector, or a selection overflowing inside its deregistration of cancelled keys, after
 *       it took the key off its queue and before it removed it from the channel (in JDK 25 that queue's
 *       {@code ArrayDeque.pollFirst} even clears the slot before a call moves the head; an overflow there would leave
 *       every key cancelled later at that selector queued behind the empty slot for good). No select then
 *       deregisters the key, and the channel stays registered there (it cannot go back to blocking mode; after a
 *       close its descriptor stays open) until the selector closes with the pool. Such a wait held the hand-back's
 *       count for ever and the pool never terminated (rounds of hand-backs at every depth left 3 to 24 such waits, in
 *       up to 3 rounds of 6; after the fixes below a count still leaks at some step not yet found, in about 1 run of 13
 *       at 30 rounds on JDK 17 and once in a CI run on JDK 25, so {@code DeregisterAtStackEdgeTest}'s lock-free
 *       rounds run only when asked; with the poll lock taken by another thread it leaked too, in one round of 6 in 2
 *       of about 6 CI runs, so that test reports one such round in a run and fails on two). A pass now judges it lost:
 *       every
 *       select of a pass began after the cancel of each wait it marked (the cancel, or the caller's entry of its
 *       monitor, precedes the add, which precedes the mark), so a marked wait whose key the select left in its
 *       channel can only be a lost key; its hand-back's job completes the future with an {@code IOException} and
 *       gives the count back (IO6), and the pool terminates. A hand-back whose own select loses its key has thrown,
 *       so nobody sees that future; one that returned fails if another caller's select lost its key, or if its key
 *       was cancelled after such a selection corrupted its selector. One wrong judgment is possible: a channel closed
 *       directly (not through {@code PoolIO.close}) during its hand-back, whose keys the JDK cancels outside our
 *       monitor. Not covered: an Error thrown in one thread's pass or drain (an {@code OutOfMemoryError} in the
 *       queue's iterator or the select's list of finished operations, a {@code StackOverflowError} deep in a
 *       caller's stack) after another caller's {@code tryLock} failed on that thread's hold leaves the other caller's
 *       counted wait uncovered with the lock free; the next release of that poll lock drains it (the next hand-back,
 *       close or busy poll at that home), and until then its future waits (found by reasoning in an outside review,
 *       not reproduced; the fix would be a wake of the owner on such a throw, and a drain in its {@code block()}).</dd>
 * </dl>
 *
 * <h2>What it does not do</h2>
 * No timeouts on operations (use {@code CompletableFuture.orTimeout}, whose expiry withdraws, IO11); no file IO (file
 * channels are not selectable); no io_uring (an optional module could add it, if measurements justify it).
 * A channel stays homed at its first worker: a busy home is covered by IO7, not by moving the channel. At the very edge
 * of a thread's stack, the JDK's {@code ReentrantLock.unlock} of a home's poll lock can itself overflow (a close, or a
 * cancel, that flushes the home's selector, or a hand-back's own select); the lock then stays held by a thread that
 * went on, or, where it overflowed after releasing the lock and before waking its waiter (AQS's {@code signalNext}),
 * is free while the home's owner stays parked in its {@code lock()}: either way the owner waits for ever.
 * {@code DeregisterAtStackEdgeTest} sees this in a few of 30 rounds of hand-backs at every depth, and reports such a
 * round rather than failing it (at most half the rounds may). Nothing is allocated or called between taking that lock
 * and the {@code try} that releases it, but the release's own frames are the JDK's ({@code PoolIoErrorSafetyTest}
 * sees it in about one run in five of a close at every depth). A close at every depth near the stack's edge, then
 * shutdown, used to leave reads never completed (about one CI run in five, 2026-11-28): the close's call that hands
 * out the operations it had failed overflowed before any ran (found 2026-11-29 by counting, in each stranded
 * iteration, exactly the operations that call had left; fixed by IO6's owed {@code FinishedOps}). That test still
 * runs only with {@code -Dspindle.tests.stackEdgeClose=true}: once the JIT has compiled the close, a descent to the
 * stack's edge can take 15 to over 30 s (on JDK 25 from the second iteration on, on JDK 17 in about one in eight),
 * which its bound would report as a hang.
 */
package io.spindle.internal.io;
