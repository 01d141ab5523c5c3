package io.spindle;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.spindle.internal.registry.WorkerThread;

/**
 * The child JVM of {@link FirstUseUnderFullHeapTest}: runs a pool's completion and wake-up paths for the first time
 * in this JVM while the heap is full (issue 28, item 2), with no warm-up: the first pool built in this JVM is the one
 * whose operation fills the heap. {@link ErrorSafetyChild} warms its paths up first; this child must not.
 *
 * <p>Usage: {@code FirstUseChild <strategy> [case,case,...]}, strategy a {@link SleepStrategy} name, cases from
 * {@link #CASES} (default: all, in that order). Each case builds a fresh pool of that strategy, runs its operation from
 * this (outside) thread, and releases the heap only after the operation returned or threw; then the pool must still
 * run a job, and {@code close()} must return with the pool terminated (which needs every count the operation's jobs
 * held to have gone back). Prints {@value #OK_LINE} and exits 0 if every case ended with a normal return or an
 * {@link OutOfMemoryError} and all of that held; exits {@value #EXIT_INCONCLUSIVE} if the join case was inconclusive
 * and nothing else went wrong, 1 otherwise. A case that hangs never returns: the parent's
 * timeout turns that into a failure with a thread dump. The parent runs each case in a JVM of its own: a case run
 * after another would find some of its paths linked by the one before (install sets a caller's latch; join also wakes
 * a worker asleep on a join's latch; scope also decrements a count latch), and so could pass without E6.
 *
 * <p>Cases, each with a heap of about 64 MiB ({@code -Xmx64m}):
 * <ul>
 *   <li>{@code install}: an {@code install} whose op fills the heap and throws the OutOfMemoryError; the heap stays
 *       full until install returned. The completion (the caller's latch set, the pool's count released) runs with
 *       the heap full.</li>
 *   <li>{@code join}: on two workers, a join whose second half is stolen, waits while its owner goes to sleep on the
 *       join's latch, then fills the heap and throws; the heap stays full until the join (and the install around it)
 *       returned. The thief's wake-up of the owner runs with the heap full. The half waits until its owner's sleep
 *       count went up, and the case fails as inconclusive unless the owner's wake-up count went up too.</li>
 *   <li>{@code scope}: on one worker, {@code scope(s -> { for (;;) s.spawn(() -> {}); })} from outside: the queued
 *       tasks fill the heap until a spawn throws; every task's count decrement (and the body's) may then run with the
 *       heap full.</li>
 *   <li>{@code takeback}: on one worker, a scope from outside whose body spawns one task (queued on the worker's
 *       deque) and then fills the heap and throws: the scope's end takes the task back, the deque's pop of its last
 *       element, whose CAS nothing else runs on one worker. Before E6 linked the deque (and its I6 rollback) that
 *       link threw after the pop had moved bottom, the task was lost and the scope hung.</li>
 * </ul>
 * Code that runs while the heap is full only stores primitives and preallocated references and calls nothing that
 * allocates; everything that allocates (messages) runs after the hoard was dropped.
 */
public final class FirstUseChild {
    static final String OK_LINE = "FIRST-USE OK";
    static final List<String> CASES = List.of("install", "join", "scope", "takeback");
    /**
     * The exit status when every problem was an inconclusive run (the join case's steal or sleep did not happen in
     * time, as on a loaded machine): nothing failed and nothing was tested; the parent runs the child again.
     */
    static final int EXIT_INCONCLUSIVE = 3;
    private static final String INCONCLUSIVE = "inconclusive:";

    /** How long the stolen half waits, once started, before it fills the heap: time for its owner to fall asleep. */
    private static final long OWNER_SLEEP_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** How long the join's first half waits for a thief before it gives up (then b runs inline: case inconclusive). */
    private static final long STEAL_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** How long the stolen half waits at most for its owner to fall asleep (then the case is inconclusive). */
    private static final long OWNER_ASLEEP_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

    /** One link of the hoard: a chunk of heap. */
    private static final class Chunk {
        final long[] data;
        final Chunk next;

        Chunk(long[] data, Chunk next) {
            this.data = data;
            this.next = next;
        }
    }

    /** Everything a case fills the heap with; dropped only by the main thread, after the case's operation ended. */
    private static volatile Chunk hoard;

    /**
     * Fills the heap until even the smallest chunk cannot be allocated, then throws that OutOfMemoryError (the hoard
     * keeps everything: the heap stays full).
     */
    static void fillHeapUntilOom() {
        int longs = 1 << 15; // 256 KiB
        while (true) {
            try {
                hoard = new Chunk(new long[longs], hoard);
            } catch (OutOfMemoryError e) {
                if (longs == 1) {
                    throw e;
                }
                longs = Math.max(1, longs >>> 3);
            }
        }
    }

    // ---- join: flags only (volatile primitives: nothing allocates) ----------------------------------------------------

    private static volatile Thread joinOwner;
    private static volatile boolean bStarted;
    private static volatile boolean bStolen;
    private static volatile boolean bNotStolenInTime;
    /** The join case's pool, and its owner's worker index and sleep counters as its first half started. */
    private static volatile ThreadPool joinPool;
    private static volatile int ownerIndex = -1;
    private static volatile long ownerSleepsAtStart;
    private static volatile long ownerWakeupsAtStart;

    private static WorkerStats ownerStats() {
        return joinPool.stats().workers().get(ownerIndex); // allocates: called only before the heap fills, or after
    }

    /**
     * Notes the join's owner and its sleep counters, on the owner, before its join pushes the second half: a thief
     * may start that half before the first half runs, and reads them (it read index -1 once when the first half
     * set them).
     */
    private static void noteJoinOwner() {
        joinOwner = Thread.currentThread();
        ownerIndex = WorkerThread.current().index();
        WorkerStats atStart = ownerStats(); // the owner is running: any wake-up counted later ended the join's sleep
        ownerSleepsAtStart = atStart.sleeps();
        ownerWakeupsAtStart = atStart.wakeups();
    }

    private static void awaitStolenHalf() {
        long start = System.nanoTime();
        while (!bStarted) {
            if (System.nanoTime() - start > STEAL_WAIT_NANOS) {
                bNotStolenInTime = true;
                return; // the join takes b back and runs it inline
            }
            LockSupport.parkNanos(50_000L);
        }
        // return at once: the owner goes to wait for b on the join's latch and, while b waits, falls asleep on it
    }

    private static void stolenHalfFillsHeap() {
        bStolen = Thread.currentThread() != joinOwner;
        bStarted = true;
        if (bStolen) {
            // Until the owner went to sleep (on the join's latch: it runs nothing else), then a little longer for
            // it to block; the parent's check of its wake-up count says whether it did.
            long start = System.nanoTime();
            while (ownerStats().sleeps() == ownerSleepsAtStart
                    && System.nanoTime() - start < OWNER_ASLEEP_WAIT_NANOS) {
                LockSupport.parkNanos(1_000_000L);
            }
            long asleep = System.nanoTime();
            while (System.nanoTime() - asleep < OWNER_SLEEP_WAIT_NANOS) {
                LockSupport.parkNanos(1_000_000L);
            }
        }
        fillHeapUntilOom();
    }

    // ---- scope ---------------------------------------------------------------------------------------------------------

    private static void spawnForever(Scope s) {
        Runnable nothing = FirstUseChild::nothing; // linked now, with the heap not yet full
        for (;;) {
            s.spawn(nothing);
        }
    }

    private static void nothing() {
    }

    // ---- takeback -----------------------------------------------------------------------------------------------------

    /**
     * A scope body on the only worker: one spawn, queued on this worker's deque, then the heap fills and the body
     * throws. The scope's end takes the task back: the deque's pop of its last element, its CAS, with the heap full.
     */
    private static void spawnOneThenFill(Scope s) {
        s.spawn(FirstUseChild::nothing);
        fillHeapUntilOom();
    }

    // ---- the driver ----------------------------------------------------------------------------------------------------

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2) {
            System.out.println("usage: FirstUseChild <strategy> [case,...]; cases: " + CASES);
            System.exit(2);
        }
        SleepStrategy strategy = SleepStrategy.valueOf(args[0]);
        List<String> cases = args.length == 2 ? Arrays.asList(args[1].split(",")) : CASES;
        System.out.println("child: strategy=" + strategy + " cases=" + cases + " java="
                + System.getProperty("java.version") + " maxHeap=" + Runtime.getRuntime().maxMemory() / (1 << 20)
                + "MiB");
        List<String> problems = new ArrayList<>();
        for (String c : cases) {
            if (!CASES.contains(c)) {
                System.out.println("unknown case " + c);
                System.exit(2);
            }
            System.out.println("case " + c + ": start");
            System.out.flush();
            runCase(c, strategy, problems);
        }
        if (problems.isEmpty()) {
            System.out.println(OK_LINE + " (" + strategy + ")");
            System.out.flush();
            System.exit(0);
        }
        boolean onlyInconclusive = problems.stream().allMatch(p -> p.contains(INCONCLUSIVE));
        System.out.println("FIRST-USE FAILED (" + strategy + "): " + problems);
        System.out.flush();
        System.exit(onlyInconclusive ? EXIT_INCONCLUSIVE : 1);
    }

    private static void runCase(String c, SleepStrategy strategy, List<String> problems) {
        int threads = c.equals("join") ? 2 : 1;
        ThreadPool pool = ThreadPool.builder().threads(threads).sleepStrategy(strategy).build();
        joinPool = pool;
        Throwable thrown = null;
        try {
            switch (c) {
                case "install":
                    pool.install(() -> {
                        fillHeapUntilOom();
                        return null;
                    });
                    break;
                case "join":
                    pool.install(() -> {
                        noteJoinOwner();
                        pool.join(FirstUseChild::awaitStolenHalf, FirstUseChild::stolenHalfFillsHeap);
                        return null;
                    });
                    break;
                case "scope":
                    pool.scope(FirstUseChild::spawnForever);
                    break;
                case "takeback":
                    pool.scope(FirstUseChild::spawnOneThenFill);
                    break;
                default:
                    throw new AssertionError(c);
            }
        } catch (Throwable t) {
            thrown = t;
        }
        hoard = null; // the operation ended: only now is the heap released
        System.gc();
        String outcome = thrown == null ? "returned" : "threw " + thrown;
        System.out.println("case " + c + ": " + outcome
                + (c.equals("join") ? " (b stolen: " + bStolen + ", not stolen in time: " + bNotStolenInTime + ")"
                        : ""));
        if (c.equals("join") && !bStolen) {
            // b ran on its owner: no thief set the join's latch, so the case tested nothing of what it is there for
            problems.add(c + ": " + INCONCLUSIVE + " the second half was not stolen (not stolen in time: "
                    + bNotStolenInTime + ")");
        }
        if (c.equals("join") && bStolen) {
            // The case is there for the thief's wake-up of its sleeping owner: make sure it happened (a wake-up is
            // counted by the woken worker, for a sleep another thread ended; nothing but the join's latch could).
            WorkerStats after = ownerStats();
            System.out.println("case join: owner worker " + ownerIndex + " sleeps " + ownerSleepsAtStart + " -> "
                    + after.sleeps() + ", wake-ups " + ownerWakeupsAtStart + " -> " + after.wakeups());
            if (after.wakeups() <= ownerWakeupsAtStart) {
                problems.add(c + ": " + INCONCLUSIVE + " the owner was never woken from a sleep during the join");
            }
        }
        if (thrown != null && !(thrown instanceof OutOfMemoryError)) {
            problems.add(c + ": unexpected failure " + thrown);
            thrown.printStackTrace(System.out);
        }
        // The pool is still usable: a job runs and its result comes back (E5: the workers survived the failures).
        Integer answer = pool.install(() -> 42);
        if (answer == null || answer != 42) {
            problems.add(c + ": the pool is not usable after the failure: install returned " + answer);
        }
        // close() shuts down and waits for termination, which needs every count the operation's jobs held to have
        // gone back (a scope task whose decrement failed would keep the pool's count too): a hang is the parent's
        // timeout, with this JVM's threads in its report.
        pool.close();
        if (!pool.isTerminated()) {
            problems.add(c + ": close() returned but the pool is not terminated: " + pool);
        }
        System.out.println("case " + c + ": done");
        System.out.flush();
    }
}
