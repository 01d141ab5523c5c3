/*
 * SLEEPY_WORKER sleep protocol (io.spindle.internal.sleep.SleepyWorkerSleep) as a Promela model for spin.
 * Seed: rayon-legacy-sleep-module.md (scenarios 1-3). Invariants S1..S6 and L1: internal/sleep/package-info.java.
 *
 * What is modelled: W workers running WorkerThread.waitUntilCold with one atomic search (own deque, steals, the
 * injector), worker 0 making a join (b pushed, taken back or waited for on a 4-state core latch), an outside thread
 * injecting INJ jobs, the first of which spawns a child. The state word: sleepy (0 = none, else index + 1) and the
 * asleep bit; the pool's one lock, its condition (modelled as the generation a sleeper waits to change) and the
 * generation. Memory is sequentially consistent (S2: every access to the word is SC; injections are volatile CASes).
 * The yield rounds are abstracted: round 0 tries to get sleepy, round 1 checks it is still sleepy, round 2 falls
 * asleep (ROUNDS_UNTIL_ASLEEP = ROUNDS_UNTIL_SLEEPY + 2; one search between each). A1's adaptive limit only decides how
 * many yield rounds come before round 0: the model starts there.
 *
 * Property (Monitor, at spin's timeout): when everything is blocked, every job ran, the join (USER_BLOCK=2: J's wait)
 * completed.
 *
 * Variants (spin -D...): W=2|3, INJ=1|2 and, each expected to give a counter-example:
 *   TICKLE_NEEDS_BIT=1   a tickle acts only if the asleep bit is set, not on a sleepy worker (scenario 2, S1/S5)
 *   CHECK_THEN_SLEEP=1   falling asleep checks "still sleepy", then stores the bit: not one CAS (scenario 2, S1)
 *   CAS_BEFORE_LOCK=1    the fall-asleep CAS happens before the sleeper holds the lock (scenario 3, S4)
 * and, expected to verify:
 *   USER_BLOCK=1|2       worker 0 leaves a latch wait, then blocks in user code for good (never searches again):
 *                        1 after its join (latch set by worker 1), 2 in a job J waiting through Spindle on latch EXT
 *                        that an outside thread sets at any moment (LatchExitWakeupTest); as in jec.pml. SLEEPY_WORKER's
 *                        leaveIdle owes nothing on a latch exit (only S6's stopBeingSleepy): a tickle wakes every
 *                        sleeper (S5), so no poster counts on one awake idle worker.
 */

#ifndef W
#define W 2
#endif
#ifndef INJ
#define INJ 1
#endif
#ifndef TICKLE_NEEDS_BIT
#define TICKLE_NEEDS_BIT 0
#endif
#ifndef CHECK_THEN_SLEEP
#define CHECK_THEN_SLEEP 0
#endif
#ifndef CAS_BEFORE_LOCK
#define CAS_BEFORE_LOCK 0
#endif
#ifndef USER_BLOCK
#define USER_BLOCK 0
#endif

#define CAP 3
#define NONE 0
#define JOB_B 1
#define JOB_INJ_SPAWN 2
#define JOB_INJ 3
#define JOB_CHILD 4
#define UNSET 0
#define SLEEPY 1
#define SLEEPING 2
#define SET 3
#define JOIN W
#define EXT (W + 1)           /* USER_BLOCK=2: the latch of job J's wait for an outside event (owner: worker 0) */
#define FREE 255

/* SleepyWorkerSleep.state: bits 63..1 = sleepy worker + 1, bit 0 = some worker asleep */
byte sleepyId;
bool asleepBit;
byte lockOwner = FREE;        /* SleepyWorkerSleep.lock */
byte generation;              /* SleepyWorkerSleep.generation (guarded by lock); wraps harmlessly mod 256 */

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
byte executed;

inline lock() { atomic { lockOwner == FREE -> lockOwner = me } }
inline unlock() { lockOwner = FREE }

/* SleepyWorkerSleep.tickle: SC load; if not AWAKE, swap to AWAKE; if the old word had the asleep bit, lock,
 * generation++, signalAll, unlock (S4, S5) */
inline tickle() {
  atomic {
#if TICKLE_NEEDS_BIT
    if :: asleepBit -> sleepyId = 0; asleepBit = false; wasBit = true :: else -> wasBit = false fi  /* BROKEN */
#else
    if
    :: sleepyId != 0 || asleepBit -> wasBit = asleepBit; sleepyId = 0; asleepBit = false  /* getAndSet(AWAKE) */
    :: else -> wasBit = false                                                             /* hot path: load only */
    fi
#endif
  };
  if
  :: wasBit -> atomic { lockOwner == FREE -> generation++ }   /* lock; generation++; signalAll; unlock */
  :: else -> skip
  fi;
  wasBit = false
}

/* WorkerLatch.set -> if it was SLEEPING: notifyWorkerLatchIsSet -> tickle */
inline setLatch(L) {
  atomic { old = latchSt[L]; latchSt[L] = SET };
  if :: old == SLEEPING -> tickle() :: else -> skip fi;
  old = 0
}

inline pushInternal(job) {    /* WorkerThread.push: deque.push, newInternalJobs -> tickle */
  atomic { dq[me * CAP + dqBot[me] % CAP] = job; dqBot[me]++ };
  tickle()
}

inline runJob(job) {
  executed++;
  if
  :: job == JOB_B -> setLatch(JOIN)
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

inline findWork(job) {        /* WorkerThread.findWork, one atomic step (see jec.pml) */
  atomic {
    popOwn(job);
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

/* SleepyWorkerSleep.leaveIdle(idle, foundWork) -> stopBeingSleepy (S6): CAS our id away, keeping the bit, if we
 * tried for the role in this idle period (IdleState.mayHoldSleepyRole, set before getSleepy's CAS). Nothing else,
 * also on a latch exit: every tickle wakes every sleeper (S5), so no poster counted on this worker alone. */
inline leaveIdle() {
  atomic { if :: mayHold && sleepyId == me + 1 -> sleepyId = 0 :: else -> skip fi };
  mayHold = false;
  rounds = 0
}

/* SleepyWorkerSleep.sleep (round ROUNDS_UNTIL_ASLEEP) */
inline sleepStep(L) {
  atomic { if :: latchSt[L] == UNSET -> latchSt[L] = SLEEPY; ok = true :: else -> ok = false fi };
  if
  :: !ok -> atomic { if :: sleepyId == me + 1 -> sleepyId = 0 :: else -> skip fi }; rounds = 0
  :: ok ->
#if CAS_BEFORE_LOCK
     /* BROKEN: the fall-asleep CAS before holding the lock */
     atomic { if :: sleepyId == me + 1 -> sleepyId = 0; asleepBit = true; fell = true :: else -> fell = false fi };
#endif
     lock();
     atomic { if :: latchSt[L] == SLEEPY -> latchSt[L] = SLEEPING; ok = true :: else -> ok = false fi };
     if
     :: !ok -> atomic { if :: sleepyId == me + 1 -> sleepyId = 0 :: else -> skip fi }; unlock(); rounds = 0
     :: ok ->
#if !CAS_BEFORE_LOCK
        /* word = load(); if not still sleepy: latch.wakeUp, return (scenario 2) */
        ok = (sleepyId == me + 1);
        if
        :: !ok -> fell = false
        :: ok ->
#if CHECK_THEN_SLEEP
           atomic { sleepyId = 0; asleepBit = true; fell = true }   /* BROKEN: a store after the check */
#else
           atomic {                                                 /* CAS(word naming us sleepy -> SLEEPING) */
             if
             :: sleepyId == me + 1 -> sleepyId = 0; asleepBit = true; fell = true
             :: else -> fell = false
             fi
           }
#endif
        fi;
#endif
        ourGen = generation;           /* read under the lock, before waiting (S4) */
        if
        :: fell ->
           atomic { lockOwner = FREE; waiting[me] = true };         /* awaitUninterruptibly releases the lock */
           atomic { generation != ourGen -> waiting[me] = false };  /* ... until a tickle moved the generation */
           lock()
        :: else -> skip
        fi;
        unlock();
        atomic { if :: latchSt[L] == SLEEPING -> latchSt[L] = UNSET :: else -> skip fi };
        rounds = 0; fell = false; ok = false; ourGen = 0
     fi
  fi
}

inline noWorkFound(L) {
  if
  :: rounds == 0 ->                                        /* getSleepy: CAS if nobody is sleepy (S1) */
     mayHold = true;                                       /* S6's flag, before the CAS */
     atomic { if :: sleepyId == 0 || sleepyId == me + 1 -> sleepyId = me + 1; rounds = 1 :: else -> skip fi }
  :: rounds == 1 ->                                        /* stillSleepy, else start over (scenario 2) */
     atomic { if :: sleepyId == me + 1 -> rounds = 2 :: else -> rounds = 0 fi }
  :: rounds == 2 -> sleepStep(L)
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
        rounds = 0;                                        /* startLooking */
        do
        :: latchSt[L] == SET -> leaveIdle(); leave = true; break             /* leaveIdle(idle, false) */
        :: else ->
           findWork(job);
           if
           :: job != NONE -> leaveIdle(); runJob(job); break                 /* leaveIdle(idle, true) */
           :: else -> noWorkFound(L)
           fi
        od
     fi
  od
}

bool waiting[W];

proctype Worker(byte me) {
  byte job, rounds, k, old, ourGen;
  bool ok, fell, wasBit, leave, mayHold;
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
  byte i, me;
  bool wasBit;
  me = W;
  do
  :: i < INJ ->
     atomic { injKind[injTail] = (i == 0 -> JOB_INJ_SPAWN : JOB_INJ); injTail++; injector++ };  /* CLQ CAS */
     tickle();                                             /* newInjectedJobs */
     i++
  :: else -> break
  od
}

#if USER_BLOCK == 2
/* USER_BLOCK=2: an outside thread completes the future J waits for: WorkerLatch.set of EXT, at any moment */
proctype Setter() {
  byte old;
  bool wasBit;
  setLatch(EXT)
}
#endif

active proctype Monitor() {
  byte k;
  timeout ->
  assert(injector == 0);
  do
  :: k < W -> assert(dqTop[k] == dqBot[k]); k++
  :: else -> break
  od;
#if USER_BLOCK == 2
  assert(extDone);                                         /* worker 0 not left asleep on its SET latch EXT */
  assert(executed == INJ + 1)                              /* the injected jobs, the child */
#else
  assert(joinDone);
  assert(executed == INJ + 2)                              /* b, the injected jobs, the child */
#endif
}

init {
  byte i;
  atomic {
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
