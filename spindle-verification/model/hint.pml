/*
 * HINT_PIPE sleep protocol (io.spindle.internal.sleep.HintPipeSleep) as a Promela model for spin.
 * Seed: emper-pipe-sleep-strategy.md. Invariants H1..H7 and L1: internal/sleep/package-info.java.
 *
 * What is modelled: W workers running WorkerThread.waitUntilCold with one atomic search, worker 0 making a join (b on
 * its deque; the latch's setter wakes only the owner: H5 wake request), an outside thread injecting INJ jobs
 * (notifyAnywhere, H3 credit), internal pushes (notifyInternal). The sleepers count; the OS pipe as a channel of
 * PIPE_CAP hint codes (INJECTOR_CODE, or the pusher's index) whose write BLOCKS when full (EMPER's blocking write;
 * Spindle's sink is non-blocking and yields, H2, which would turn the jam below into a livelock instead); the
 * per-worker "read in flight", blocked flag, wake request and hint read (IdleState's hint). One simplification: any
 * blocked worker may read the pipe (Spindle lets one watcher at a time select on it and hands the watch over, H6; the
 * model lets the channel pick the reader). Memory is sequentially consistent
 * (the count is only touched by getAndAdd/CAS; injections are volatile CASes). Leaving the idle state (with a job, or
 * because the latch was set) is HintPipeSleep.leaveIdle: forward a hint read and not followed (H8), retract, reset.
 *
 * Property (Monitor, at spin's timeout): when everything is blocked, every job ran, the join (USER_BLOCK=2: J's
 * wait) completed, and no notifier is stuck writing to the pipe.
 *
 * Variants (spin -D...): W=2|3, INJ=1|2|3, PIPE_CAP (default W: the pipe holds one hint per worker, H2), and
 *   NOTIFIER_NO_DECREMENT=1  EMPER's note: notifiers do NOT take the sleepers they wake off the count; a woken sleeper
 *                            decrements it itself. Several notifiers then write hints for the same sleepers, the pipe
 *                            fills up with hints nobody reads and a notifier blocks in write: deadlock (counter-example)
 *   NO_CREDIT=1              notifyAnywhere does not go below zero (no H3 credit) AND the registration is not followed
 *                            by a search / final check (H4): the injected job posted just before is slept through
 *   USER_BLOCK=1|2           worker 0 leaves a latch wait, then blocks in user code for good (never searches again):
 *                            1 after its join (latch set by worker 1), 2 in a job J waiting through Spindle on latch
 *                            EXT that an outside thread sets at any moment (LatchExitWakeupTest); as in jec.pml
 *                            -> must verify (with H8)
 *   OLD_LATCH_EXIT=1         the code before H8: leaving the idle state drops a hint read and not followed
 *                            -> with USER_BLOCK=1|2, counter-example: both workers registered and blocked; the
 *                            injection takes one registration off the count and writes one hint; worker 0 reads it,
 *                            its latch is set meanwhile, it leaves without searching and drops the hint; worker 1,
 *                            still counted, waits for a hint nobody writes; the job stays in the injector
 *   IO=1                     H9 (docs/DESIGN.md §6, EMPER "sound without the completer"): worker W-1 holds one pending
 *                            IO operation; the Kernel makes it ready at any moment. Its wait (IoPoller's select) also
 *                            returns on its own ready IO (level-triggered, like a ready key): it leaves with no hint
 *                            (OWN_EVENTS_CODE) and retracts its registration if the count is positive, else keeps
 *                            readInFlight (a notifier took it: its hint is read at the next block, H2). Its next search
 *                            first handles the ready IO (IoPoller.processReady): the operation's job goes onto its
 *                            deque (an internal push). No other thread posts the completion: the job must still run
 *                            (Monitor) and hints never outnumber readers (H2's assert)  -> must verify
 *   OWN_IO_DROPS_REGISTRATION=1  with IO=1, the own-IO exit decrements the count and forgets its read whatever the count
 *                            (as if its registration were always still untaken) -> counter-example: a notifier took
 *                            the registration and writes a hint nobody owes (H2), the count goes negative
 * The fix (H8, default): leaveIdle forwards an unused hint as its notifier would have sent it: the injector's by
 * notifyAnywhere(1, INJECTOR_CODE) (a credit if nobody is registered, H3), a deque's by notifyInternal(1, index).
 * A hint is used (IdleState.takeHint) by the search once no local job came first; IdleState.reset drops it.
 */

#ifndef W
#define W 2
#endif
#ifndef INJ
#define INJ 1
#endif
#ifndef PIPE_CAP
#define PIPE_CAP W
#endif
#ifndef NOTIFIER_NO_DECREMENT
#define NOTIFIER_NO_DECREMENT 0
#endif
#ifndef NO_CREDIT
#define NO_CREDIT 0
#endif
#ifndef USER_BLOCK
#define USER_BLOCK 0
#endif
#ifndef OLD_LATCH_EXIT
#define OLD_LATCH_EXIT 0
#endif
#ifndef IO
#define IO 0
#endif
#ifndef OWN_IO_DROPS_REGISTRATION
#define OWN_IO_DROPS_REGISTRATION 0
#endif

#define CAP 3
#define NONE 0
#define JOB_B 1
#define JOB_INJ_SPAWN 2
#define JOB_INJ 3
#define JOB_CHILD 4
#define JOB_IO 5              /* IO=1: the job of worker W-1's finished IO operation (IO1) */
#define IO_OWNER (W - 1)
#define UNSET 0
#define SLEEPY 1
#define SLEEPING 2
#define SET 3
#define JOIN W
#define EXT (W + 1)           /* USER_BLOCK=2: the latch of job J's wait for an outside event (owner: worker 0) */
#define INJ_CODE W            /* HintPipeSleep.INJECTOR_CODE; a hint 0..W-1 names the deque of a push */
#define NO_HINT 255           /* IdleState.NO_HINT */

short sleepers;               /* HintPipeSleep.sleepers: negative = credit (H3) */
chan pipe = [PIPE_CAP] of { byte };   /* the hint pipe: one hint code per entry (INJ_CODE, or a pusher's index) */
bool blocked[W];              /* PipeSleeper.blocked */
bool wakeReq[W];              /* PipeSleeper.wakeRequested */
bool inFlight[W];             /* PipeSleeper.readInFlight: counted, or a hint is on its way: owes one read (H2) */
byte writing;                 /* notifiers currently inside a pipe write */
hidden byte owing, kk;        /* scratch for the H2 check */

byte injector;
byte injKind[INJ];
byte injHead;
byte injTail;
byte dq[W * CAP];
byte dqTop[W];
byte dqBot[W];
byte latchSt[W + 2];
bool joinDone;
bool extDone;                 /* USER_BLOCK=2: J's wait for the outside event returned */
bool userBlocked;
bool ioPending = (IO != 0); /* IO=1: worker IO_OWNER holds one operation not yet handled (IoPoller.pendingOps) */
bool ioReady;                 /* IO=1: the Kernel made it ready (a ready key in IO_OWNER's selector) */
byte executed;

/* writeHints(count, code): blocking writes (see header) */
inline writeHints(cnt, code) {
  writing++;
  do
  :: cnt > 0 ->
     atomic {
       pipe!code; cnt--;
       /* H2: the hints in the pipe never outnumber the workers that owe a read; otherwise hints pile up unread and
        * a bounded pipe jams (EMPER's deadlock: a notifier blocks in write) */
       owing = 0; kk = 0;
       do
       :: kk < W -> owing = owing + (inFlight[kk] -> 1 : 0); kk++
       :: else -> break
       od;
       assert(len(pipe) <= owing);
       owing = 0; kk = 0
     }
  :: else -> break
  od;
  writing--
}

/* HintPipeSleep.notifyInternal(n = 1, code): load; if > 0, CAS the sleepers it wakes off the count (H1), write hints */
inline notifyInternal(code) {
#if NOTIFIER_NO_DECREMENT
  atomic { toWake = (sleepers > 0 -> 1 : 0) };                /* EMPER bug: observe, do not take */
#else
  atomic { if :: sleepers > 0 -> sleepers--; toWake = 1 :: else -> toWake = 0 fi }
#endif
  writeHints(toWake, code)
}

/* HintPipeSleep.notifyAnywhere(n = 1, INJECTOR_CODE): always takes effect, the count may go to -1 (credit, H3) */
inline notifyAnywhere() {
  atomic {
#if NOTIFIER_NO_DECREMENT
    toWake = (sleepers > 0 -> 1 : 0)
#elif NO_CREDIT
    if :: sleepers > 0 -> sleepers--; toWake = 1 :: else -> toWake = 0 fi
#else
    if
    :: sleepers > -1 -> toWake = (sleepers > 0 -> 1 : 0); sleepers--
    :: else -> toWake = 0
    fi
#endif
  };
  writeHints(toWake, INJ_CODE)
}

/* HintPipeSleep.wakeWorker: request, then (if blocked) unpark / selector.wakeup (H5) */
inline wakeWorker(i) { wakeReq[i] = true }

inline setLatch(L, owner) {   /* WorkerLatch.set: SLEEPING before -> notifyWorkerLatchIsSet -> wakeWorker(owner) */
  atomic { old = latchSt[L]; latchSt[L] = SET };
  if :: old == SLEEPING -> wakeWorker(owner) :: else -> skip fi;
  old = 0
}

inline pushInternal(job) {
  atomic { dq[me * CAP + dqBot[me] % CAP] = job; dqBot[me]++ };
  notifyInternal(me)                                       /* newInternalJobs(pusherIndex = me) */
}

inline runJob(job) {
  executed++;
  if
  :: job == JOB_B -> setLatch(JOIN, 0)
  :: job == JOB_INJ_SPAWN -> pushInternal(JOB_CHILD)
  :: else -> skip
  fi
}

inline popOwn(job) {
  atomic {
    if
    :: dqTop[me] != dqBot[me] -> dqBot[me]--; job = dq[me * CAP + dqBot[me] % CAP]; dq[me * CAP + dqBot[me] % CAP] = NONE
    :: else -> job = NONE
    fi
  }
}

/* IO=1: IoPoller.processReady at the start of WorkerThread.findWork: the owner steps its ready operation; the
 * finished operation's job goes onto its own deque (PoolIoImpl.queueFinished: WorkerThread.push, notifyInternal) */
inline processReady() {
  if
  :: atomic { me == IO_OWNER && ioPending && ioReady -> ioPending = false } -> pushInternal(JOB_IO)
  :: else -> skip
  fi
}

/* WorkerThread.findWork, one atomic step (see jec.pml): own deque; then idle.takeHint() (the hint is used: cleared;
 * where it points is searched anyway below), the other deques, the injector */
inline findWork(job) {
  atomic {
    popOwn(job);
    if :: job == NONE -> hint = NO_HINT :: else -> skip fi;   /* takeHint, only if no local job came first */
    k = 0;
    do
    :: job == NONE && k < W ->
       if
       :: k != me && dqTop[k] != dqBot[k] -> job = dq[k * CAP + dqTop[k] % CAP]; dq[k * CAP + dqTop[k] % CAP] = NONE;
                                             dqTop[k]++
       :: else -> skip
       fi;
       k++
    :: else -> break
    od;
    k = 0;
    if
    :: job == NONE && injector > 0 -> job = injKind[injHead]; injHead++; injector--
    :: else -> skip
    fi
  }
}

/* HintPipeSleep.retract: withdraw an untaken registration (count > 0), else a hint is on its way: keep owing it */
inline retract() {
  atomic { if :: inFlight[me] && sleepers > 0 -> sleepers--; inFlight[me] = false :: else -> skip fi }
}

/* HintPipeSleep.leaveIdle(idle, foundWork): found a job, or the latch was set.
 * H8 (default): a hint read and not followed (the latch was set before the search took it, or a local job came first)
 * is forwarded as its notifier would have sent it: the injector's hint by notifyAnywhere(1, INJECTOR_CODE), a deque's
 * by notifyInternal(1, that index). That notifier took our registration off the count (H1), so nobody else was woken
 * for its job. OLD_LATCH_EXIT=1: the code before H8: the hint is dropped (and IdleState.reset kept it). Then retract
 * our registration if still counted, and IdleState.reset (drops the hint). */
inline leaveIdle() {
#if !OLD_LATCH_EXIT
  if
  :: hint == INJ_CODE -> hint = NO_HINT; notifyAnywhere()
  :: hint != INJ_CODE && hint != NO_HINT -> old = hint; hint = NO_HINT; notifyInternal(old); old = 0
  :: else -> skip
  fi;
#endif
#if NOTIFIER_NO_DECREMENT
  atomic { if :: owesDecrement -> sleepers--; owesDecrement = false :: else -> skip fi };  /* "on wake-up" */
#endif
  retract();
  rounds = 0; hint = NO_HINT                               /* idle.reset() */
}

/* HintPipeSleep.sleep: the latch CASes, blocked, final check, then block on the pipe or a wake request */
inline sleepStep(L) {
  wakeReq[me] = false;                                     /* clearWakeRequest (H5) */
  atomic { if :: latchSt[L] == UNSET -> latchSt[L] = SLEEPY; ok = true :: else -> ok = false fi };
  if
  :: ok -> atomic { if :: latchSt[L] == SLEEPY -> latchSt[L] = SLEEPING; ok = true :: else -> ok = false fi }
  :: else -> skip
  fi;
  if
  :: !ok -> rounds = 0                                     /* latch set: leaveIdle will retract */
  :: ok ->
     blocked[me] = true;
#if !NO_CREDIT
     if
     :: injector > 0 -> got = false                        /* H5's final check */
     :: else ->
#else
     if
     :: true ->
#endif
        if                                                 /* block until one of: */
        :: atomic { inFlight[me] && nempty(pipe) -> pipe?hint; got = true }   /* a hint (we owe a read, H2) */
        :: atomic { wakeReq[me] -> got = false }                        /* a wake request (H5) */
#if IO
        :: atomic { me == IO_OWNER && ioPending && ioReady -> got = false; ownIo = true }  /* its own IO (H9) */
#endif
        fi
     fi;
     blocked[me] = false;
     atomic { if :: latchSt[L] == SLEEPING -> latchSt[L] = UNSET :: else -> skip fi };
     if
     :: got -> inFlight[me] = false;
#if NOTIFIER_NO_DECREMENT
        owesDecrement = true                               /* EMPER bug: the woken sleeper decrements, later */
#else
        skip
#endif
#if OWN_IO_DROPS_REGISTRATION
     :: !got && ownIo -> atomic { sleepers--; inFlight[me] = false }  /* BROKEN: drops it even if a notifier took it */
     :: !got && !ownIo -> retract()
#else
     :: else -> retract()                                 /* a wake request, or its own IO (H9): same retraction */
#endif
     fi;
     rounds = 0; got = false; ok = false; ownIo = false
  fi
}

inline noWorkFound(L) {
  if
  :: rounds == 0 ->                                        /* register (the seed's "atomic increment") */
     atomic {
       if
       :: inFlight[me] -> rounds = 1                           /* still owed: H2 */
#if NO_CREDIT
       :: else -> sleepers++; inFlight[me] = true; rounds = 1  /* BROKEN: sleeps right away (below), no search (H4) */
#else
       :: else ->
          if
          :: sleepers < 0 -> sleepers++                    /* a credit (H3): do not sleep, search again */
          :: else -> sleepers++; inFlight[me] = true; rounds = 1
          fi
#endif
       fi
     };
#if NO_CREDIT
     if :: rounds == 1 -> sleepStep(L) :: else -> skip fi
#else
     skip
#endif
  :: rounds >= 1 -> sleepStep(L)
  fi
}

inline waitUntil(L) {
  leave = false;
  do
  :: leave -> break
  :: !leave && latchSt[L] == SET -> break
  :: !leave && latchSt[L] != SET ->
     popOwn(job);
     if
     :: job != NONE -> runJob(job)
     :: else ->
        rounds = 0;
        do
        :: latchSt[L] == SET -> leaveIdle(); leave = true; break             /* leaveIdle(idle, false) */
        :: else ->
#if IO
           processReady();
#endif
           findWork(job);
           if
           :: job != NONE -> leaveIdle(); runJob(job); break                 /* leaveIdle(idle, true) */
           :: else -> noWorkFound(L)
           fi
        od
     fi
  od
}

proctype Worker(byte me) {
  byte job, rounds, k, old, toWake, hint = NO_HINT;
  bool ok, got, leave, owesDecrement, ownIo;
  if
  :: me == 0 ->
#if USER_BLOCK == 2
     /* USER_BLOCK=2: job J waits through Spindle for latch EXT, which the outside thread Setter sets (see jec.pml) */
     waitUntil(EXT);
     extDone = true;
#else
     pushInternal(JOB_B);
     popOwn(job);
     if
     :: job == JOB_B -> executed++; latchSt[JOIN] = SET
     :: else -> waitUntil(JOIN)
     fi;
     joinDone = true;
#endif
#if USER_BLOCK
     /* USER_BLOCK: the job now blocks worker 0 outside Spindle for good (see jec.pml) */
     userBlocked = true;
     false
#endif
  :: else -> skip
  fi;
  waitUntil(me)
}

proctype Injector() {
  byte i, toWake;
  do
  :: i < INJ ->
     atomic { injKind[injTail] = (i == 0 -> JOB_INJ_SPAWN : JOB_INJ); injTail++; injector++ };
     notifyAnywhere();                                     /* newInjectedJobs */
     i++
  :: else -> break
  od
}

#if IO
/* IO=1: the kernel: worker IO_OWNER's operation becomes ready at any moment (no completer thread posts it) */
proctype Kernel() {
  ioReady = true
}
#endif

#if USER_BLOCK == 2
/* USER_BLOCK=2: an outside thread completes the future J waits for: WorkerLatch.set of EXT, at any moment */
proctype Setter() {
  byte old;
  setLatch(EXT, 0)
}
#endif

active proctype Monitor() {
  byte k;
  timeout ->
  assert(writing == 0);                                    /* no notifier stuck on a full pipe */
  assert(injector == 0);
  do
  :: k < W -> assert(dqTop[k] == dqBot[k]); k++
  :: else -> break
  od;
#if USER_BLOCK == 2
  assert(extDone);                                         /* worker 0 not left asleep on its SET latch EXT */
  assert(executed == INJ + 1 + IO)                         /* the injected jobs, the child, the IO job */
#else
  assert(joinDone);
  assert(executed == INJ + 2 + IO)                         /* b, the injected jobs, the child, the IO job */
#endif
  assert(!ioPending)                                       /* IO=1: the ready operation was handled */
}

init {
  byte i;
  atomic {
    do
    :: i < W -> run Worker(i); i++
    :: else -> break
    od;
    run Injector();
#if IO
    run Kernel();
#endif
#if USER_BLOCK == 2
    run Setter();
#endif
    skip
  }
}
