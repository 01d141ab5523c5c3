package io.spindle;

import io.spindle.internal.registry.Registry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The child JVM of {@link ErrorSafetyTest}: drives an {@link OutOfMemoryError} or a {@link StackOverflowError} through
 * one of the pool's operations, then checks that the pool survived it (docs/DESIGN.md §1.2 and §2.6: errors are
 * rethrown as they are, the workers and the pool carry on; issue 11 §2).
 *
 * <p>Usage: {@code ErrorSafetyChild <scenario> <strategy> [rounds]}, strategy a {@link SleepStrategy} name. Exits 0
 * after printing {@value #OK_LINE} when every check held; otherwise prints each failed check (with the pool's state,
 * and a thread dump for a hang) and exits 1. The OOM scenarios expect a small heap ({@code -Xmx64m}); {@code join-soe}
 * builds its pool with a small {@code stackSize}.
 *
 * <p>Scenarios, each on a pool of {@value #THREADS} workers:
 * <ul>
 *   <li>{@code spawn-internal}: inside {@code install}, {@code pool.spawn} trivial tasks while filling the heap until
 *       something throws {@code OutOfMemoryError} (once the heap is exhausted, tasks built beforehand are spawned,
 *       so that the error usually comes from inside {@code spawn}); {@code install} must throw it;</li>
 *   <li>{@code spawn-external}: the same from a thread outside the pool;</li>
 *   <li>{@code scope-spawn}: the same into a {@code scope}, which must throw it and return only after every accepted
 *       task ran;</li>
 *   <li>{@code join-oom-stolen}: a join whose stolen second half fills the heap and throws; the join (and so the
 *       {@code install} around it) must throw, not hang;</li>
 *   <li>{@code install-oom}: an {@code install} whose op fills the heap; the caller must get the error;</li>
 *   <li>{@code join-soe}: a join tree without a base case on small worker stacks; {@code install} must throw
 *       {@code StackOverflowError}, and no part of the tree may still run once it returned (a join never ends before
 *       its second half);</li>
 *   <li>{@code sleep-path-oom}: the heap filled but for a few MiB of slack; then, over and over, an injected task
 *       takes the whole slack and ends, so that its worker searches, yields and goes to sleep with the heap exhausted
 *       (allocation failures hit the idle and sleep paths), and the slack is freed for the next injection, which
 *       wakes a sleeper; no error is expected anywhere a caller could see it.</li>
 * </ul>
 * OOM rounds alternate two modes: <em>hold</em> (odd rounds) keeps the heap exhausted for {@value #HOLD_MILLIS} ms
 * after the error was thrown, so that the pool's own bookkeeping after the throw runs out of memory too; <em>drop</em>
 * (even rounds) frees the heap in the catch block before rethrowing.
 *
 * <p>After each round, with the heap released: the tasks accepted (their {@code spawn} returned normally) ran exactly
 * once each (a task that did not run must at least have been reported to the pool's handler); the pool still runs an
 * {@code install}, a {@code join}, a {@code broadcast} and a burst of injected tasks that need every worker awake at
 * once; the sleep protocol's counters return to rest ({@link Registry#isSleepAtRest()}); a live worker thread exists
 * for every index. At the end, {@code close()} must return. Every wait is bounded, so a hang becomes a failure with a
 * thread dump.
 *
 * <p>Robustness against where exactly the JVM throws: every byte of heap the scenario fills is held by {@link #hoard}
 * and nowhere else, and code that runs while the heap may be exhausted (the fill loops, tasks, catch and finally
 * blocks, the join-tree bookkeeping) only stores primitives and preallocated references; everything that allocates
 * (messages, thread dumps, checks) runs after {@link #releaseHoard()} and a {@code System.gc()}. Tasks use
 * {@link AtomicLong}s and a preallocated byte array, not {@code LongAdder} (which allocates cells under contention).
 */
public final class ErrorSafetyChild {
    static final String OK_LINE = "ERROR-SAFETY OK";
    static final String FAILED_LINE = "ERROR-SAFETY FAILED";

    /** Every scenario, in the order the test runs them. */
    static final List<String> SCENARIOS = List.of("spawn-internal", "spawn-external", "scope-spawn", "join-oom-stolen",
            "install-oom", "join-soe", "sleep-path-oom");

    static final int THREADS = 2;
    static final String WORKER_PREFIX = "errsafe-w";
    /** Worker stack size for {@code join-soe}: small, so that the tree overflows after a few hundred levels. */
    static final long SOE_STACK_BYTES = 256 * 1024;

    static final long HOLD_MILLIS = 200;
    private static final long SCENARIO_TIMEOUT_MS = 15_000;
    private static final long STEP_TIMEOUT_MS = 10_000;
    private static final long QUIET_TIMEOUT_MS = 10_000;
    private static final long REST_TIMEOUT_MS = 10_000;
    private static final Duration CLOSE_DEADLINE = Duration.ofSeconds(10);
    /** How long nothing of a finished operation may still move. */
    private static final long STILL_MILLIS = 200;
    /** join-oom-stolen: how long a waits for b to be stolen before it gives up (then b runs inline). */
    private static final long STEAL_WAIT_NANOS = TimeUnit.SECONDS.toNanos(3);

    static int defaultRounds(String scenario) {
        return switch (scenario) {
            case "join-soe" -> 20;
            case "sleep-path-oom" -> 2;
            default -> 4;
        };
    }

    // ---- the heap hoard: the only thing that holds what a scenario allocates ---------------------------------------

    /** One link of the hoard: a chunk of heap. */
    private static final class Chunk {
        final long[] data;
        final Chunk next;

        Chunk(long[] data, Chunk next) {
            this.data = data;
            this.next = next;
        }
    }

    private static volatile Chunk hoard;
    /** Hold mode: when (System.nanoTime) the releaser thread drops the hoard; 0 = not armed. */
    private static volatile long releaseAtNanos;

    private static void addToHoard(int longs) {
        long[] data = new long[longs];
        hoard = new Chunk(data, hoard);
    }

    /** Drops everything the scenario filled the heap with. Allocation-free. */
    static void releaseHoard() {
        hoard = null;
    }

    /** Hold mode: the releaser thread drops the hoard {@link #HOLD_MILLIS} ms from now. Allocation-free. */
    static void armRelease() {
        releaseAtNanos = System.nanoTime() + HOLD_MILLIS * 1_000_000L;
    }

    /** After an error in a scenario: drop the hoard, or arm its release (hold mode). Allocation-free. */
    static void onScenarioOom(boolean hold) {
        if (hold) {
            armRelease();
        } else {
            releaseHoard();
        }
    }

    /**
     * Fills the heap until even the smallest chunk cannot be allocated, then throws that OutOfMemoryError: chunks
     * shrink by 8 each time one fails, so that the heap ends up exhausted to the last few bytes.
     */
    static void fillHeapUntilOom() {
        int longs = 1 << 15; // 256 KiB: not a humongous object for G1 (half a region of a 64 MiB heap or more)
        while (true) {
            try {
                addToHoard(longs);
            } catch (OutOfMemoryError e) {
                if (longs == 1) {
                    throw e;
                }
                longs = Math.max(1, longs >>> 3);
            }
        }
    }

    private static void startReleaser() {
        Thread t = new Thread(() -> {
            while (true) {
                long at = releaseAtNanos;
                if (at != 0 && System.nanoTime() - at >= 0) {
                    releaseHoard();
                    releaseAtNanos = 0;
                }
                LockSupport.parkNanos(1_000_000L);
            }
        }, "errsafe-releaser");
        t.setDaemon(true);
        t.start();
    }

    // ---- spawned tasks: each marks itself in a preallocated byte array -----------------------------------------------

    /** Tasks with an id below this are tracked one by one; beyond it only counted (never reached in practice). */
    private static final int TRACKED = 1 << 21;
    private static final VarHandle BYTES = MethodHandles.arrayElementVarHandle(byte[].class);
    /** Times task {@code id} ran (saturates at 127). */
    private static final byte[] RUNS = new byte[TRACKED];
    /** 1 if task {@code id}'s spawn returned normally. */
    private static final byte[] ACCEPTED = new byte[TRACKED];
    /** Total task executions, tracked or not. */
    private static final AtomicLong RAN = new AtomicLong();
    /** Ids handed out (single writer: the spawning thread). */
    private static volatile int nextId;
    /** Spawns that returned normally (single writer). */
    private static volatile long acceptedCount;
    /** Spawns that threw in this round (single writer). */
    private static volatile long spawnsThatThrew;
    /** Spawns that threw in every round so far. */
    private static long spawnsThatThrewInAllRounds;

    /** A trivial task; its execution allocates nothing. */
    static Runnable task(int id) {
        return () -> {
            if (id < TRACKED) {
                byte previous = (byte) BYTES.getAndAdd(RUNS, id, (byte) 1);
                if (previous == 127) {
                    BYTES.setVolatile(RUNS, id, (byte) 127); // saturate instead of wrapping
                }
            }
            RAN.incrementAndGet();
        };
    }

    private static void markAccepted(int id) {
        if (id < TRACKED) {
            BYTES.setVolatile(ACCEPTED, id, (byte) 1);
        }
        acceptedCount = acceptedCount + 1; // single writer
    }

    /** A place to spawn into: {@code pool::spawn} or {@code scope::spawn}. */
    @FunctionalInterface
    interface Spawner {
        void spawn(Runnable task);
    }

    /** Where the OutOfMemoryError that ended a spawn loop came from. */
    static final int WHERE_NONE = 0;
    static final int WHERE_TASK = 1;
    static final int WHERE_SPAWN = 2;
    static final int WHERE_FILL = 3;
    static final String[] WHERE_NAMES = {"(none)", "creating the task (body)", "inside spawn",
            "filling the heap (body)"};
    private static volatile int oomWhere;

    /** Tasks built before the heap fills, spawned once it is exhausted: then only spawn itself allocates. */
    private static final int RESERVE = 4_096;

    /**
     * Spawns tasks and fills the heap, more spawns per chunk as chunks shrink, until an OutOfMemoryError; then drops
     * or arms the release of the hoard and rethrows. The first time a chunk cannot be allocated (for G1 the heap is
     * then exhausted: it allocates from free regions), it spawns {@value #RESERVE} tasks it built beforehand, so that
     * nothing but {@code spawn} itself allocates and the error is thrown inside it; if they all went through (tasks
     * that ran freed memory), it goes on with smaller chunks until even the smallest fails.
     */
    static void spawnUntilOom(Spawner into, boolean hold) {
        int where = WHERE_NONE;
        try {
            Runnable[] reserve = new Runnable[RESERVE];
            int[] reserveIds = new int[RESERVE];
            for (int i = 0; i < RESERVE; i++) {
                int id = nextId;
                nextId = id + 1; // single writer
                reserveIds[i] = id;
                reserve[i] = task(id);
            }
            int longs = 1 << 15; // 256 KiB
            while (true) {
                int spawns = Math.max(1, longs >>> 5);
                for (int k = 0; k < spawns; k++) {
                    int id = nextId;
                    nextId = id + 1;
                    where = WHERE_TASK;
                    Runnable t = task(id);
                    where = WHERE_SPAWN;
                    spawnCounted(into, t);
                    markAccepted(id);
                }
                where = WHERE_FILL;
                try {
                    addToHoard(longs);
                } catch (OutOfMemoryError e) {
                    if (reserve != null) {
                        where = WHERE_SPAWN;
                        for (int i = 0; i < RESERVE; i++) {
                            spawnCounted(into, reserve[i]);
                            reserve[i] = null;
                            markAccepted(reserveIds[i]);
                        }
                        reserve = null;
                        reserveIds = null;
                    }
                    if (longs == 1) {
                        throw e;
                    }
                    longs = Math.max(1, longs >>> 2);
                }
            }
        } catch (OutOfMemoryError e) {
            oomWhere = where;
            onScenarioOom(hold);
            throw e;
        }
    }

    private static void spawnCounted(Spawner into, Runnable t) {
        try {
            into.spawn(t);
        } catch (Throwable e) {
            spawnsThatThrew = spawnsThatThrew + 1;
            throw e;
        }
    }

    // ---- the join tree for join-soe ----------------------------------------------------------------------------------

    /**
     * One join of the tree. Written only with plain volatile stores: no call, so the bookkeeping itself can never
     * overflow the stack (a call can, at the depth where the tree overflows).
     */
    private static final class Level {
        final Thread owner;
        volatile boolean bStarted;
        volatile boolean bEnded;
        volatile boolean joinEnded;
        volatile Throwable failure;

        Level(Thread owner) {
            this.owner = owner;
        }
    }

    private static final AtomicLong JOINS_ENTERED = new AtomicLong();
    private static final AtomicLong JOINS_EXITED = new AtomicLong();
    private static final AtomicLong LEAVES_STARTED = new AtomicLong();
    /** Stolen second halves that grow a spine of their own (on the thief's stack); bounded per round. */
    private static final AtomicInteger SPINES = new AtomicInteger();
    private static final int MAX_SPINES = 24;
    /** Our own exit count failed to record (an overflow in the increment): the balance check is then skipped. */
    private static volatile boolean exitCountLost;
    /** Bit 1: a join ended while its b was running. Bit 2: a b started after its join had ended. */
    private static volatile int badJoinKinds;
    /** The last join found ending before its b; its failure shows where the join threw. */
    private static volatile Level badLevel;
    private static volatile boolean installReturned;
    private static volatile boolean lateLeafStart;
    private static volatile boolean lateLeafEnd;
    private static volatile boolean lateJoinEnd;
    private static volatile long sink;

    /** A join per level, no base case below {@code limit} levels: it overflows the stack unless limited. */
    static void level(ThreadPool pool, int depth, int limit) {
        if (depth >= limit) {
            return;
        }
        Level lv = new Level(Thread.currentThread());
        JOINS_ENTERED.incrementAndGet();
        try {
            pool.join(() -> level(pool, depth + 1, limit), () -> leaf(pool, lv, limit));
        } catch (Throwable e) {
            lv.failure = e; // where the join threw, for the report if it ended too early
            throw e;
        } finally {
            lv.joinEnded = true; // then read b's state: one of the two sides sees the other (volatile order)
            if (lv.bStarted && !lv.bEnded) {
                badJoinKinds |= 1;
                badLevel = lv;
            }
            if (installReturned) {
                lateJoinEnd = true;
            }
            try {
                JOINS_EXITED.incrementAndGet();
            } catch (StackOverflowError e) {
                exitCountLost = true;
            }
        }
    }

    /** A join's second half: a little work; stolen, it grows a spine of its own while the budget lasts. */
    static void leaf(ThreadPool pool, Level lv, int limit) {
        lv.bStarted = true;
        try {
            if (lv.joinEnded) {
                badJoinKinds |= 2;
                badLevel = lv;
            }
            if (installReturned) {
                lateLeafStart = true;
            }
            LEAVES_STARTED.incrementAndGet();
            if (Thread.currentThread() != lv.owner && SPINES.getAndIncrement() < MAX_SPINES) {
                level(pool, 0, limit);
            } else {
                long x = 0;
                for (int i = 0; i < 2_000; i++) {
                    x = x * 31 + i;
                }
                sink = x;
            }
        } finally {
            if (installReturned) {
                lateLeafEnd = true;
            }
            lv.bEnded = true;
        }
    }

    // ---- join-oom-stolen ---------------------------------------------------------------------------------------------

    private static volatile boolean bStarted;
    private static volatile boolean bThrew;
    private static volatile boolean bStolen;
    private static volatile boolean bNotStolenInTime;
    private static volatile Thread joinOwner;

    // ---- scope-spawn -------------------------------------------------------------------------------------------------

    private static volatile boolean scopeReturned;
    private static volatile long ranWhenScopeReturned;

    // ---- sleep-path-oom ----------------------------------------------------------------------------------------------

    private static volatile long sleepPathSpawnOoms;
    private static volatile long sleepPathCycles;

    // ---- reports -----------------------------------------------------------------------------------------------------

    private static final int SAMPLES = 16;
    private static final AtomicLong HANDLER_REPORTS = new AtomicLong();
    private static final AtomicReferenceArray<Throwable> HANDLER_SAMPLES = new AtomicReferenceArray<>(SAMPLES);
    private static final AtomicLong DEFAULT_REPORTS = new AtomicLong();
    private static final AtomicReferenceArray<Throwable> DEFAULT_SAMPLES = new AtomicReferenceArray<>(SAMPLES);
    private static final AtomicReferenceArray<String> DEFAULT_THREADS = new AtomicReferenceArray<>(SAMPLES);

    /** The pool's handler (spawn failures). Allocation-free. */
    private static void poolHandler(Thread t, Throwable e) {
        long n = HANDLER_REPORTS.getAndIncrement();
        if (n < SAMPLES) {
            HANDLER_SAMPLES.set((int) n, e);
        }
    }

    /** The default handler, where the engine reports failures of its own loop. Allocation-free. */
    private static void defaultHandler(Thread t, Throwable e) {
        long n = DEFAULT_REPORTS.getAndIncrement();
        if (n < SAMPLES) {
            DEFAULT_SAMPLES.set((int) n, e);
            DEFAULT_THREADS.set((int) n, t.getName());
        }
    }

    // ---- the driver --------------------------------------------------------------------------------------------------

    private final String scenario;
    private final SleepStrategy strategy;
    private final List<String> problems = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private ThreadPool pool;
    private Registry registry;
    private List<Thread> originalWorkers;

    private ErrorSafetyChild(String scenario, SleepStrategy strategy) {
        this.scenario = scenario;
        this.strategy = strategy;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2 || args.length > 3 || !SCENARIOS.contains(args[0])) {
            System.out.println("usage: ErrorSafetyChild <scenario> <strategy> [rounds]; scenarios: " + SCENARIOS
                    + ", strategies: " + Arrays.toString(SleepStrategy.values()));
            System.exit(2);
        }
        String scenario = args[0];
        SleepStrategy strategy = SleepStrategy.valueOf(args[1]);
        int rounds = args.length == 3 ? Integer.parseInt(args[2]) : defaultRounds(scenario);
        Thread.setDefaultUncaughtExceptionHandler(ErrorSafetyChild::defaultHandler);
        startReleaser();
        int code;
        try {
            code = new ErrorSafetyChild(scenario, strategy).run(rounds);
        } catch (Throwable e) {
            releaseHoard();
            System.gc();
            System.out.println(FAILED_LINE + ": the child's driver itself failed");
            e.printStackTrace(System.out);
            code = 3;
        }
        System.out.flush();
        System.exit(code);
    }

    private int run(int rounds) {
        long start = System.nanoTime();
        System.out.println("child: scenario=" + scenario + " strategy=" + strategy + " rounds=" + rounds + " java="
                + System.getProperty("java.version") + " maxHeap=" + Runtime.getRuntime().maxMemory() / (1 << 20)
                + "MiB gc=" + gcNames());
        ThreadPool.Builder b = ThreadPool.builder().threads(THREADS).sleepStrategy(strategy)
                .threadName(i -> WORKER_PREFIX + i).uncaughtExceptionHandler(ErrorSafetyChild::poolHandler);
        if (scenario.equals("join-soe")) {
            b.stackSize(SOE_STACK_BYTES);
        }
        pool = b.build();
        try {
            registry = registryOf(pool);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot read ThreadPool.registry", e);
        }
        originalWorkers = pool.broadcast(ctx -> Thread.currentThread());
        warmUp();
        // Baseline, before any error: a pool left alone must come to rest (else what follows proves nothing).
        List<String> baseline = new ArrayList<>();
        checkAtRest("before any error (after the warm-up)", baseline);
        problems.addAll(baseline);
        boolean wedged = false;
        for (int round = 1; round <= rounds && baseline.isEmpty(); round++) {
            int before = problems.size();
            wedged = !runRound(round);
            if (wedged || problems.size() > before) {
                System.out.println("round " + round + ": FAILED; no further rounds");
                break;
            }
        }
        if (!wedged) {
            checkClose();
        } else {
            notes.add("close() not checked: the pool is wedged (see the hang above)");
        }
        printReports();
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        for (String n : notes) {
            System.out.println("NOTE: " + n);
        }
        if (problems.isEmpty()) {
            System.out.println(OK_LINE + " (" + scenario + ", " + strategy + ", " + ms + " ms)");
            return 0;
        }
        System.out.println(FAILED_LINE + ": " + problems.size() + " problem(s) in " + scenario + " on " + strategy
                + " (" + ms + " ms):");
        for (int i = 0; i < problems.size(); i++) {
            System.out.println("---- problem " + (i + 1) + " ----");
            System.out.println(problems.get(i));
        }
        return 1;
    }

    /**
     * Runs every code path the scenarios take while the heap may be full once with plenty of memory, so that class
     * loading, constant-pool resolution and lambda linkage (which allocate) are done before they matter.
     */
    private void warmUp() {
        for (int i = 0; i < 3; i++) {
            onScenarioOom(false);
            onScenarioOom(true);
            releaseAtNanos = 0;
        }
        pool.install(() -> {
            warmSpawn(pool::spawn);
            return null;
        });
        pool.scope(s -> {
            warmSpawn(s::spawn);
        });
        warmSpawn(pool::spawn);
        level(pool, 0, 50);
        pool.install(() -> {
            level(pool, 0, 50);
            return null;
        });
        awaitQuiet(); // the warm-up's own tasks, before the counters are reset
        if (RAN.get() != acceptedCount) {
            throw new AssertionError("warm-up tasks did not run: " + RAN.get() + " of " + acceptedCount + "; " + pool);
        }
        Throwable dummy = new Throwable("warm-up");
        for (int i = 0; i < 3; i++) {
            poolHandler(Thread.currentThread(), dummy);
            defaultHandler(Thread.currentThread(), dummy);
        }
        resetTaskState();
        JOINS_ENTERED.set(0);
        JOINS_EXITED.set(0);
        LEAVES_STARTED.set(0);
        SPINES.set(0);
        HANDLER_REPORTS.set(0);
        DEFAULT_REPORTS.set(0);
        for (int i = 0; i < SAMPLES; i++) {
            HANDLER_SAMPLES.set(i, null);
            DEFAULT_SAMPLES.set(i, null);
            DEFAULT_THREADS.set(i, null);
        }
    }

    private static void warmSpawn(Spawner into) {
        int id = nextId;
        nextId = id + 1;
        into.spawn(task(id));
        markAccepted(id);
    }

    private static void resetTaskState() {
        spawnsThatThrewInAllRounds += spawnsThatThrew;
        int n = Math.min(nextId, TRACKED);
        Arrays.fill(RUNS, 0, n, (byte) 0);
        Arrays.fill(ACCEPTED, 0, n, (byte) 0);
        RAN.set(0);
        nextId = 0;
        acceptedCount = 0;
        spawnsThatThrew = 0;
        oomWhere = WHERE_NONE;
    }

    private void awaitQuiet() {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(QUIET_TIMEOUT_MS);
        while (RAN.get() + HANDLER_REPORTS.get() < acceptedCount && System.nanoTime() - end < 0) {
            LockSupport.parkNanos(1_000_000L);
        }
    }

    /** One round; returns false if the pool is wedged (a hang), so that nothing more can be checked. */
    private boolean runRound(int round) {
        boolean hold = round % 2 == 1;
        String mode = scenario.equals("join-soe") ? "" : hold ? " (hold)" : " (drop)";
        String label = "round " + round + mode;
        resetTaskState();
        long handlerBefore = HANDLER_REPORTS.get();
        long defaultBefore = DEFAULT_REPORTS.get();
        resetRoundFlags();

        Step op = step(scenario, SCENARIO_TIMEOUT_MS, () -> runScenario(hold));
        // With the heap released from here on: wait for hold mode's releaser, then drop everything anyway.
        if (hold) {
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(HOLD_MILLIS + 100);
            while (releaseAtNanos != 0 && System.nanoTime() - end < 0) {
                LockSupport.parkNanos(1_000_000L);
            }
        }
        releaseAtNanos = 0;
        releaseHoard();
        System.gc();
        if (op.hung) {
            problems.add("HANG: " + label + ": " + scenario + " did not return within " + SCENARIO_TIMEOUT_MS
                    + " ms" + (op.what.isEmpty() ? "" : " (" + op.what + ")") + "\n" + state() + "\n" + op.dump);
            return false;
        }
        StringBuilder line = new StringBuilder(label).append(": ");
        checkOutcome(op, line);
        checkScenarioSpecific(label, line);
        checkAccounting(label, handlerBefore, line);
        long runtimeReports = DEFAULT_REPORTS.get() - defaultBefore;
        if (runtimeReports > 0) {
            line.append("; ").append(runtimeReports).append(" report(s) to the default handler");
        }
        System.out.println(line);
        boolean alive = checkHealth(label);
        if (scenario.equals("join-soe")) {
            checkTreeStillQuiet(label);
        }
        return alive; // a failed check is recorded in problems; a hang also means nothing more can be checked
    }

    private void resetRoundFlags() {
        JOINS_ENTERED.set(0);
        JOINS_EXITED.set(0);
        LEAVES_STARTED.set(0);
        SPINES.set(0);
        exitCountLost = false;
        badJoinKinds = 0;
        badLevel = null;
        installReturned = false;
        lateLeafStart = false;
        lateLeafEnd = false;
        lateJoinEnd = false;
        bStarted = false;
        bThrew = false;
        bStolen = false;
        bNotStolenInTime = false;
        joinOwner = null;
        scopeReturned = false;
        ranWhenScopeReturned = -1;
        sleepPathSpawnOoms = 0;
        sleepPathCycles = 0;
    }

    /** The scenario's operation; what it throws is the outcome the round checks. */
    private Object runScenario(boolean hold) {
        ThreadPool p = pool;
        switch (scenario) {
            case "spawn-internal":
                return p.install(() -> {
                    Spawner into = p::spawn;
                    spawnUntilOom(into, hold);
                    return null;
                });
            case "spawn-external": {
                Spawner into = p::spawn;
                spawnUntilOom(into, hold);
                return null;
            }
            case "scope-spawn":
                try {
                    p.scope(s -> {
                        Spawner into = s::spawn;
                        spawnUntilOom(into, hold);
                    });
                } finally {
                    ranWhenScopeReturned = RAN.get();
                    scopeReturned = true;
                }
                return null;
            case "join-oom-stolen":
                return p.install(() -> {
                    joinOwner = Thread.currentThread();
                    p.join(ErrorSafetyChild::awaitStolenHalf, () -> stolenHalfFillsHeap(hold));
                    return null;
                });
            case "install-oom":
                return p.install(() -> {
                    try {
                        fillHeapUntilOom();
                    } catch (OutOfMemoryError e) {
                        onScenarioOom(hold);
                        throw e;
                    }
                    return null;
                });
            case "join-soe":
                try {
                    return p.install(() -> {
                        level(p, 0, Integer.MAX_VALUE);
                        return null;
                    });
                } finally {
                    installReturned = true;
                }
            case "sleep-path-oom":
                sleepPathStress(p);
                return null;
            default:
                throw new IllegalArgumentException(scenario);
        }
    }

    /** join-oom-stolen, a: waits (allocation-free) until b was stolen and threw, or gives up waiting for a thief. */
    private static void awaitStolenHalf() {
        long start = System.nanoTime();
        while (!bStarted) {
            if (System.nanoTime() - start > STEAL_WAIT_NANOS) {
                bNotStolenInTime = true;
                return; // the join takes b back and runs it inline
            }
            LockSupport.parkNanos(50_000L);
        }
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SCENARIO_TIMEOUT_MS);
        while (!bThrew && System.nanoTime() - end < 0) {
            LockSupport.parkNanos(50_000L);
        }
    }

    /** join-oom-stolen, b: fills the heap until it throws. */
    private static Object stolenHalfFillsHeap(boolean hold) {
        bStolen = Thread.currentThread() != joinOwner;
        bStarted = true;
        try {
            fillHeapUntilOom();
        } catch (OutOfMemoryError e) {
            onScenarioOom(hold);
            bThrew = true;
            throw e;
        }
        return null;
    }

    /**
     * sleep-path-oom: fills the heap, frees a slack of {@value #SLEEP_PATH_SLACK_BYTES} bytes, then in cycles: one
     * injected task grabs the whole slack (so that it ends, and its worker goes idle, with the heap exhausted to the
     * last bytes), a pause lets the workers search, yield and go to sleep in that state, then the slack is freed for
     * the next cycle's injection (which wakes a sleeper).
     */
    private static void sleepPathStress(ThreadPool p) {
        try {
            fillHeapUntilOom();
        } catch (OutOfMemoryError expected) {
            // the heap is full: now free the slack
        }
        long freed = 0;
        while (freed < SLEEP_PATH_SLACK_BYTES && hoard != null) {
            freed += 8L * hoard.data.length + 32;
            hoard = hoard.next;
        }
        long ooms = 0;
        long cycles = 0;
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SLEEP_PATH_MILLIS);
        try {
            while (System.nanoTime() - end < 0 && cycles < SLEEP_PATH_MAX_CYCLES) {
                cycles++;
                cycleHoard = null; // the slack is free again
                try {
                    int id = nextId;
                    nextId = id + 1;
                    Runnable t = exhaustingTask(id);
                    try {
                        p.spawn(t);
                    } catch (Throwable e) {
                        spawnsThatThrew = spawnsThatThrew + 1;
                        throw e;
                    }
                    markAccepted(id);
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                    while (RAN.get() < acceptedCount && System.nanoTime() - deadline < 0) {
                        LockSupport.parkNanos(100_000L);
                    }
                    LockSupport.parkNanos(3_000_000L); // the workers go idle and to sleep with the heap exhausted
                } catch (OutOfMemoryError e) {
                    ooms++; // on this driving thread (the JVM may throw it anywhere): not the pool's failure
                }
            }
        } finally {
            sleepPathSpawnOoms = ooms;
            sleepPathCycles = cycles;
            cycleHoard = null;
            releaseHoard();
        }
    }

    static final long SLEEP_PATH_SLACK_BYTES = 4 << 20; // G1 allocates into free regions: several MiB
    private static final long SLEEP_PATH_MILLIS = 2_000;
    private static final int SLEEP_PATH_MAX_CYCLES = 40;
    /** sleep-path-oom: what the current cycle's task grabbed. */
    private static volatile Chunk cycleHoard;

    /** sleep-path-oom: a task that takes every byte left (1 KiB chunks, then the smallest), then marks itself run. */
    static Runnable exhaustingTask(int id) {
        Runnable mark = task(id);
        return () -> {
            int longs = 128;
            while (true) {
                try {
                    cycleHoard = new Chunk(new long[longs], cycleHoard);
                } catch (OutOfMemoryError e) {
                    if (longs == 1) {
                        break;
                    }
                    longs = 1;
                }
            }
            mark.run();
        };
    }

    // ---- checks ------------------------------------------------------------------------------------------------------

    private void checkOutcome(Step op, StringBuilder line) {
        Throwable thrown = op.thrown;
        Class<? extends Throwable> expected = switch (scenario) {
            case "join-soe" -> StackOverflowError.class;
            case "sleep-path-oom" -> null;
            default -> OutOfMemoryError.class;
        };
        if (expected == null) {
            line.append(thrown == null ? "returned" : "threw " + thrown);
        } else {
            line.append(thrown == null ? "returned normally" : "threw " + describe(thrown));
        }
        if (scenario.startsWith("spawn") || scenario.equals("scope-spawn")) {
            line.append(" [OOM ").append(WHERE_NAMES[oomWhere]).append(']');
        }
        if (expected == null) {
            if (thrown != null) {
                problems.add(scenario + ": the driving loop itself threw (no error should reach it):\n"
                        + stackOf(thrown));
            }
            return;
        }
        if (!expected.isInstance(thrown)) {
            problems.add(scenario + ": the caller must get a " + expected.getSimpleName() + ", but it "
                    + (thrown == null ? "returned normally" : "got:\n" + stackOf(thrown)) + "\n" + state());
        }
    }

    private static String describe(Throwable t) {
        String m = t.getMessage();
        String s = t.getClass().getSimpleName() + (m == null ? "" : "(" + m + ")");
        Throwable[] suppressed = t.getSuppressed();
        if (suppressed.length > 0) {
            s += " +" + suppressed.length + " suppressed";
        }
        return s;
    }

    private boolean checkScenarioSpecific(String label, StringBuilder line) {
        switch (scenario) {
            case "scope-spawn": {
                if (!scopeReturned) {
                    return true; // the outcome check reported it
                }
                long accepted = acceptedCount;
                long ranAtReturn = ranWhenScopeReturned;
                sleepMillis(STILL_MILLIS);
                long ranLater = RAN.get();
                line.append("; ranAtScopeReturn=").append(ranAtReturn);
                if (ranAtReturn < accepted || ranLater != ranAtReturn) {
                    problems.add(label + ": the scope returned before every accepted task ran: when it returned "
                            + ranAtReturn + " of " + accepted + " accepted tasks had run, " + STILL_MILLIS
                            + " ms later " + ranLater + "\n" + state());
                    return false;
                }
                return true;
            }
            case "join-oom-stolen":
                line.append(bStolen ? "; b was stolen" : "; b ran on the join's own worker");
                if (bNotStolenInTime) {
                    notes.add(label + ": nobody stole b within " + TimeUnit.NANOSECONDS.toMillis(STEAL_WAIT_NANOS)
                            + " ms although the other worker was idle; b ran inline, so the stolen path was not "
                            + "exercised this round");
                }
                return true;
            case "join-soe":
                return checkTree(label, line);
            case "sleep-path-oom":
                line.append("; cycles=").append(sleepPathCycles).append(" oomsOnTheDrivingThread=")
                        .append(sleepPathSpawnOoms);
                return true;
            default:
                return true;
        }
    }

    /** join-soe: nothing of the tree runs once install returned, and every join ended after its b. */
    private boolean checkTree(String label, StringBuilder line) {
        long entered = JOINS_ENTERED.get();
        long exited = JOINS_EXITED.get();
        long leaves = LEAVES_STARTED.get();
        sleepMillis(STILL_MILLIS);
        long entered2 = JOINS_ENTERED.get();
        long exited2 = JOINS_EXITED.get();
        long leaves2 = LEAVES_STARTED.get();
        line.append("; joins=").append(entered).append(" leaves=").append(leaves).append(" spines=")
                .append(Math.min(SPINES.get(), MAX_SPINES));
        List<String> bad = new ArrayList<>();
        if ((badJoinKinds & 1) != 0) {
            bad.add("a join ended while its second half (b) was still running");
        }
        if ((badJoinKinds & 2) != 0) {
            bad.add("a join's second half (b) started after the join had ended");
        }
        if (!exitCountLost && entered != exited) {
            bad.add((entered - exited) + " join(s) still open when install returned (entered " + entered
                    + ", exited " + exited + ")");
        }
        if (exitCountLost) {
            notes.add(label + ": the tree's own exit count overflowed once, so the open-join balance was not "
                    + "checked this round");
        }
        if (entered2 != entered || exited2 != exited || leaves2 != leaves) {
            bad.add("the tree still ran after install returned: within " + STILL_MILLIS + " ms, joins entered "
                    + entered + "->" + entered2 + ", exited " + exited + "->" + exited2 + ", leaves started "
                    + leaves + "->" + leaves2);
        }
        if (lateLeafStart) {
            bad.add("a second half (b) started after install returned");
        }
        if (lateLeafEnd) {
            bad.add("a second half (b) was still running when install returned");
        }
        if (lateJoinEnd) {
            bad.add("a join was still open when install returned");
        }
        if (bad.isEmpty()) {
            return true;
        }
        Level lv = badLevel;
        String where = "";
        if (lv != null) {
            where = "\none such join ran on " + lv.owner.getName() + " and "
                    + (lv.failure == null ? "returned normally" : "threw (its stack, innermost frames first):\n"
                    + topFrames(lv.failure, 30));
        }
        problems.add(label + ": docs/DESIGN.md §1.2 (a join never returns or throws before its b ended) broken: "
                + String.join("; ", bad) + where + "\n" + state());
        return false;
    }

    /** join-soe: after the health checks (which give any stray part of the tree time and work to show up). */
    private void checkTreeStillQuiet(String label) {
        if (lateLeafStart || lateLeafEnd || lateJoinEnd || badJoinKinds != 0) {
            String msg = label + ": part of the tree ran after install returned (seen after the health checks): "
                    + "lateLeafStart=" + lateLeafStart + " lateLeafEnd=" + lateLeafEnd + " lateJoinEnd="
                    + lateJoinEnd + " badJoinKinds=" + badJoinKinds;
            if (!problems.stream().anyMatch(p -> p.startsWith(label))) {
                problems.add(msg + "\n" + state());
            }
        }
    }

    /**
     * Every accepted task ran exactly once; an accepted task that never ran must at least have been reported to the
     * pool's handler; a task whose spawn threw may have run (at most once).
     */
    private boolean checkAccounting(String label, long handlerBefore, StringBuilder line) {
        if (nextId == 0) {
            return true;
        }
        long accepted = acceptedCount;
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(QUIET_TIMEOUT_MS);
        while (RAN.get() + (HANDLER_REPORTS.get() - handlerBefore) < accepted && System.nanoTime() - end < 0) {
            LockSupport.parkNanos(1_000_000L);
        }
        boolean timedOut = RAN.get() + (HANDLER_REPORTS.get() - handlerBefore) < accepted;
        // Settle: nothing more may run (a task that runs late, or twice, shows up here).
        long ran;
        do {
            ran = RAN.get();
            sleepMillis(STILL_MILLIS);
        } while (!timedOut && RAN.get() != ran);
        ran = RAN.get();
        long reported = HANDLER_REPORTS.get() - handlerBefore;
        int n = Math.min(nextId, TRACKED);
        long lost = 0;
        long duplicated = 0;
        long ranUnaccepted = 0;
        int firstLost = -1;
        for (int i = 0; i < n; i++) {
            int runs = (byte) BYTES.getVolatile(RUNS, i);
            boolean acc = (byte) BYTES.getVolatile(ACCEPTED, i) == 1;
            if (runs > 1) {
                duplicated++;
            } else if (acc && runs == 0) {
                lost++;
                if (firstLost < 0) {
                    firstLost = i;
                }
            } else if (!acc && runs == 1) {
                ranUnaccepted++;
            }
        }
        line.append("; accepted=").append(accepted).append(" ran=").append(ran).append(" reportedToHandler=")
                .append(reported).append(" spawnsThatThrew=").append(spawnsThatThrew);
        if (ranUnaccepted > 0) {
            line.append(" ranAlthoughSpawnThrew=").append(ranUnaccepted);
        }
        List<String> bad = new ArrayList<>();
        if (nextId > TRACKED) {
            if (ran + reported < accepted) {
                bad.add("ran + reportedToHandler = " + (ran + reported) + " < accepted = " + accepted);
            }
        }
        if (lost > reported) {
            bad.add(lost + " accepted task(s) never ran (first id " + firstLost + " of " + nextId + " issued) and only "
                    + reported + " failure(s) reached the pool's handler: ran + reportedToHandler = "
                    + (ran + reported) + ", accepted = " + accepted
                    + (timedOut ? " (still so after " + QUIET_TIMEOUT_MS + " ms)" : ""));
        }
        if (duplicated > 0) {
            bad.add(duplicated + " task(s) ran more than once");
        }
        if (reported > lost) {
            notes.add(label + ": " + (reported - lost) + " failure(s) reached the pool's handler for tasks that did "
                    + "run (or are not tasks): see the handler reports below");
        }
        if (bad.isEmpty()) {
            return true;
        }
        problems.add(label + ": task accounting broken after the error: " + String.join("; ", bad) + "\n" + state()
                + (timedOut ? "\n" + Watchdog.threadDump() : ""));
        return false;
    }

    /** The pool still works, its counters return to rest, every worker lives. Returns false if a step hung. */
    private boolean checkHealth(String label) {
        ThreadPool p = pool;
        List<String> failed = new ArrayList<>();
        boolean wedged = false;

        Step install = step("install", STEP_TIMEOUT_MS, () -> p.install(() -> 42));
        wedged |= expect(label, "install returning a value", install, 42, failed);
        if (!wedged) {
            Step join = step("join", STEP_TIMEOUT_MS, () -> {
                Pair<Integer, Integer> outer = p.join(() -> 1, () -> 2);
                int inner = p.install(() -> {
                    Pair<Integer, Integer> q = p.join(() -> 3, () -> 4);
                    return q.first() + q.second();
                });
                return outer.first() + outer.second() + inner;
            });
            wedged |= expect(label, "join (outside and inside the pool)", join, 10, failed);
        }
        if (!wedged) {
            Step broadcast = step("broadcast", STEP_TIMEOUT_MS, () -> p.broadcast(ctx -> ctx.index()));
            wedged |= expect(label, "broadcast (needs every worker)", broadcast, List.of(0, 1), failed);
        }
        if (!wedged) {
            wedged |= barrierBurst(label, failed);
        }
        checkAtRest(label, failed);
        checkWorkersAlive(label, failed);
        problems.addAll(failed);
        return !wedged;
    }

    /** Returns true (wedged) if the step hung; records a failure if it threw or returned something else. */
    private boolean expect(String label, String what, Step s, Object expected, List<String> failed) {
        if (s.hung) {
            failed.add("HANG: " + label + ": after the error, " + what + " did not return within " + STEP_TIMEOUT_MS
                    + " ms\n" + state() + "\n" + s.dump);
            return true;
        }
        if (s.thrown != null) {
            failed.add(label + ": after the error, " + what + " threw:\n" + stackOf(s.thrown) + "\n" + state());
        } else if (!expected.equals(s.result)) {
            failed.add(label + ": after the error, " + what + " returned " + s.result + ", expected " + expected);
        }
        return false;
    }

    /** 2 x threads injected tasks, each waiting at a barrier of all threads: every worker must wake and take one. */
    private boolean barrierBurst(String label, List<String> failed) {
        CyclicBarrier barrier = new CyclicBarrier(THREADS);
        CountDownLatch done = new CountDownLatch(2 * THREADS);
        AtomicInteger broken = new AtomicInteger();
        AtomicReference<Throwable> firstBreak = new AtomicReference<>();
        Step burst = step("barrier-burst", STEP_TIMEOUT_MS + 5_000, () -> {
            for (int i = 0; i < 2 * THREADS; i++) {
                pool.spawn(() -> {
                    try {
                        barrier.await(STEP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                    } catch (Exception e) {
                        broken.incrementAndGet();
                        firstBreak.compareAndSet(null, e);
                    } finally {
                        done.countDown();
                    }
                });
            }
            if (!done.await(STEP_TIMEOUT_MS + 2_000, TimeUnit.MILLISECONDS)) {
                return "not done";
            }
            return "done";
        });
        if (burst.hung || "not done".equals(burst.result)) {
            failed.add("HANG: " + label + ": after the error, " + (2 * THREADS) + " injected barrier tasks did not "
                    + "all run within " + STEP_TIMEOUT_MS + " ms (" + done.getCount() + " left): a worker did not "
                    + "wake\n" + state() + "\n" + (burst.hung ? burst.dump : Watchdog.threadDump()));
            return true;
        }
        if (burst.thrown != null) {
            failed.add(label + ": after the error, injecting the barrier tasks threw:\n" + stackOf(burst.thrown)
                    + "\n" + state());
        } else if (broken.get() > 0) {
            failed.add(label + ": after the error, " + broken.get() + " barrier task(s) timed out waiting for the "
                    + "other worker(s) (not every worker woke for injected work): " + firstBreak.get() + "\n"
                    + state());
        }
        return false;
    }

    private void checkAtRest(String label, List<String> failed) {
        long start = System.nanoTime();
        long end = start + TimeUnit.MILLISECONDS.toNanos(REST_TIMEOUT_MS);
        int streak = 0;
        while (System.nanoTime() - end < 0) {
            streak = registry.isSleepAtRest() ? streak + 1 : 0;
            if (streak >= 3) {
                return;
            }
            LockSupport.parkNanos(2_000_000L);
        }
        failed.add(label + ": the sleep counters did not return to rest within " + REST_TIMEOUT_MS
                + " ms of the pool going idle (Registry.isSleepAtRest() stayed false)\n" + state() + "\n"
                + Watchdog.threadDump());
    }

    private void checkWorkersAlive(String label, List<String> failed) {
        Set<Integer> alive = new HashSet<>();
        List<String> extra = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            String n = t.getName();
            if (n.startsWith(WORKER_PREFIX) && t.isAlive()) {
                String rest = n.substring(WORKER_PREFIX.length());
                if (!rest.isEmpty() && rest.chars().allMatch(Character::isDigit)) {
                    if (!alive.add(Integer.parseInt(rest))) {
                        extra.add(n);
                    }
                }
            }
        }
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            if (!alive.contains(i)) {
                missing.add(i);
            }
        }
        if (!missing.isEmpty()) {
            failed.add(label + ": worker thread(s) " + missing + " (" + WORKER_PREFIX + "<index>) died and were not "
                    + "replaced\n" + state());
        }
        if (!extra.isEmpty()) {
            failed.add(label + ": more than one live worker thread for the same index: " + extra);
        }
        for (Thread t : originalWorkers) {
            if (!t.isAlive() && missing.isEmpty()) {
                notes.add(label + ": original worker " + t.getName() + " died (a replacement runs)");
            }
        }
    }

    private void checkClose() {
        try {
            new Watchdog.Guard(pool, () -> "closing after " + scenario + " on " + strategy, CLOSE_DEADLINE).close();
            System.out.println("close() returned");
        } catch (AssertionError e) {
            long threw = spawnsThatThrewInAllRounds + spawnsThatThrew;
            problems.add("HANG: close() did not return within " + CLOSE_DEADLINE.toMillis() + " ms"
                    + (threw > 0 ? " (" + threw + " spawn call(s) threw in this JVM's rounds: compare with the pool's "
                    + "outstanding count, which every accepted task gave back)" : "") + ": " + e.getMessage());
        }
    }

    private void printReports() {
        long h = HANDLER_REPORTS.get();
        long d = DEFAULT_REPORTS.get();
        if (h > 0) {
            System.out.println("reports to the pool's handler (after warm-up): " + h);
            for (int i = 0; i < Math.min(h, SAMPLES); i++) {
                Throwable t = HANDLER_SAMPLES.get(i);
                if (t != null) {
                    System.out.println("  handler report " + (i + 1) + ": " + shortStack(t));
                }
            }
        }
        if (d > 0) {
            int inSleep = 0;
            int noStack = 0;
            for (int i = 0; i < Math.min(d, SAMPLES); i++) {
                Throwable t = DEFAULT_SAMPLES.get(i);
                Throwable root = t;
                while (root != null && root.getCause() != null && root.getCause() != root) {
                    root = root.getCause();
                }
                if (root != null && root.getStackTrace().length == 0) {
                    noStack++;
                } else if (t != null && touches(t, "io.spindle.internal.sleep")) {
                    inSleep++;
                }
            }
            System.out.println("reports to the default uncaught-exception handler (the engine's own failures): " + d
                    + "; of the first " + Math.min(d, SAMPLES) + ", " + inSleep + " thrown in io.spindle.internal.sleep, "
                    + noStack + " with a root cause without stack trace (the JVM's preallocated error)");
            for (int i = 0; i < Math.min(d, SAMPLES); i++) {
                Throwable t = DEFAULT_SAMPLES.get(i);
                if (t != null) {
                    System.out.println("  default report " + (i + 1) + " on " + DEFAULT_THREADS.get(i) + ": "
                            + shortStack(t));
                }
            }
        }
    }

    private static boolean touches(Throwable t, String packagePrefix) {
        for (Throwable x = t; x != null; x = x.getCause() == x ? null : x.getCause()) {
            for (StackTraceElement f : x.getStackTrace()) {
                if (f.getClassName().startsWith(packagePrefix)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String shortStack(Throwable t) {
        StringBuilder sb = new StringBuilder();
        int depth = 0;
        for (Throwable x = t; x != null && depth < 3; x = x.getCause() == x ? null : x.getCause(), depth++) {
            if (depth > 0) {
                sb.append("\n    caused by: ");
            }
            sb.append(x);
            StackTraceElement[] frames = x.getStackTrace();
            for (int i = 0; i < Math.min(8, frames.length); i++) {
                sb.append("\n      at ").append(frames[i]);
            }
            if (frames.length > 8) {
                sb.append("\n      ... ").append(frames.length - 8).append(" more");
            }
        }
        return sb.toString();
    }

    private static String topFrames(Throwable t, int frames) {
        StringBuilder sb = new StringBuilder(String.valueOf(t));
        StackTraceElement[] st = t.getStackTrace();
        for (int i = 0; i < Math.min(frames, st.length); i++) {
            sb.append("\n\tat ").append(st[i]);
        }
        if (st.length > frames) {
            sb.append("\n\t... ").append(st.length - frames).append(" more");
        }
        return sb.toString();
    }

    private static String stackOf(Throwable t) {
        java.io.StringWriter w = new java.io.StringWriter();
        t.printStackTrace(new java.io.PrintWriter(w));
        String s = w.toString();
        return s.length() > 6_000 ? s.substring(0, 6_000) + "\n... (cut)" : s;
    }

    private String state() {
        String rest;
        try {
            rest = String.valueOf(registry.isSleepAtRest());
        } catch (Throwable e) {
            rest = "(" + e + ")";
        }
        return "pool: " + pool + "; sleepAtRest=" + rest + "; stats=" + pool.stats();
    }

    private static void sleepMillis(long ms) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (System.nanoTime() - end < 0) {
            LockSupport.parkNanos(end - System.nanoTime());
        }
    }

    private static String gcNames() {
        List<String> names = new ArrayList<>();
        ManagementFactory.getGarbageCollectorMXBeans().forEach(b -> names.add(b.getName()));
        return String.join("+", names);
    }

    private static Registry registryOf(ThreadPool pool) throws ReflectiveOperationException {
        Field f = ThreadPool.class.getDeclaredField("registry");
        f.setAccessible(true);
        return (Registry) f.get(pool);
    }

    // ---- bounded steps -----------------------------------------------------------------------------------------------

    /** The outcome of a bounded step. */
    private static final class Step {
        Object result;
        Throwable thrown;
        boolean hung;
        String dump = "";
        String what = "";
    }

    /** A step that may throw anything. */
    @FunctionalInterface
    private interface Body {
        Object call() throws Throwable;
    }

    private static final AtomicInteger STEP_IDS = new AtomicInteger();

    /**
     * Runs {@code body} on a fresh daemon thread (not a pool worker) and waits up to {@code timeoutMs}. Waiting is
     * allocation-free ({@link Thread#join(long)}), and so is the helper's recording of the outcome. On a timeout the
     * heap is released before the thread dump is taken.
     */
    private static Step step(String name, long timeoutMs, Body body) {
        Step s = new Step();
        AtomicReference<Object> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                result.set(body.call());
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "errsafe-step-" + STEP_IDS.incrementAndGet() + "-" + name);
        t.setDaemon(true);
        t.start();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (t.isAlive()) {
            long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
            if (left <= 0) {
                break;
            }
            try {
                t.join(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (t.isAlive()) {
            releaseAtNanos = 0;
            releaseHoard();
            System.gc();
            s.hung = true;
            s.what = "stuck thread: " + t.getName();
            s.dump = Watchdog.threadDump();
            return s;
        }
        s.result = result.get();
        s.thrown = failure.get();
        return s;
    }
}
