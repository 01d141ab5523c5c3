/*
 * JOBS_EVENT_COUNTER sleep protocol (io.spindle.internal.sleep.JecSleep) as a Promela model for spin.
 * Seeds: rayon-sleep-module.md (protocol, "Proof sketch"), rayon-rfc5-sleep.md appendix A (core latch).
 * Invariant names (J1..J6, L1) are those of spindle-core/.../internal/sleep/package-info.java.
 *
 * What is modelled
 *   - W workers (2 or 3) running WorkerThread.waitUntilCold (spindle-core/src/main/java/io/spindle/internal/registry/
 *     WorkerThread.java) with JecSleep's steps (.../internal/sleep/JecSleep.java), and a search over real-shaped queues:
 *     one deque per worker (owner pops the bottom, thieves steal the top), the injector, no broadcasts.
 *   - Worker 0 starts with a join (Join.join): it pushes b (an internal push), runs a (nothing), then takes b back if
 *     nobody stole it, else waits on the join's WorkerLatch (4-state core latch, L1) running the worker loop.
 *   - Leaving the idle state is JecSleep.leaveIdle(idle, foundWork) (WorkerThread.searchWhileIdle): with a job, or
 *     because the latch was set; the latch exit hands on a wake-up a poster may have counted on (A4, below).
 *   - The first injected job spawns a child onto the deque of the worker running it (a second internal push).
 *   - An outside thread injects INJ jobs (Registry.inject -> JecSleep.newInjectedJobs).
 *   - PROMOTE=1: the join is a lazy one whose b is promoted into worker 0's promotion slot (see the variants).
 *   - The counters word: jec (JEC_BITS wide: 2 gives roll-over after 4 increments, J4), inactive, sleeping.
 *   - WorkerSleepState per worker (.../internal/sleep/WorkerSleepState.java): the state word AWAKE, PREPARING, NOTIFIED,
 *     BLOCKED, WAKING, each access one atomic step (a volatile read, store or CAS). The sleeper: prepare() (CAS AWAKE ->
 *     PREPARING) first, before the latch's CASes and the registration (J6); after the final check, blockIfUnclaimed()
 *     (CAS PREPARING -> BLOCKED), then "wait until the word is AWAKE" (its park loop: LockSupport's permit and
 *     spurious returns only re-check the word, so the unpark itself is not modelled); on every exit, as the finally
 *     does: endSequence() (CAS PREPARING -> AWAKE, else NOTIFIED -> AWAKE), latch.wakeUp(), then the undo of its own
 *     count if it still owns it (ownsCount: set by the registration CAS, cleared with the CAS to BLOCKED). A waker
 *     (JecSleep.wakeSpecificThread, for every wake in the model: posters, the A2/A4 cascades and hand-ons, latch sets
 *     L1): WorkerSleepState.wake()'s claim as one atomic step (BLOCKED -> WAKING, or PREPARING -> NOTIFIED, or not
 *     claimed; its loop's reads and failed CASes change nothing, so only the step that decides is modelled); after
 *     BLOCKED -> WAKING: sleeping-- (J2), then the store of AWAKE. Both claims count as a wake. wakeAnyThreads claims
 *     BLOCKED workers in a first pass and PREPARING ones in a second. No step throws here: prepare()'s failure
 *     (settleEarlierSequence), a waker's undo of its claim when its decrement throws, and the owner's take-back after
 *     a failed block are not modelled (Errors are the unit tests' and ErrorSafetyTest's).
 *   - Memory: sequentially consistent, except the injector's push of a job, which is a release store that may sit in
 *     its store buffer (TSO) until flushed: by the poster's fence, by its next locked instruction (CAS), or at any
 *     moment by the hardware (process Drain). This is the proof sketch's "PushJob: atomic write to J with release
 *     semantics" (the real Registry appends with a CAS, which is stronger). Workers' stores are not buffered: their
 *     registration is a CAS (a locked instruction), so the sleeper's fence is implied on TSO.
 *
 * Property (checked by the Monitor with spin's timeout): whenever the whole system is blocked, no job is left in any
 * queue, the join (USER_BLOCK=2: J's wait) has completed, and its owner is not blocked on a SET latch. A lost wake-up
 * (a job posted while every worker sleeps forever, or a latch owner never woken) is such a blocked state. Then also
 * (J2's bookkeeping) the sleeping count equals the number of workers left BLOCKED. Every sleep sequence starts from
 * AWAKE (asserted at prepare()).
 *
 *   - WEAK_SEARCH=1 (default): a search's read of the injector may miss a job (an acquire read that no SC fence of the
 *     searcher orders after the poster's fence: the C++ model rayon's proof sketch is written for, and the fake
 *     release/acquire injector of the jcstress tests). Only the final check, after the sleeper's SleepFence, is
 *     guaranteed to see a job whose PushFence came first. WEAK_SEARCH=0: searches are sequentially consistent, as
 *     Spindle's real injector (a ConcurrentLinkedQueue of volatile accesses) makes them.
 *
 * Variants (spin -D...):
 *   W=2|3 (workers), INJ=1|2 (injected jobs), JEC_BITS (default 2: 4 values, roll-over within reach)
 *   FINAL_CHECK=0        remove the sleeper's final injector check (J5)        -> counter-example
 *   SLEEP_ORDER_BROKEN=1 sleeper checks the injector, THEN registers (J5 order) -> counter-example
 *   POSTER_FENCE=0       remove newInjectedJobs' fence (J5)                     -> counter-example (TSO store buffer)
 *   WAKER_SKIPS_PREPARING=1 claim() treats PREPARING like AWAKE (not claimed): J6's window between the registration
 *                        (or the latch's SLEEPING) and blocking is open again -> counter-example. The first one spin
 *                        finds is L1's: worker 1 runs b and sets the join latch over SLEEPING while worker 0 is PREPARING;
 *                        nobody claims it, it blocks on a SET latch for good. With MONITOR_JOBS_ONLY=1 (and even with
 *                        WEAK_SEARCH=0): both workers register and pass the final check (injector empty) while
 *                        PREPARING; the injection then finds sleeping = inactive = 2, wakes one and claims nobody; both
 *                        block for good with the job in the injector.
 *   PREPARE_AFTER_REGISTER=1 the sleeper moves to PREPARING only after its registration CAS (before the fence and
 *                        the final check): a waker that saw the latch's SLEEPING or the registration may find it
 *                        AWAKE                                                 -> counter-example, L1's as above (worker 0
 *                        still AWAKE when the join latch is set over SLEEPING). With USER_BLOCK=1 and
 *                        MONITOR_JOBS_ONLY=1, an internal push is lost: worker 0, waiting on its join, runs the injected
 *                        job and pushes the child; its wake finds worker 1 registered but still AWAKE; worker 1 then
 *                        prepares, its final check (the injector only) sees nothing, it blocks; worker 0 finds its latch
 *                        set and blocks in user code with the child on its deque. An injected job is not lost this way
 *                        (W=2, INJ=1, no USER_BLOCK: no job left in 1.4e7 states, either WEAK_SEARCH): its job was
 *                        published (fence) before the failed claim, which precedes prepare() and so the final check.
 *   PROMOTE=1            a lazy join (spindle-core/.../internal/lazy, LZ6): worker 0's join keeps b latent and
 *                        promotes it at once (LazyWorker.promote): a store of b into its one promotion slot (volatile;
 *                        on this TSO model it may sit in worker 0's store buffer, as the injector's push), a full fence,
 *                        then JecSleep.newInternalJobs (newJobs: no fence of its own; its CAS, when the JEC is even,
 *                        drains the buffer). Searches take a victim's slot after its deque (own slot after own deque;
 *                        a getAcquire read: may miss the job under WEAK_SEARCH), and the sleeper's final check reads the
 *                        slot too (PromotionSlots.isEmpty: volatile). Then a runs until somebody took b (a long a:
 *                        modelled as blocking on "the slot is empty", so that a slept-through promotion is a blocked
 *                        system, which the Monitor catches with the slot full; in the pool the owner would reclaim b
 *                        after a, LZ7, so the loss is parallelism, not the job); then worker 0 waits on the join latch.
 *                        -> must verify (either one sees the other, as for an injection)
 *   PROMOTE_FENCE=0      (with PROMOTE=1) no fence after the slot store     -> counter-example (store buffer)
 *   FINAL_CHECK_SLOTS=0  (with PROMOTE=1) the final check reads the injector only, not the slot -> counter-example
 *   MONITOR_JOBS_ONLY=1  the Monitor asserts only that no job is left in a queue (not the join, the latch owner or
 *                        J2's count): shows a lost job where a lost latch wake-up would be found first.
 *   USER_BLOCK=1|2       worker 0 leaves a latch wait and then blocks in user code for good (a job blocked outside
 *                        Spindle: I/O, a lock, a plain CountDownLatch), so it never searches again and every job must
 *                        run on the other workers. 1: after its join, whose latch worker 1 sets (b stolen and run).
 *                        2 (LatchExitWakeupTest): no join; worker 0 runs a job J that waits through Spindle (a pool
 *                        CompletableFuture's join) on latch EXT, which an outside thread (process Setter) sets at any
 *                        moment relative to the injections.                   -> must verify (with the fix, A4)
 *   OLD_LATCH_EXIT=1     the code before A4: a latch exit decrements inactive and wakes nobody (the old workFound;
 *                        A2's "more work where the job came from" is never true without a job; no hand-on after a
 *                        find either)
 *                        -> with USER_BLOCK=1 or 2, counter-example: an injection finds inactive - sleeping = 1 (worker
 *                        0, awake and idle in its latch wait) and wakes nobody (Option B); worker 0 sees its latch set
 *                        and leaves without searching; the job stays in the injector while worker 1 sleeps
 *   HAND_ON_FIND=0       A4 on latch exits only (as first written in JecSleep.leaveIdle): a worker leaving with a job
 *                        wakes only by A2 (more work at the job's source)    -> counter-example with USER_BLOCK=1|2 and
 *                        INJ=2 (found fastest with WEAK_SEARCH=0): an injection counts on idle worker 0, which then
 *                        takes a DIFFERENT job (the child, stolen from worker 1's deque); A2 sees worker 1's deque
 *                        empty and wakes nobody; worker 0 runs the child, finds its latch set, returns into its job
 *                        without an idle phase and blocks; the injected job waits for ever while worker 1 sleeps.
 * The fix (default, JecSleep.leaveIdle): sleepers = subInactiveThread() (SC getAndAdd, old sleeping count); if
 * sleepers > 0: with a job and more work visible at its source, wake min(sleepers, 2) (A2); otherwise, with or without
 * a job, if any work is visible (the injector, any deque), wake one (A4). The reads follow the RMW: a poster that
 * counted on this worker read the counters before it, after publishing its job (J5's fence), so a job still waiting
 * is seen. HAND_ON_FIND=1 (the part after "otherwise, with a job") is needed as well: without it, see above.
 * Findings: the counter-examples without the final check / with the order broken need no JEC roll-over (they also
 * appear with JEC_BITS=7): the post found the JEC odd and changed nothing. With WEAK_SEARCH=0 the final check is
 * redundant (verified even with a 2-bit JEC): every JEC step after a post that could bring the JEC back to a sleeper's
 * snapshot is an announcement, whose worker searches afterwards and finds the job. Waking one sleeper in A4 suffices
 * for liveness: the woken worker searches from scratch, and each of its own exits from the idle state hands on in
 * turn while work stays visible and sleepers remain (a chain, not a fan-out). 2 workers cannot tell one from two;
 * the 3-worker searches are partial (bit-state, and a full search outgrows 16 GB).
 */

#ifndef W
#define W 2
#endif
#ifndef INJ
#define INJ 2
#endif
#ifndef JEC_BITS
#define JEC_BITS 2
#endif
#ifndef FINAL_CHECK
#define FINAL_CHECK 1
#endif
#ifndef SLEEP_ORDER_BROKEN
#define SLEEP_ORDER_BROKEN 0
#endif
#ifndef POSTER_FENCE
#define POSTER_FENCE 1
#endif
#ifndef USER_BLOCK
#define USER_BLOCK 0
#endif
#ifndef OLD_LATCH_EXIT
#define OLD_LATCH_EXIT 0
#endif
#ifndef HAND_ON_FIND
#define HAND_ON_FIND 1
#endif
#ifndef WEAK_SEARCH
#define WEAK_SEARCH 1
#endif
#ifndef WAKER_SKIPS_PREPARING
#define WAKER_SKIPS_PREPARING 0
#endif
#ifndef PREPARE_AFTER_REGISTER
#define PREPARE_AFTER_REGISTER 0
#endif
#ifndef MONITOR_JOBS_ONLY
#define MONITOR_JOBS_ONLY 0
#endif
#ifndef PROMOTE
#define PROMOTE 0
#endif
#ifndef PROMOTE_FENCE
#define PROMOTE_FENCE 1
#endif
#ifndef FINAL_CHECK_SLOTS
#define FINAL_CHECK_SLOTS 1
#endif
#if PROMOTE && USER_BLOCK
#error "PROMOTE models worker 0's join; USER_BLOCK changes what worker 0 does"
#endif

#define JEC_MOD (1 << JEC_BITS)
#define NO_SNAPSHOT 255
#define CAP 3                 /* deque capacity: b, the child, and one spare */

/* job ids */
#define NONE 0
#define JOB_B 1               /* the join's second half */
#define JOB_INJ_SPAWN 2       /* the first injected job: spawns a child */
#define JOB_INJ 3             /* other injected jobs */
#define JOB_CHILD 4           /* the spawned child */

/* CoreLatch states (CoreLatch.UNSET/SLEEPY/SLEEPING/SET) */
#define UNSET 0
#define SLEEPY 1
#define SLEEPING 2
#define SET 3
#define JOIN W                /* latch index of the join latch; latches 0..W-1 are the workers' terminate latches */
#define EXT (W + 1)           /* USER_BLOCK=2: the latch of job J's wait for an outside event (owner: worker 0) */
#define SRC_INJECTOR W        /* IdleState.FOUND_IN_INJECTOR; 0..W-1: the deque the job came from */

/* --- JecCounters: one word (JecCounters.word) --- */
byte jec;                     /* bits 63..32 */
byte inactive;                /* bits 31..16 */
byte sleeping;                /* bits 15..0 */

/* --- queues --- */
byte injector;                /* jobs in Registry.injector (committed) */
byte injKind[INJ];            /* which jobs, FIFO by injHead */
byte injHead;                 /* next to poll */
byte injTail;                 /* next to add */
bool injBuffered;             /* the poster's push is still in its store buffer (TSO) */
byte slot;                    /* PROMOTE: worker 0's promotion slot (PromotionSlots, one slot): NONE or JOB_B */
bool slotBuffered;            /* PROMOTE: worker 0's store of b into the slot is still in its store buffer */
byte dq[W * CAP];             /* ChaseLevDeque per worker: slots */
byte dqTop[W];
byte dqBot[W];

/* WorkerSleepState.state values (AWAKE .. WAKING) */
#define AWAKE 0
#define PREPARING 1
#define NOTIFIED 2
#define BLOCKED 3
#define WAKING 4
/* WorkerSleepState.claim() outcomes */
#define NOT_CLAIMED 0
#define CLAIMED_PREPARING 1
#define CLAIMED_BLOCKED 2

/* --- WorkerSleepState per worker, CoreLatch per latch --- */
byte st[W];                   /* WorkerSleepState.state (volatile; 0 = AWAKE) */
byte latchSt[W + 2];

bool joinDone;
bool extDone;                 /* USER_BLOCK=2: J's wait for the outside event returned */
bool userBlocked;
byte executed;

/* PROMOTE: worker k's promotion slot holds a job (committed; only worker 0 promotes) */
#define PROMOTED(k) ((k) == 0 && slot != NONE)

inline flushPromoterStore() { /* worker 0's store buffer drains: the promoted job becomes visible */
  atomic {
    if
    :: slotBuffered -> slot = JOB_B; slotBuffered = false
    :: else -> skip
    fi
  }
}

inline flushPosterStore() {   /* the store buffer drains: the job becomes visible */
  atomic {
    if
    :: injBuffered -> injector++; injTail++; injBuffered = false
    :: else -> skip
    fi
  }
}

/* JecSleep.wakeSpecificThread(index): WorkerSleepState.wake(): the claim, then for a claim from BLOCKED the rest. Returns the
 * claim in c (NOT_CLAIMED, CLAIMED_PREPARING, CLAIMED_BLOCKED); both claims count as a wake.
 * J6: a waker that saw a registration (or a latch's SLEEPING, L1) finds that sleeper PREPARING or BLOCKED, never
 * AWAKE: prepare() came before both. claim() is one atomic step: its loop's volatile reads and failed CASes change
 * nothing shared, so the step that decides (the read that returns NOT_CLAIMED, or the CAS that succeeds) is all that
 * other threads can observe. */
inline wakeSpecificThread(i, c, blockedOnly) {
  atomic {
    if
    :: st[i] == BLOCKED -> st[i] = WAKING; c = CLAIMED_BLOCKED       /* CAS BLOCKED -> WAKING: this waker owns the wake */
#if WAKER_SKIPS_PREPARING
    /* (variant: PREPARING is treated like AWAKE: not claimed) */
#else
    :: st[i] == PREPARING && !blockedOnly -> st[i] = NOTIFIED; c = CLAIMED_PREPARING /* CAS PREPARING -> NOTIFIED */
#endif
    :: else -> c = NOT_CLAIMED                                     /* AWAKE, NOTIFIED, WAKING (or PREPARING, 1st pass) */
    fi
  };
  if
  :: c == CLAIMED_BLOCKED ->
     sleeping--;                   /* J2: the waker takes the sleeping count, before letting the sleeper go */
     st[i] = AWAKE                 /* volatile store; then the unpark, not modelled (see header) */
  :: else -> skip                  /* a PREPARING claim: the count stays the sleeper's (J2's exception) */
  fi
}

/* JecSleep.wakeAnyThreads(numToWake): workers 0..W-1 in order until numToWake were woken, claiming only BLOCKED
 * workers in a first pass and PREPARING ones too in a second (a PREPARING worker may not be registered yet) */
inline wakeAnyThreads(n) {
  k = 0;
  do
  :: n > 0 && k < W -> wakeSpecificThread(k, woke, true); if :: woke != NOT_CLAIMED -> n-- :: else -> skip fi; k++
  :: else -> break
  od;
  k = 0;
  do
  :: n > 0 && k < W -> wakeSpecificThread(k, woke, false); if :: woke != NOT_CLAIMED -> n-- :: else -> skip fi; k++
  :: else -> break
  od;
  atomic { k = 0; n = 0; woke = NOT_CLAIMED }
}

/* JecSleep.newJobs(numJobs = 1, queueWasEmpty) for an internal push (newInternalJobs): J1 "turn the JEC odd"
 * (incrementJecIfSleepy: a CAS if even, else only the load), then the wake decision on the word it returned. The
 * injector's copy of this step is in proctype Injector (its CAS also drains its store buffer). */
inline newJobs(wasEmpty) {
  atomic {
    if
    :: jec % 2 == 0 -> jec = (jec + 1) % JEC_MOD                   /* even (sleepy): CAS to odd */
    :: else -> skip                                                /* odd: load only */
    fi;
    ws = sleeping; wi = inactive
  }
  if
  :: ws == 0 -> skip
  :: else ->
     awake = (wi > ws -> wi - ws : 0);                              /* awakeButIdleThreads */
     if
     :: !wasEmpty -> n = 1; wakeAnyThreads(n)                       /* min(numJobs, sleepers) = 1 */
     :: wasEmpty && awake < 1 -> n = 1; wakeAnyThreads(n)          /* min(numJobs - awakeButIdle, sleepers) = 1 */
     :: else -> skip
     fi
  fi;
  atomic { ws = 0; wi = 0; awake = 0; wasEmpty = false }
}

/* CoreLatch.set (WorkerLatch.set): swap SET; SLEEPING before -> LatchOwner.wakeLatchOwner -> JecSleep.
 * notifyWorkerLatchIsSet(owner) -> wakeSpecificThread(owner) (L1: only the owner; J6: an owner whose latch was SLEEPING
 * is PREPARING or BLOCKED, or has ended its sequence and will see SET) */
inline setLatch(L, owner) {
  atomic { old = latchSt[L]; latchSt[L] = SET }
  if
  :: old == SLEEPING -> wakeSpecificThread(owner, woke, false)
  :: else -> skip
  fi;
  atomic { old = 0; woke = NOT_CLAIMED }
}

/* PROMOTE: LazyWorker.promote on worker 0, one frame: slots.publish (a volatile store: into the store buffer here),
 * VarHandle.fullFence() (drains it), then JecSleep.newInternalJobs(0, 1, true): newJobs with queueWasEmpty = true,
 * whose CAS (JEC even) also drains the buffer, as the injector's copy in proctype Injector. */
inline promote() {
  slotBuffered = true;                                     /* publish: in the store buffer */
#if PROMOTE_FENCE
  flushPromoterStore();                                    /* VarHandle.fullFence() */
#endif
  atomic {
    if
    :: jec % 2 == 0 -> if :: slotBuffered -> slot = JOB_B; slotBuffered = false :: else -> skip fi;
                       jec = (jec + 1) % JEC_MOD
    :: else -> skip
    fi;
    ws = sleeping; wi = inactive
  };
  if
  :: ws == 0 -> skip
  :: else ->
     awake = (wi > ws -> wi - ws : 0);
     if
     :: awake < 1 -> n = 1; wakeAnyThreads(n)              /* Option B, queueWasEmpty: min(1 - awake, sleepers) */
     :: else -> skip
     fi
  fi;
  atomic { ws = 0; wi = 0; awake = 0 }
}

/* WorkerThread.push(job) = deque.push + JecSleep.newInternalJobs(me, 1, queueWasEmpty): no fence (J5) */
inline pushInternal(job) {
  atomic { wasEmpty = (dqTop[me] == dqBot[me]); dq[me * CAP + dqBot[me] % CAP] = job; dqBot[me]++ }
  newJobs(wasEmpty)
}

/* Running a job (WorkerThread.execute). b sets the join latch (JoinJob -> latch.set); the first injected job spawns
 * a child (Registry.spawn from a worker -> push). */
inline runJob(job) {
  executed++;
  if
  :: job == JOB_B -> setLatch(JOIN, 0)
  :: job == JOB_INJ_SPAWN -> pushInternal(JOB_CHILD)
  :: else -> skip
  fi
}

/* WorkerThread.takeLocalJob: ChaseLevDeque.pop (linearizable: checked by jcstress and Lincheck) */
inline popOwn(job) {
  atomic {
    if
    :: dqTop[me] != dqBot[me] -> dqBot[me]--; job = dq[me * CAP + dqBot[me] % CAP]; dq[me * CAP + dqBot[me] % CAP] = NONE
    :: else -> job = NONE
    fi
  }
}

/* WorkerThread.findWork: own deque, steal from the others, then Registry.pollInjected. One atomic step: the protocol's
 * argument is only that a search starting after a post sees it (SleepProtocol's premise); a job posted during a real,
 * non-atomic search is either seen or posted after the step modelled here, which the protocol must handle anyway.
 * Records where the job came from (idle.foundWork(source)): leaveIdle reads "more work there?" later, lazily (A2). */
inline findWork(job) {
  atomic {
    if
    :: dqTop[me] != dqBot[me] -> dqBot[me]--; job = dq[me * CAP + dqBot[me] % CAP]; dq[me * CAP + dqBot[me] % CAP] = NONE;
                                 src = me                                 /* idle.foundWork(index) */
    :: else -> job = NONE
    fi;
#if PROMOTE
    if                                                     /* our own promoted frame (LZ7): PromotionSlots.steal */
    :: job == NONE && PROMOTED(me) -> job = slot; slot = NONE; src = me
#if WEAK_SEARCH
    :: job == NONE && PROMOTED(me) -> skip                 /* WEAK_SEARCH: the getAcquire misses it */
#endif
    :: else -> skip
    fi;
#endif
    k = 0;
    do
    :: job == NONE && k < W ->
       if
       :: k != me && dqTop[k] != dqBot[k] -> job = dq[k * CAP + dqTop[k] % CAP]; dq[k * CAP + dqTop[k] % CAP] = NONE;
                                             dqTop[k]++; src = k                  /* WorkerThread.stealFrom */
       :: else -> skip
       fi;
#if PROMOTE
       if                                                  /* stealFrom: then the victim's slots (LZ4) */
       :: job == NONE && k != me && PROMOTED(k) -> job = slot; slot = NONE; src = k
#if WEAK_SEARCH
       :: job == NONE && k != me && PROMOTED(k) -> skip    /* WEAK_SEARCH: the getAcquire misses it */
#endif
       :: else -> skip
       fi;
#endif
       k++
    :: else -> break
    od;
    k = 0;
    if
    :: job == NONE && injector > 0 -> job = injKind[injHead]; injHead++; injector--;
                                      src = SRC_INJECTOR                    /* pollInjectedNoting */
#if WEAK_SEARCH
    :: job == NONE && injector > 0 -> skip      /* WEAK_SEARCH: this acquire read misses the job (see header) */
#endif
    :: else -> skip
    fi
  }
}

/* WorkerSleepState.prepare(): CAS AWAKE -> PREPARING. Nothing here throws, so every sequence ends AWAKE (endSequence,
 * or a waker's store of AWAKE) and the CAS succeeds: asserted (settleEarlierSequence is not reached in this model). */
inline prepare() {
  atomic { assert(st[me] == AWAKE); st[me] = PREPARING }
}

/* WorkerSleepState.endSequence(), in sleep's finally: CAS PREPARING -> AWAKE; if that failed and the word is
 * NOTIFIED (a waker's claim, which only the owner leaves), a volatile store of AWAKE. BLOCKED/WAKING are not left
 * here in this model (only an Error leaves them, and errors are not modelled). */
inline endSequence() {
  atomic {
    if
    :: st[me] == PREPARING -> st[me] = AWAKE; ok = false
    :: else -> ok = (st[me] == NOTIFIED)
    fi
  };
  if
  :: ok -> atomic { st[me] = AWAKE; ok = false }
  :: else -> skip
  fi
}

/* The end of sleep's finally, after endSequence() and latch.wakeUp(): JecSleep.undoOwnCount (J2's exceptions: the
 * final check found a job, or a claim while PREPARING), remembered in ownsCount. */
inline undoOwnCount() {
  if
  :: own -> atomic { sleeping--; own = false }
  :: else -> skip
  fi
}

/* JecSleep.sleep(idle, latch): called from noWorkFound at round ROUNDS_UNTIL_SLEEPING. Its finally is, in order: undo
 * our own count if still ours (J2's exception), endSequence(), latch.wakeUp() (L1). */
inline sleepStep(L) {
#if !PREPARE_AFTER_REGISTER
  prepare();                                               /* J6: PREPARING before the latch's SLEEPING and our count */
#endif
  /* L1: latch.getSleepy(): CAS UNSET -> SLEEPY */
  atomic { if :: latchSt[L] == UNSET -> latchSt[L] = SLEEPY; ok = true :: else -> ok = false fi };
  if
  :: !ok -> endSequence()                                  /* set: return (the caller's probe sees it); finally */
  :: ok ->
     /* latch.fallAsleep(): CAS SLEEPY -> SLEEPING */
     atomic { if :: latchSt[L] == SLEEPY -> latchSt[L] = SLEEPING; ok = true :: else -> ok = false fi };
     if
     :: !ok -> rounds = 0; endSequence()                   /* set meanwhile: idle.wakeFully(); return; finally (the
                                                            * latch is SET: wakeUp leaves it) */
     :: ok ->
        gaveUp = false;
#if SLEEP_ORDER_BROKEN
        /* BROKEN ORDER: the injector is checked BEFORE the registration and its fence, so this read is no better
         * than a search's (WEAK_SEARCH: it may miss the job) */
        if
        :: injector > 0 -> gaveUp = true
#if WEAK_SEARCH
        :: injector > 0 -> skip
#endif
        :: else -> skip
        fi;
#endif
        do                                                 /* J1: the registration loop */
        :: gaveUp -> break
        :: !gaveUp ->
           atomic { wj = jec; wi = inactive; ws = sleeping };   /* long word = counters.load() */
           if
           :: wj != snap -> gaveUp = true                  /* JEC changed: wakePartly (below) */
           :: else ->
              atomic {                                     /* counters.tryAddSleepingThread(word): one CAS (J1) */
                if
                :: jec == wj && inactive == wi && sleeping == ws -> sleeping++; ok = true; own = true /* ownsCount */
                :: else -> ok = false
                fi
              };
              if :: ok -> break :: else -> skip fi
           fi
        od;
        atomic { wj = 0; wi = 0; ws = 0; ok = false };
        if
        :: gaveUp ->                                       /* idle.wakePartly; return; finally: */
           rounds = 0; snap = NO_SNAPSHOT;
           endSequence();
           atomic { if :: latchSt[L] == SLEEPING -> latchSt[L] = UNSET :: else -> skip fi }   /* latch.wakeUp() */
        :: else ->
           /* registered: the count is ours until the CAS to BLOCKED succeeds (J2) */
#if PREPARE_AFTER_REGISTER
           prepare();                                      /* (variant: PREPARING only after the registration CAS) */
#endif
           /* VarHandle.fullFence() (J5 SleepFence): on this TSO model the sleeper has nothing buffered, its CAS
            * above was a locked instruction */
#if FINAL_CHECK && !SLEEP_ORDER_BROKEN
           if
           :: injector > 0 -> skip                         /* J5 final check saw a job: return; the finally undoes our
                                                            * own count (J2's exception: undoOwnCount below) */
#if PROMOTE && FINAL_CHECK_SLOTS
           :: injector == 0 && PROMOTED(0) -> skip         /* LZ6: hasInjectedOrPrivateWork reads every worker's slots */
#endif
           :: else ->
#else
           if
           :: true ->                                      /* (variant: no final check here) */
#endif
              /* WorkerSleepState.blockIfUnclaimed(): CAS PREPARING -> BLOCKED (J6), clearing ownsCount (no call
               * between them in the code) */
              atomic { if :: st[me] == PREPARING -> st[me] = BLOCKED; own = false; ok = true :: else -> ok = false fi };
              if
              :: ok ->                                     /* J2: from BLOCKED on, the count is the claiming waker's */
                 st[me] == AWAKE                           /* park until the claiming waker lets us go (J6) */
              :: else -> skip                              /* NOTIFIED: a waker claimed us while PREPARING (J6); we
                                                            * will not block, the count stayed ours (undone below) */
              fi
           fi;
           rounds = 0;                                     /* idle.wakeFully() */
           endSequence();
           atomic { if :: latchSt[L] == SLEEPING -> latchSt[L] = UNSET :: else -> skip fi };  /* latch.wakeUp() */
           undoOwnCount()
        fi
     fi
  fi
}

/* JecSleep.noWorkFound: the yield rounds are abstracted away (they only delay); round SLEEPY announces, the next
 * round sleeps (ROUNDS_UNTIL_SLEEPING = ROUNDS_UNTIL_SLEEPY + 1, one more search in between) */
inline noWorkFound(L) {
  if
  :: rounds == 0 ->                                        /* announceSleepy: incrementJecIfActive, remember it */
     atomic { if :: jec % 2 == 1 -> jec = (jec + 1) % JEC_MOD :: else -> skip fi; snap = jec };
     rounds = 1
  :: else -> sleepStep(L)
  fi
}

/* IdleState.anyWorkVisible -> WorkerThread.anyWorkVisible: the injector (and this worker's private queue, not
 * modelled), then every deque, ours included: volatile reads, one at a time, all after the subInactiveThread RMW.
 * Not WEAK_SEARCH reads: the getAndAdd is a locked instruction (an SC fence on this side), and a poster that counted
 * on this worker read the counters before it in their total order (J3), after publishing its job (its fence, J5). */
inline anyWorkVisible() {
  more = (injector > 0);
  k = 0;
  do
  :: !more && k < W -> atomic { more = (dqTop[k] != dqBot[k] || PROMOTED(k)); k++ }  /* hasStealableWork */
  :: else -> break
  od
}

/* JecSleep.leaveIdle(idle, found): leaving the idle state, with a job (found) or because the latch was set.
 *   sleepers = counters.subInactiveThread(): an SC getAndAdd returning the old word's sleeping count (J3). If
 *   sleepers > 0:
 *   - found, A2 (the cascade): read whether more work stayed visible where the job came from (IdleState.
 *     moreWorkVisible -> WorkerThread.moreWorkAt(source), read after the RMW); if so wake min(sleepers, 2).
 *   - not found (latch exit), A4: if any work is visible anywhere (anyWorkVisible above), wake one.
 *   - found, and A2 saw nothing more at the source (HAND_ON_FIND=1, default): A4's rule too: if any work is visible
 *     anywhere, wake one. A poster may have counted on this worker as an awake idle searcher (Option B) for a job in
 *     another queue than the one the worker took; the worker now runs its job and may never search again (its
 *     latch is set by then: waitUntilCold returns after the job without an idle phase; or its job blocks outside
 *     Spindle). HAND_ON_FIND=0: A4 on latch exits only (counter-example with USER_BLOCK=1|2, INJ=2).
 *   OLD_LATCH_EXIT=1: the code before A4: a latch exit only decrements inactive and wakes nobody (the old workFound:
 *     A2's "more work where the job came from" is never true when no job was found); no hand-on after a find either. */
inline leaveIdle(found) {
#if OLD_LATCH_EXIT
  if
  :: !found -> atomic { inactive--; n = 0 }                /* old workFound: wakes nobody */
  :: else -> atomic { n = sleeping; inactive-- }
  fi;
#else
  atomic { n = sleeping; inactive-- };                     /* sleepers = subInactiveThread() */
#endif
  if
  :: n > 0 && found ->
     atomic {
       if
       :: src == SRC_INJECTOR -> more = (injector > 0)     /* registry.hasInjectedJobs() */
       :: else -> more = (dqTop[src] != dqBot[src] || PROMOTED(src)) /* that deque and slots (own: also the
                                                                       * broadcasts, not modelled) */
       fi;
       if
       :: more -> n = (n < 2 -> n : 2)                     /* wakeAnyThreads(min(sleepers, 2), CASCADE) */
       :: else -> n = 0
       fi
     };
#if HAND_ON_FIND && !OLD_LATCH_EXIT
     if
     :: n == 0 -> anyWorkVisible(); atomic { k = 0; n = (more -> 1 : 0) }   /* wakeAnyThreads(1, CASCADE) */
     :: else -> skip
     fi;
#endif
     wakeAnyThreads(n)                                     /* resets n, k */
  :: n > 0 && !found ->                                    /* A4 */
     anyWorkVisible();
     atomic { k = 0; n = (more -> 1 : 0) };                /* wakeAnyThreads(1, CASCADE) */
     wakeAnyThreads(n)
  :: else -> n = 0
  fi;
  atomic { more = false; src = 0 }
}

/* WorkerThread.waitUntilCold(latch) */
inline waitUntil(L) {
  leave = false;
  do
  :: leave -> break
  :: !leave && latchSt[L] == SET -> break
  :: !leave && latchSt[L] != SET ->
     popOwn(job);                                          /* local work first: takeLocalJob */
     if
     :: job != NONE -> runJob(job)
     :: else ->
        atomic { inactive++; rounds = 0; snap = NO_SNAPSHOT };  /* JecSleep.startLooking */
        do
        :: latchSt[L] == SET -> leaveIdle(false); leave = true; break     /* leaveIdle(idle, false) */
        :: else ->
           findWork(job);
           if
           :: job != NONE -> leaveIdle(true); runJob(job); break          /* leaveIdle(idle, true); execute */
           :: else -> noWorkFound(L)
           fi
        od
     fi
  od
}

proctype Worker(byte me) {
  byte job, rounds, snap, wj, wi, ws, awake, n, k, old, src, woke;
  bool ok, wasEmpty, gaveUp, leave, more, own;
  if
  :: me == 0 ->
#if USER_BLOCK == 2
     /* USER_BLOCK=2 (LatchExitWakeupTest): worker 0 runs a job J that waits, through Spindle (the worker loop: join()
      * of a pool CompletableFuture), for an event only an outside thread signals: latch EXT, set by process Setter
      * at any moment relative to the injections. Then J blocks worker 0 outside Spindle (a plain CountDownLatch)
      * for good. No join here (b is not a job of this variant). */
     waitUntil(EXT);
     extDone = true;
#else
#if PROMOTE
     /* LazyJoin.join(a, b) on worker 0: b latent in a frame, promoted at once (LZ8: a job's first join), then a */
     promote();
     (slot == NONE && !slotBuffered);                      /* a runs until somebody took b (see PROMOTE above) */
     waitUntil(JOIN);                                      /* reclaim fails (b was taken): wait for its latch (LZ7) */
#else
     /* Join.join(a, b) on worker 0: push b, run a, take b back or wait for its latch */
     pushInternal(JOB_B);
     popOwn(job);
     if
     :: job == JOB_B -> executed++; latchSt[JOIN] = SET    /* b taken back and run inline */
     :: else -> waitUntil(JOIN)
     fi;
#endif
     joinDone = true;
#endif
#if USER_BLOCK
     /* USER_BLOCK: the job now blocks its worker outside Spindle (I/O, a lock, a user latch): worker 0 never searches
      * again, so every job of this pool must run on the other workers. Legal for a job, and no job may then stay
      * unrun: whoever counted on worker 0 as an awake idle searcher must not be left relying on it (A4, H8). */
     userBlocked = true;
     false
#endif
  :: else -> skip
  fi;
  waitUntil(me)                                            /* run(): waitUntil(terminateLatch), never set here */
}

/* Registry.inject(job): queueWasEmpty, injector.add (a release store: buffered), then newInjectedJobs:
 * fence (J5 PushFence), newJobs. */
proctype Injector() {
  byte i, ws, wi, awake, n, k, woke;
  bool wasEmpty;
  i = 0;
  do
  :: i < INJ ->
     atomic {
       wasEmpty = (injector == 0 && !injBuffered);
       injKind[injTail] = (i == 0 -> JOB_INJ_SPAWN : JOB_INJ);
       injBuffered = true                                  /* PushJob: in the store buffer */
     };
#if POSTER_FENCE
     flushPosterStore();                                   /* VarHandle.fullFence(): drains the store buffer */
#endif
     /* newJobs: as the inline, but its CAS drains our store buffer */
     atomic {
       if
       :: jec % 2 == 0 -> if :: injBuffered -> injector++; injTail++; injBuffered = false :: else -> skip fi;
                          jec = (jec + 1) % JEC_MOD
       :: else -> skip
       fi;
       ws = sleeping; wi = inactive
     };
     if
     :: ws == 0 -> skip
     :: else ->
        awake = (wi > ws -> wi - ws : 0);
        if
        :: !wasEmpty -> n = 1; wakeAnyThreads(n)
        :: wasEmpty && awake < 1 -> n = 1; wakeAnyThreads(n)
        :: else -> skip
        fi
     fi;
     flushPosterStore();                                   /* at the latest before the next push (one buffer slot) */
     i++
  :: else -> break
  od
}

#if USER_BLOCK == 2
/* USER_BLOCK=2: an outside thread completes the future J waits for: WorkerLatch.set of EXT (wakes worker 0 if it
 * sleeps on it, L1), at any moment relative to the injections */
proctype Setter() {
  byte old, woke;
  setLatch(EXT, 0)
}
#endif

/* the hardware drains the poster's store buffer at any moment */
active proctype Drain() {
end: do
     :: injBuffered -> flushPosterStore()
     :: slotBuffered -> flushPromoterStore()
     od
}

/* timeout: nothing else can move. Then every job must have run and no latch owner may be stuck. */
active proctype Monitor() {
  byte k, n;
  timeout ->
  assert(injector == 0 && !injBuffered);
#if PROMOTE
  assert(slot == NONE && !slotBuffered);                   /* no promoted job slept through (LZ6) */
#endif
  k = 0;
  do
  :: k < W -> assert(dqTop[k] == dqBot[k]); k++
  :: else -> break
  od;
#if !MONITOR_JOBS_ONLY
#if USER_BLOCK == 2
  assert(extDone);                                         /* worker 0 not left asleep on its SET latch EXT */
  assert(executed == INJ + 1);                             /* the injected jobs, the child */
#else
  assert(joinDone);
  assert(executed == INJ + 2);                             /* b, the injected jobs, the child */
#endif
  k = 0; n = 0;                                            /* J2: each BLOCKED worker's count, and only those, remain */
  do
  :: k < W -> if :: st[k] == BLOCKED -> n++ :: else -> assert(st[k] == AWAKE) fi; k++
  :: else -> break
  od;
  assert(sleeping == n)
#endif
}

init {
  byte i;
  atomic {
    jec = 1;                                               /* any start value; odd: "active" */
    i = 0;
    do
    :: i < W -> run Worker(i); i++
    :: else -> break
    od;
    run Injector();
#if USER_BLOCK == 2
    run Setter();
#endif
    skip
  }
}
