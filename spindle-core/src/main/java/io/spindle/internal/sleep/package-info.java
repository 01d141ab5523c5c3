/**
 * Sleep protocols: how idle workers go to sleep without missing work, and how posting work wakes as few of them as
 * needed. This page describes the three protocols behind {@link io.spindle.internal.sleep.SleepProtocol}: first
 * JOBS_EVENT_COUNTER ({@link io.spindle.internal.sleep.JecSleep}), Spindle's default, taken from rayon-core's sleep
 * module and its RFC 5, with Blitz's thread pool, then SLEEPY_WORKER and HINT_PIPE (docs/DESIGN.md §9 lists these
 * sources; "the seed" below means the protocol's source). The code cites the invariants below by name; keep this page
 * true when the code changes.
 *
 * <h2>Thread states</h2>
 * A worker is <em>active</em> (running a job), <em>idle</em> (searching for work) or <em>sleeping</em> (blocked through
 * its {@code WorkerSleepState}: JOBS_EVENT_COUNTER parks it, see J6). Idle and sleeping together are
 * <em>inactive</em>. An idle worker that is about
 * to sleep is <em>sleepy</em>.
 *
 * <h2>The worker loop</h2>
 * See {@link io.spindle.internal.sleep.SleepProtocol}. A worker waits for a latch (its terminate latch at top level,
 * a join's or scope's latch inside a job). It first takes local work without touching shared sleep state; then it
 * calls {@code startLooking} and searches in rounds: own deque, own broadcast queue, the other workers' deques from a
 * random victim, the injector. After a failed search it calls {@code noWorkFound}: the first rounds yield; at the
 * worker's current limit (rayon's fixed {@code ROUNDS_UNTIL_SLEEPY} = 32 at most, see A1) it announces itself sleepy;
 * one more round later it tries to sleep. Leaving the idle state calls {@code leaveIdle(idle, foundWork)}, paired with
 * {@code startLooking} by {@code try/finally}: when a job turned up, when the latch was set, and when a step threw (an
 * Error in the sleep path). A worker leaving through its latch has not searched, yet a poster may have counted on it;
 * {@code leaveIdle} is where each protocol hands on what the worker was counted for (A4, H8; SLEEPY_WORKER owes
 * nothing, its tickles wake everyone).
 *
 * <h2>Departures from rayon, measured</h2>
 * Round counts and whom to wake decide only how much CPU idle workers burn and how fast work spreads, never whether a
 * post is seen: no invariant below depends on them.
 * <dl>
 *   <dt>A1 - adaptive spinning.</dt>
 *   <dd>All three protocols (SLEEPY_WORKER and HINT_PIPE since issue 15, see below). Each worker keeps its own
 *       limit of yielding rounds, starting at its protocol's fixed count (32 by default). Every time it wakes from a
 *       long sleep (its spinning could not have found the work) the limit halves, down to {@code
 *       MIN_ROUNDS_UNTIL_SLEEPY} (0 by default, property {@code spindle.jec.minRoundsUntilSleepy}); every time a search
 *       finds work after at least half the limit (and at least one failed round), or a sleep that a waker ended lasted
 *       less than {@code IdleState.SHORT_SLEEP_NANOS} (50 µs, property {@code spindle.idle.shortSleepMicros}; 0 turns
 *       the rule off), the limit doubles (to at least 2), back up to the fixed count. A sleep that the worker's own IO
 *       ended (J7, H9, S7) counts as long however short it was, and work found in its own IO is no reward either:
 *       spinning finds that IO no sooner than its selector does. At a limit of 0 the worker announces itself
 *       sleepy after its first failed search, searches once more without yielding, and sleeps: under sparse load a
 *       worker that woke for one job goes straight back to sleep (rayon PR 1314 found the same: 43 % less CPU); each
 *       {@code Thread.yield} is a {@code sched_yield} system call, which cost about 2 µs on the 2-vCPU VM of
 *       BENCHMARKS.md, more than the rest of the search. In a busy phase, where searches succeed late or wakers end
 *       its sleeps within microseconds, it spins as long as rayon does. The short-sleep rule came from IO under load
 *       (issue 15, echo on 16 connections): a worker whose IO came back tens of microseconds after its last completion
 *       found it by blocking in its selector, not by spinning, so without the rule the limit sank to 0 and every batch
 *       cost a sleep and a wake-up (JOBS_EVENT_COUNTER spent 0.9-1.0 times a thread per connection's CPU per request;
 *       with it 0.74-0.84), both measured with the runner's client of that time, one thread multiplexing every
 *       connection, which flatters selector servers. Measured with clients in their own process (issue 29), the same
 *       rule made a worker spin after every request: its selector returned within the clients' round trip, so each
 *       sleep doubled the limit back to 32 yields, and the idle search found the next request only at its 50 µs poll;
 *       one connection back to back cost 2.3-3.0 times a thread per connection's CPU per request. Since then a sleep
 *       that the worker's own IO ended counts as long (1.2-1.5 times; at 16 to 256 connections within the noise, with
 *       64 connections on JDK 25 perhaps a little dearer: BENCHMARKS.md, "Spinning for IO that the selector finds").
 *       SLEEPY_WORKER and HINT_PIPE apply the same rules to their
 *       own fixed counts (properties {@code spindle.sleepy.minRoundsUntilSleepy},
 *       {@code spindle.hintPipe.minRoundsUntilSleepy}); SLEEPY_WORKER's rounds
 *       between getting sleepy and falling asleep scale with the limit, at least one (S3). Under sparse IO (one request
 *       every millisecond) their fixed 32 and 64 yields after each request's lone job had doubled their CPU per
 *       request. The limit is read once per round and changes only when a search ends (in {@code leaveIdle}, after the
 *       debts that step pays) or when a sleep ends; SLEEPY_WORKER's S6 no longer reads it (a flag says whether the
 *       worker tried for the sleepy role).</dd>
 *   <dt>A2 - the cascade needs visible work.</dt>
 *   <dd>Rayon wakes up to two sleepers whenever a worker leaves the idle state. Spindle does so only when
 *       the worker found a job and the search that found it left more work visible at the same source (the victim's
 *       deque, the injector, its own deque); whether more is there is read only when sleepers exist. Taking a lone job
 *       wakes nobody: without this, one sparse job woke three workers. Rayon's unconditional cascade was also what
 *       covered posters that counted on the leaving worker as awake and idle (a latch exit, two posts at once); A4 now
 *       does that job explicitly, so A2 stays safe.</dd>
 *   <dt>A3 - RFC 5's open question, as a switch.</dt>
 *   <dd>When a job lands in a queue that was empty, are there awake idle workers to take it? Option B (the default,
 *       as in rayon) reads {@code inactive - sleeping} from the counters; Option A, the local-queue heuristic, wakes
 *       a sleeper only if every other worker sleeps. Both wake {@code min(jobs, sleepers)} when the queue already
 *       held work. Chosen per JVM with {@code -Dspindle.jec.idleJudgement=counters|queue} so that benchmarks can
 *       compare them; neither affects J1-J6. Option A applies only to a worker pushing onto its own deque: an
 *       injection is always judged by the counters, because an empty injector says nothing about idle thieves to a
 *       poster outside the pool (with A a busy worker was taken for an idle one, and an injected job waited until
 *       that worker's job ended).</dd>
 *   <dt>A4 - a worker leaving the idle state hands on the wake-ups it was counted for.</dt>
 *   <dd>Option B counts on awake idle workers ({@code inactive - sleeping}) and may wake nobody for a post. A worker
 *       so counted may leave without taking that post's job: its latch was set (it returns into its job without
 *       searching: an outside thread completes the latch, then posts, and the job now waits for that post), or two
 *       posts at once both counted on it and it took only one. So {@code leaveIdle} decrements {@code inactive} (SC),
 *       and if sleepers remain and A2 did not cascade, wakes one if any work is visible (injector, any deque, its
 *       private queue); that worker searches from scratch and cascades in turn. Why that suffices: a poster that
 *       counted on this worker read the counters before the decrement in their total order (J3) and published its
 *       job before that read (the injector's fence, J5), so a job still waiting is seen here; if it was taken, nobody
 *       needs waking. (An internal push has no fence, so for it the hand-on is best effort: see "Internal pushes".)
 *       The deques are scanned only when sleepers exist and the source showed nothing more. Spin:
 *       {@code spindle-verification/model/jec.pml} with {@code USER_BLOCK}. Rayon reaches the same end with its
 *       unconditional cascade.</dd>
 * </dl>
 *
 * <h2>The counters</h2>
 * {@link io.spindle.internal.sleep.JecCounters}: one 64-bit word holding sleeping threads (bits 0-15), inactive
 * threads (16-31) and the jobs event counter, JEC (32-63). Even JEC = "sleepy": no work was posted since a worker last
 * got sleepy; odd = "active". Starting to look increments inactive; leaving the idle state decrements it; registering
 * to sleep increments sleeping; waking a sleeper decrements it.
 *
 * <h2>Invariants</h2>
 * <dl>
 *   <dt>J1 - the JEC detects posts made while a worker is sleepy.</dt>
 *   <dd>Getting sleepy turns the JEC even and remembers it. Posting work turns an even JEC odd. A worker registers as
 *       sleeping only by one CAS from a word whose JEC equals the remembered value ({@code tryAddSleepingThread}); if
 *       it differs, the worker searches once more ({@code IdleState.wakePartly}) instead of sleeping. So a post after
 *       the announcement and before the registration is never slept through (modulo J4).</dd>
 *   <dt>J2 - the waker, not the sleeper, decrements {@code sleeping}.</dt>
 *   <dd>Exactly one waker does, the one whose CAS moved the sleeper's state from BLOCKED to WAKING (J6), and at once,
 *       before it lets the sleeper go, so other posters do not wake a thread that is already waking and the sleeper
 *       never sees its own count. The exceptions, where the sleeper undoes its own registration because no waker will:
 *       its final check (J5) found work; a waker claimed it while PREPARING (it will not block); or its blocking threw
 *       (a stack overflow entering the park) and it took BLOCKED back by CAS before any waker claimed it.</dd>
 *   <dt>J3 - every counter access is sequentially consistent.</dt>
 *   <dd>Loads are volatile, updates are CAS or getAndAdd; together with the two fences of J5 they form one total
 *       order, which the proof of J5 needs.</dd>
 *   <dt>J4 - JEC roll-over is tolerated.</dt>
 *   <dd>The JEC has 32 bits and wraps; after exactly 2^31 posts a sleepy worker may see "unchanged" and sleep through a
 *       post. For internal posts that costs only parallelism (see "Internal pushes" below); for injected posts J5
 *       prevents the hang.</dd>
 *   <dt>J5 - the two fences: an injected job is never slept through.</dt>
 *   <dd>The injector: push the job; full fence; read the counters (to wake). The sleeper: register as sleeping; full
 *       fence; read the injector (and its own broadcast queue). Whichever fence comes first in the total order, either
 *       the poster sees the registration (and wakes a sleeper) or the sleeper sees the job (and does not block).
 *       The poster's fence is needed even without roll-over: a poster that finds the JEC already odd writes nothing
 *       to the counters, so only the fence orders its job's publication before its read of the sleeping count (spin:
 *       {@code spindle-verification/model/jec.pml}, variant without the poster fence).
 *       Internal pushes have no fence (as in rayon): see "Internal pushes" below for what they are promised. A lazy
 *       join's promotion (internal/lazy, LZ6) is an internal job with the injection's guarantee: the promoter fences
 *       between its slot store and the protocol's read of the counters, and the final check reads every worker's
 *       promotion slots too.</dd>
 *   <dt>J6 - no wake-up between registration and blocking.</dt>
 *   <dd>{@code WorkerSleepState} holds one volatile word per worker: AWAKE, PREPARING, NOTIFIED, BLOCKED, WAKING.
 *       The sleeper moves AWAKE to PREPARING by CAS <em>before</em> it announces on its latch (L1) and before it
 *       registers (J1), and PREPARING to BLOCKED by CAS only after its final check (J5); then it parks until the word
 *       is AWAKE (spurious returns and interrupts re-check). A waker reads the word after its read of the counters (or
 *       its latch swap) in their total order (J3), so a waker that saw the registration or SLEEPING finds PREPARING or
 *       BLOCKED, never an AWAKE from before them, and claims it: BLOCKED to WAKING (it takes the count, J2, stores
 *       AWAKE, then unparks: an unpark before the park makes the park return), or PREPARING to NOTIFIED (the
 *       sleeper's CAS to BLOCKED then fails: it undoes its own count and searches again, which is all the claim asked;
 *       the waker counts it as woken). Each claim is one CAS, so each registration is acted on once. Only the owner
 *       leaves AWAKE, PREPARING and NOTIFIED; only the claiming waker leaves WAKING, retrying its steps until done
 *       (E4 in the registry's package-info). Rayon holds a lock from registration to the wait for this; the word
 *       replaces the lock, the condition's node and the unlock's unpark with a CAS and an unpark.
 *       {@code Blocker} is only the mechanism under the word ({@code ParkingBlocker}: {@code LockSupport}; in a pool,
 *       the worker's IO poller, which selects while the worker holds IO: internal/io, IO5 and IO10). Spin:
 *       {@code spindle-verification/model/jec.pml}, variant {@code WAKER_SKIPS_PREPARING}; jcstress:
 *       {@code WorkerSleepStateClaimTest}.</dd>
 *   <dt>J7 - the owner's own IO ends a sleep, counted once (the three-way race).</dt>
 *   <dd>A worker blocked in its selector may return because its own IO is ready, with no waker
 *       ({@code Blocker.ownEventsReady()}). It then takes BLOCKED back to AWAKE by CAS, exactly as a failed block
 *       does, and undoes its own sleeping count; a waker that claimed it first (BLOCKED to WAKING) took the count, and
 *       the owner waits for that waker's AWAKE as for any wake-up. The kernel, the notifier and the worker race, and
 *       the one CAS out of BLOCKED decides who undoes the count (Cats Effect's fix for the same race is a per-worker
 *       state that the notifier swaps).</dd>
 * </dl>
 *
 * <h2>Posting work and whom to wake</h2>
 * {@code newJobs}: turn the JEC odd (J1) and read the word. No sleepers: done. If the queue the job went into was
 * not empty before, the awake workers are not keeping up: wake {@code min(jobs, sleepers)}. Otherwise count on the
 * awake-but-idle workers ({@code inactive - sleeping}) to find the jobs and wake sleepers only for the rest. A worker
 * that finds work while more stays visible wakes up to two sleepers ({@code CASCADE_WAKE_LIMIT}, A2), so that a burst
 * spreads; otherwise, if any work is visible, it wakes one (A4). Injections add J5's fence first. Waking "any" worker
 * claims blocked workers first and only then ones still PREPARING (J6): a PREPARING worker may not have registered
 * yet, and the poster then counted it among the awake idle ones; a sleeper must not stay asleep for a post that
 * needed it. Broadcasts put one job in every worker's private queue and wake every sleeper.
 *
 * <h2>Latches</h2>
 * <dl>
 *   <dt>L1 - setting a latch wakes its owner exactly when the owner sleeps on it.</dt>
 *   <dd>{@link io.spindle.internal.latch.CoreLatch} has four states. Before sleeping, the owner CASes UNSET to SLEEPY;
 *       then SLEEPY to SLEEPING; after waking (or giving up), SLEEPING back to UNSET. A setter swaps in SET and wakes
 *       the owner only if the old state was SLEEPING. If the setter swapped over UNSET or SLEEPY, the owner's next CAS
 *       fails and it does not block; if over SLEEPING, the owner was PREPARING before it got there (J6), so the
 *       setter's wake finds it PREPARING or BLOCKED and claims it, or finds it already AWAKE and back out of the
 *       sequence, on its way to probing the latch. Owners of other
 *       latches are never disturbed: a worker blocked on a different latch would only wake to sleep again. A sleep
 *       sequence that gives up, or throws, puts SLEEPY or SLEEPING back to UNSET in a {@code finally}, so the next
 *       {@code getSleepy} can start again.</dd>
 * </dl>
 *
 * <h2>Internal pushes: what they are promised</h2>
 * A worker pushing onto its own deque makes no fence (all three protocols: J5, S3, H4), because every join pushes and a
 * full fence per push costs the fine-grained rows. A search that starts after the push became visible finds the job,
 * and a sleeper the poster saw is woken; what the missing fence allows is that a worker registering to sleep at the
 * same instant misses the push while the pusher misses the registration. The job is then run by the pusher when its
 * job next returns to the worker loop (it pops its own deque first), by a worker that any later post or cascade wakes,
 * or, since A4 and H8, by a worker whose latch exit saw it. The promise therefore holds for jobs that wait through
 * Spindle (join, scope, install, a pool's CompletableFuture, a cross-pool install: they run the worker loop while
 * waiting). A job that pushes work and then blocks <em>outside</em> the pool (a {@code java.util.concurrent} lock,
 * {@code Thread.sleep}, a socket read) may hold its own pushed jobs back until it returns, and if it waits for one of
 * them, may wait for ever: as in rayon (and FJP without a {@code ManagedBlocker}), such a job should block inside
 * {@code Spindle.blocking} or {@code Spindle.managedBlock}, whose stand-in starts with an idle search that scans the
 * blocked thread's deque ({@code io.spindle.internal.blocking}, B3), or hand the work to the pool through an injection,
 * or wait through Spindle. Injections and broadcasts have the fences and are never stranded.
 *
 * <h2>SLEEPY_WORKER</h2>
 * {@link io.spindle.internal.sleep.SleepyWorkerSleep}: rayon-core's legacy protocol, its sleep module before RFC 5.
 * Each worker is <em>awake</em>, <em>sleepy</em> (still searching, but about to sleep) or <em>asleep</em> (blocked on
 * the pool's one condition). At most one worker is sleepy at a time, and any new work or latch set wakes every sleeper.
 *
 * <h3>The state word</h3>
 * One 64-bit word: bit 0 = "some worker is asleep", bits 63..1 = index + 1 of the sleepy worker (0 = none). 0 means
 * everyone is awake and nobody is sleepy.
 *
 * <h3>The worker's steps</h3>
 * {@code noWorkFound}: the rounds below the worker's limit yield (A1: at most {@code ROUNDS_UNTIL_SLEEPY} = 32, the
 * seed's count; 0 after a few sleeps under sparse load). At the limit the worker tries to become the sleepy one by CAS
 * (if another worker is sleepy it stays at that round and tries again after its next search). Sleepy, it keeps
 * searching; after each failed search it checks it is still sleepy (if a tickle cleared it, it starts over at round
 * 0). At round {@code roundsUntilAsleep(limit)} ({@code ROUNDS_UNTIL_ASLEEP} = 64 at the seed's count, the gap scaled
 * with the limit, at least one round) it falls asleep: latch UNSET to SLEEPY, take the lock, latch
 * SLEEPY to SLEEPING, then one CAS from the word naming it sleepy to exactly "asleep bit, nobody sleepy", then wait on
 * the condition. {@code leaveIdle} gives the sleepy role up. Posting work, injecting, broadcasting, setting a latch
 * whose owner is SLEEPING ({@code notifyWorkerLatchIsSet}) and termination <em>tickle</em>: a load; if the word is not
 * 0, swap it to 0; if the old word had the asleep bit, signal all sleepers under the lock.
 *
 * <h3>Invariants</h3>
 * <dl>
 *   <dt>S1 - while a worker is sleepy, only a tickle changes the word.</dt>
 *   <dd>Only the sleepy worker writes its id (getting sleepy) or sets the asleep bit (falling asleep, which removes
 *       its id in the same CAS), and no other worker can get sleepy meanwhile. A tickle's swap removes the id for good.
 *       So the sleepy worker's fall-asleep CAS succeeds exactly when no tickle came since it got sleepy. One exception,
 *       only after a failure: a tickle whose signal threw ORs the asleep bit back in (its rollback), and that word may
 *       by then name a new sleepy worker. That worker's fall-asleep CAS then fails as if it had been tickled (it starts
 *       over: a spurious round, never a lost one), {@code getSleepy} takes back an id that is still its own, and
 *       {@code stopBeingSleepy} retries its CAS past the added bit.</dd>
 *   <dt>S2 - every access to the word is sequentially consistent.</dt>
 *   <dd>The tickle's load in particular must not be a mere acquire: it and the get-sleepy / fall-asleep CASes form
 *       one total order, so either the tickle sees the sleepy id or asleep bit (and clears it), or the tickle comes
 *       first and the worker's later searches see what the tickler did before tickling. This is the seed's scenario 1
 *       (tickle-then-get-sleepy) and 2 (get-sleepy-then-get-tickled).</dd>
 *   <dt>S3 - a sleepy worker searches at least once more before it falls asleep.</dt>
 *   <dd>{@code roundsUntilAsleep(limit) > limit} for every limit A1 can set. Work posted before the get-sleepy CAS
 *       with a tickle that saw no sleepy worker is found by that search (S2); work posted after it clears the sleepy id
 *       (S1). Injections and broadcasts are published by volatile CASes, so the argument is exact and no final check of
 *       the injector is needed; internal pushes are release stores (see "Internal pushes").</dd>
 *   <dt>S4 - falling asleep holds the lock from the CAS until the wait; sleepers wait for a generation change.</dt>
 *   <dd>The seed's scenario 3 (fall-asleep-then-get-tickled): a tickle that sees the asleep bit takes the lock to
 *       signal, which it gets only once the sleeper waits. The tickle moves a generation counter under the lock, and a
 *       sleeper waits (uninterruptibly) until the generation differs from the one it read before its CAS: spurious
 *       wake-ups and interrupts do not end a sleep, and a signal is never lost.</dd>
 *   <dt>S5 - every post and every latch set tickles; the hot path is one load.</dt>
 *   <dd>Internal pushes, injections, broadcasts, latch sets whose owner sleeps (L1) and termination. Nobody sleepy or
 *       asleep: one volatile load, no write.</dd>
 *   <dt>S6 - a worker gives the sleepy role up whenever it leaves the idle loop or gives up sleeping.</dt>
 *   <dd>Otherwise no other worker could get sleepy, and none would ever fall asleep.</dd>
 *   <dt>S7 - in a pool, each sleeper blocks on its own blocker (its IO poller).</dt>
 *   <dd>A condition's wait cannot also wait for a selector, so a pool's sleepers do what the wait does, spelled out:
 *       under the lock a sleeper marks itself, unlocks and blocks on its blocker; a tickle moves the generation and
 *       unblocks every marked sleeper under the lock; the blocker keeps an unblock that comes before the block (its
 *       contract), so none is lost between the unlock and the block, and S4's generation rule is unchanged. A sleeper
 *       whose own IO is ready leaves on its own; the sleeping bit may stay set, and the next tickle wakes the others
 *       for nothing, which the legacy protocol allows.</dd>
 * </dl>
 * Latches: L1 as above; the latch's owner sleeps on the shared condition, and a set latch's tickle wakes it (and, as
 * the seed says, everyone else).
 *
 * <h2>HINT_PIPE</h2>
 * {@link io.spindle.internal.sleep.HintPipeSleep}: EMPER's pipe sleep strategy. Sleeping workers wait for a
 * <em>hint</em> in an OS pipe ({@code java.nio.channels.Pipe}); a notifier takes the sleepers it wakes off a count and
 * writes one hint per worker it wakes, saying where the new work is: the index of the worker whose deque got it, or the
 * injector. A woken worker looks in its own deque, then where the hint points ({@code IdleState.takeHint}), then
 * searches normally.
 *
 * <h3>State</h3>
 * {@code sleepers}: registered sleepers that no notifier has taken yet; negative = credit. Per worker
 * ({@code PipeSleeper}): {@code readInFlight} (it is counted, or a hint is on its way for it: it owes the pipe one
 * read, the seed's "sleep request in flight"), {@code blocked}, a wake request, its thread. {@code watcher}: the one
 * blocked worker that selects on the pipe.
 *
 * <h3>The worker's steps</h3>
 * The rounds below the worker's limit yield (A1: at most {@code ROUNDS_UNTIL_SLEEPY} = 32). At the limit the worker
 * <em>registers</em>: unless it already owes a read, it increments {@code sleepers}; if the count was negative it took
 * a credit instead and searches again. Registered, it searches
 * once more, then sleeps: clear its wake request, latch UNSET to SLEEPY to SLEEPING (L1), set {@code blocked}, check
 * the injector and its private queue, then loop: take the watch if nobody has it; the watcher reads a hint if one is
 * there; leave on a hint or a wake request; else block (the watcher in {@code Selector.select}, the others in
 * {@code LockSupport.park}). Leaving: clear {@code blocked}, give the watch up and hand it to another blocked worker,
 * store the hint, and if it read no hint, <em>retract</em> its registration while the count is positive. A worker that
 * leaves the idle state while registered retracts too, after forwarding a hint it did not follow (H8).
 *
 * <h3>Invariants</h3>
 * <dl>
 *   <dt>H1 - the notifier, not the sleeper, decrements {@code sleepers}.</dt>
 *   <dd>{@code notifyInternal(n)} (inside the pool): if the count is not positive, return (one load); else CAS it
 *       down by {@code min(sleepers, n)} and write that many hints. If sleepers decremented on waking, several
 *       notifiers could observe the same sleepers, each write hints for all of them and fill the pipe with hints
 *       nobody reads, until a write blocks: the seed's pipe-jamming deadlock. The CAS lets exactly one notifier take
 *       each registration.</dd>
 *   <dt>H2 - hints waiting in the pipe = workers that owe a read - max(sleepers, 0).</dt>
 *   <dd>Every step keeps this equality: registering (+1 both sides), a notifier's CAS (count down, hints up by the
 *       same), reading a hint (both down), retracting (only while the count is positive: both down), and a credit
 *       (below). So the pipe never holds more hints than workers: 2 bytes each, it cannot fill for pools up to 2048
 *       workers (a Linux pipe holds at least 4096 bytes); the sink is non-blocking anyway, and a notifier never blocks.
 *       And when the count is not positive, every worker that owes a read has a hint coming.</dd>
 *   <dt>H3 - {@code notifyAnywhere(n)} always takes effect, with bounded credit.</dt>
 *   <dd>From outside the pool (injections) and on termination: CAS the count down by n even below zero, writing
 *       {@code min(observed, n)} hints when positive; if it is already at most -n, return. A worker that registers and
 *       finds the count negative takes a credit instead of sleeping and searches again, so a worker just about to
 *       register does not sleep through the post; a worker already registered has a hint coming (H2). The count never
 *       drops below -(2n - 1) for the largest n in use (one job per injection; the thread count on termination).</dd>
 *   <dt>H4 - register, search once more, then block.</dt>
 *   <dd>A notifier publishes its job, then loads the count; a worker increments the count, then searches. Either the
 *       notifier sees the registration (and writes a hint), or the worker's search comes after the post. A final
 *       check of the injector and the private queue follows {@code blocked}; for internal pushes missed by every
 *       searcher, see "Internal pushes".</dd>
 *   <dt>H5 - latch sets and broadcasts wake a specific worker, not through the pipe.</dt>
 *   <dd>Waker: set the worker's wake request, unpark it if blocked, {@code selector.wakeup()} if it is the watcher.
 *       Sleeper: clear the request before checking its latch and queues, and check the request after taking its
 *       position (watcher CAS, {@code blocked}); each pair is a Dekker pair of volatile accesses, and unpark and
 *       wakeup are sticky, so a wake-up between check and block is not lost. Broadcasts use this too: hints are
 *       fungible, so a worker that wakes, finds nothing and blocks again could read a second hint meant for another
 *       sleeper, which would then sleep through its broadcast job.</dd>
 *   <dt>H6 - one watcher: a hint wakes one thread.</dt>
 *   <dd>Only the watcher selects on the pipe (every selector watching it would wake on every hint). A worker leaving
 *       the loop stores "no watcher", then looks for a blocked worker and unparks it; a worker entering stores
 *       {@code blocked}, then takes the watch if free. Volatile on both sides: either the entering worker sees no
 *       watcher, or the leaver sees it blocked and hands it the watch.</dd>
 *   <dt>H7 - interrupts neither break nor close anything.</dt>
 *   <dd>An interrupted blocking channel operation closes the channel, so both pipe ends are non-blocking; the watcher
 *       blocks in {@code Selector.select}, which an interrupt only wakes. While blocking, a worker clears its interrupt
 *       status (park and select would return at once) and restores it when it leaves.</dd>
 *   <dt>H8 - a hint read and not followed is forwarded.</dt>
 *   <dd>The notifier that wrote it took the reader's registration off the count (H1), so nobody else was woken for its
 *       job. A worker that leaves the idle state without looking where its hint points (its latch was set, or local
 *       work came first) sends the wake-up on as the notifier would have: {@code notifyAnywhere(1)} for the injector,
 *       {@code notifyInternal(1)} naming the same deque. {@code IdleState.reset} drops any hint, so none survives into
 *       a later search. Spin: {@code spindle-verification/model/hint.pml} with {@code USER_BLOCK}.</dd>
 *   <dt>H9 - in a pool, one wait for a hint, a wake request and the worker's own IO.</dt>
 *   <dd>Every worker blocks on its own blocker (its IO poller), and the watcher watches the hint pipe inside that same
 *       wait: the pipe's source is registered in each worker's selector too, with interest only while that worker
 *       watches, set before it takes its position and cleared before it gives the watch up (H6). Wakers unblock the
 *       worker's blocker instead of unparking it. A worker whose own IO ends its wait reads no hint and leaves as a
 *       worker woken by a wake request does: it retracts its registration if the count is positive, else a hint is
 *       on its way and it reads it when it next blocks (H2), so the count changes once whoever wins.</dd>
 * </dl>
 * Resources: the pipe and selector are released by {@code SleepProtocol.close()}, which the pool calls once every
 * worker has exited (a failed build counts the workers it never started as exited).
 *
 * <h2>Flight Recorder hooks</h2>
 * Every protocol reports its sleeps and wake-ups through {@code io.spindle.internal.event.PoolEvents}: a sleeper begins
 * its WorkerSleep event before its sleep sequence above and commits it, with a WorkerWoken event, after it left the
 * sequence, and only if it blocked. Inside the sequences a waker only writes plain fields saying who it is and why it
 * wakes: JEC in {@code WorkerSleepState} before the claiming waker's store of AWAKE, SLEEPY_WORKER beside the
 * generation under the pool's lock, HINT_PIPE in {@code PipeSleeper} before the volatile wake request (a hint names its
 * poster by itself). No step and no ordering above depends on them.
 */
package io.spindle.internal.sleep;
