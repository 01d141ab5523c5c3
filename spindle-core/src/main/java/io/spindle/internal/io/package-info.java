/**
 * IO on the pool (SPEC §6): EMPER's IO subsystem on the JVM. Each worker owns a poller ({@code IoPoller}, a
 * {@code java.nio.channels.Selector} opened on first use) that is also the {@code Blocker} its sleep protocol blocks
 * with, so that an idle worker that holds IO waits for its IO and for new work in one wait, and an IO completion costs
 * one kernel wake-up, on the worker that then runs what follows.
 *
 * <h2>Where things are</h2>
 * {@code PoolIoImpl} is the public {@code PoolIO}: argument checks, the table of channels the pool knows
 * ({@code ChannelState}: the channel's home poller, its key, one slot per pending operation), and what becomes of
 * finished, cancelled, closed and shut-down operations. {@code IoOp} and its five kinds in {@code IoOps} are the
 * operations: a non-blocking step each, and, once finished, a job that completes the caller's future.
 * {@code IoWatchdog} polls for busy owners.
 *
 * <h2>Invariants (cited in the code as IO1..IO10)</h2>
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
 *       {@code ChannelState} monitor: finishing (a step succeeded or threw), withdrawing (cancel), failing (close,
 *       direct close found by the sweep, shutdown). So a future is completed by exactly one job, or cancelled with
 *       no job, and a slot frees exactly once.</dd>
 *   <dt>IO4 Registrations persist.</dt>
 *   <dd>Interest is added when an operation needs it and removed only when readiness comes that no pending operation
 *       wants (write and connect readiness at once, since a writable socket stays writable). A ping-pong read finds
 *       OP_READ still registered and costs no {@code epoll_ctl}; a read whose key already waits for OP_READ makes no
 *       first attempt (readiness drives it).</dd>
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
 *       terminate while a completion is still to be delivered, and every failure path gives the count back.</dd>
 *   <dt>IO7 Ready IO is not stranded behind a busy owner.</dt>
 *   <dd>A worker that holds IO polls without blocking every {@code IoPoller.JOBS_PER_BUSY_POLL} (64) jobs. A long job
 *       is covered by the watchdog: while some worker that holds IO runs a job, it ticks every millisecond, and polls
 *       the selector of an owner that has not polled for two milliseconds, injecting what finished, so an idle worker
 *       runs it; ready IO thus waits at most a few milliseconds. It parks when it has seen no such worker for ten
 *       milliseconds, and a worker wakes it when it starts a job or an operation while holding IO (a Dekker pair with
 *       a full fence on each side). It only tries the poll lock and never polls for a sleeping owner (EMPER MR 214):
 *       a try that fails means the owner is polling right then, and the next tick looks again (EMPER MR 117's lost
 *       completion cannot happen with a retry per tick).</dd>
 *   <dt>IO8 Close.</dt>
 *   <dd>{@code PoolIO.close} detaches the channel, fails its pending operations with
 *       {@code AsynchronousCloseException} at once, then closes it. A channel closed directly does not wake a
 *       selector: its home's poller looks for closed channels at most every
 *       {@code PoolIO.DIRECT_CLOSE_NOTICE_MILLIS} while it holds IO (its blocking select times out by then), as does a
 *       busy poll and the watchdog's, and fails what is pending there.</dd>
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
 *       allows as the plain unpark did; a delivery that throws clears the flag again so that the retry delivers. A
 *       selecting worker's {@code wakeup()} is a few frames deeper than the counters' step, so at the very edge of a
 *       waker's stack its retry could go on for as long as the waker stays at that depth.</dd>
 * </dl>
 *
 * <h2>What it does not do</h2>
 * No timeouts on operations (use {@code CompletableFuture.orTimeout}, whose expiry cancels, IO3); no file IO (file
 * channels are not selectable); no io_uring (SPEC §6 leaves it to an optional module, if measurements justify it).
 * A channel stays homed at its first worker: a busy home is covered by IO7, not by moving the channel.
 */
package io.spindle.internal.io;
