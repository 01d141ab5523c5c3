package io.spindle.soak;

import io.spindle.BroadcastContext;
import io.spindle.Pair;
import io.spindle.PoolStats;
import io.spindle.SleepStrategy;
import io.spindle.Spindle;
import io.spindle.ThreadPool;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The soak harness: random trees of join / scope / spawn / install / broadcast from several outside threads against
 * pools of 1..16 workers of every sleep strategy, with random delays, 1% failing tasks, worker interrupts and pools
 * closed under load; beside them, in two rounds of three, IO traffic on the same pool ({@link EchoTraffic}: an echo
 * server on {@code ThreadPool.io()} and clients with random delays and closes); then a churn phase (many sleep/wake
 * cycles, many pools) for the 16-bit counter fields, in the spirit of JDK-8330017. A watchdog turns any stall over 10 s into a failure with a thread dump and the seed.
 *
 * <pre>
 *   java -cp spindle-jcstress/target/jcstress.jar io.spindle.soak.Soak [--minutes M] [--seed S]
 *        [--strategies JOBS_EVENT_COUNTER,SLEEPY_WORKER,HINT_PIPE] [--churn-cycles N] [--stall-seconds 10]
 * </pre>
 *
 * <p>Invariants checked (each failure exits 1 with the seed): every accepted task ran exactly once (ids counted);
 * results are right (tree sums, broadcast index order, install values); failures are delivered where docs/DESIGN.md §1
 * says (join/scope/install/broadcast rethrow to the caller, spawn goes to the pool's handler, never lost, never twice);
 * no worker thread is alive after close; every echoed byte comes back and every IO operation completes (see
 * {@link EchoTraffic}); the sleep protocol's counters are back to rest when the pool is idle and
 * after close (read from the registry by reflection: they are internal). Pass/fail never depends on timing; only the
 * watchdog uses time, to turn a hang into a failure.
 */
public final class Soak {
    static final class SoakFailure extends RuntimeException {
        SoakFailure(String m) {
            super(m);
        }
    }

    /** The failure a task throws on purpose (1% of tasks). */
    static final class Planned extends RuntimeException {
        final long id;

        Planned(long id) {
            super("planned failure " + id, null, true, false); // suppression on: failures are combined
            this.id = id;
        }
    }

    private final long seed;
    private final double minutes;
    private final List<SleepStrategy> strategies;
    private final int churnCycles;
    private final long stallNanos;
    private final AtomicLong progress = new AtomicLong(System.nanoTime());
    private final AtomicReference<String> phase = new AtomicReference<>("start");
    private final Map<SleepStrategy, long[]> tasksPerStrategy = new EnumMap<>(SleepStrategy.class);
    private volatile ThreadPool currentPool;

    Soak(long seed, double minutes, List<SleepStrategy> strategies, int churnCycles, long stallNanos) {
        this.seed = seed;
        this.minutes = minutes;
        this.strategies = strategies;
        this.churnCycles = churnCycles;
        this.stallNanos = stallNanos;
    }

    public static void main(String[] args) throws Exception {
        long seed = System.nanoTime();
        double minutes = 1;
        int churn = 20_000;
        long stall = 10;
        List<SleepStrategy> strategies = new ArrayList<>(List.of(SleepStrategy.values()));
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--minutes": minutes = Double.parseDouble(args[++i]); break;
                case "--seed": seed = Long.parseLong(args[++i]); break;
                case "--churn-cycles": churn = Integer.parseInt(args[++i]); break;
                case "--stall-seconds": stall = Long.parseLong(args[++i]); break;
                case "--strategies":
                    strategies.clear();
                    for (String s : args[++i].split(",")) {
                        strategies.add(SleepStrategy.valueOf(s.trim()));
                    }
                    break;
                default:
                    System.err.println("usage: Soak [--minutes M] [--seed S] [--strategies A,B] [--churn-cycles N]"
                            + " [--stall-seconds S]");
                    System.exit(2);
            }
        }
        Soak soak = new Soak(seed, minutes, strategies, churn, TimeUnit.SECONDS.toNanos(stall));
        System.exit(soak.run());
    }

    int run() throws InterruptedException {
        System.out.printf("soak: seed %d, %.2f minutes, strategies %s, %d cores%n", seed, minutes, strategies,
                Runtime.getRuntime().availableProcessors());
        List<SleepStrategy> usable = new ArrayList<>();
        for (SleepStrategy s : strategies) {
            try (ThreadPool p = ThreadPool.builder().threads(1).sleepStrategy(s).build()) {
                usable.add(s);
            } catch (UnsupportedOperationException e) {
                System.out.println("soak: " + s + " is not implemented: skipped (" + e.getMessage() + ")");
            }
        }
        Thread watchdog = startWatchdog();
        try {
            long deadline = System.nanoTime() + (long) (minutes * 60e9);
            SplittableRandom rnd = new SplittableRandom(seed);
            int round = 0;
            // Every strategy gets the same share: rounds go round-robin over the strategies.
            do {
                SleepStrategy s = usable.get(round % usable.size());
                long roundSeed = rnd.nextLong();
                soakRound(s, roundSeed, round);
                round++;
            } while (System.nanoTime() < deadline || round < usable.size());
            for (SleepStrategy s : usable) {
                churn(s, rnd.nextLong());
            }
            for (SleepStrategy s : usable) {
                long[] t = tasksPerStrategy.get(s);
                System.out.printf("soak: %-18s rounds %5d  tasks %,12d  failures delivered %,8d  churn sleeps %,10d"
                        + "  pools %,6d  echo connections %,7d  echoes %,8d%n", s, t[0], t[1], t[2], t[3], t[4], t[5],
                        t[6]);
            }
            System.out.println("soak: PASS (seed " + seed + ")");
            return 0;
        } catch (SoakFailure | AssertionError e) {
            System.out.println("soak: FAIL in " + phase.get() + ": " + e.getMessage());
            System.out.println("soak: replay with --seed " + seed);
            e.printStackTrace(System.out);
            return 1;
        } finally {
            watchdog.interrupt();
        }
    }

    private long[] stats(SleepStrategy s) {
        return tasksPerStrategy.computeIfAbsent(s, k -> new long[7]);
    }

    private void tick() {
        progress.set(System.nanoTime());
    }

    private Thread startWatchdog() {
        Thread t = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
                long idle = System.nanoTime() - progress.get();
                if (idle > stallNanos) {
                    System.out.println("soak: FAIL: STALL: no progress for " + TimeUnit.NANOSECONDS.toMillis(idle)
                            + " ms in " + phase.get() + " (a lost wake-up?)");
                    System.out.println("soak: pool: " + currentPool);
                    System.out.println("soak: replay with --seed " + seed);
                    for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
                        System.out.println("\"" + e.getKey().getName() + "\" " + e.getKey().getState());
                        for (StackTraceElement f : e.getValue()) {
                            System.out.println("    at " + f);
                        }
                    }
                    System.out.flush();
                    Runtime.getRuntime().halt(3);
                }
            }
        }, "soak-watchdog");
        t.setDaemon(true);
        t.start();
        return t;
    }

    // --- one round: a pool, several outside threads, random operation trees ----------------------------------------

    private void soakRound(SleepStrategy strategy, long roundSeed, int round) throws InterruptedException {
        SplittableRandom rnd = new SplittableRandom(roundSeed);
        int[] sizes = {1, 2, 3, 4, 8, 16};
        int threads = sizes[rnd.nextInt(sizes.length)];
        int outside = 1 + rnd.nextInt(3);
        boolean closeUnderLoad = rnd.nextInt(3) == 0;
        int opsPerThread = 20 + rnd.nextInt(60);
        boolean withIo = rnd.nextInt(3) != 0;
        phase.set("round " + round + " (" + strategy + ", " + threads + " threads, " + outside + " outside threads, "
                + (withIo ? "echo traffic, " : "") + (closeUnderLoad ? "closed under load" : "closed when done")
                + ", round seed " + roundSeed + ")");
        Tracker tr = new Tracker(1 << 20);
        Thread[] workers = new Thread[threads];
        AtomicInteger exited = new AtomicInteger();
        java.util.List<Thread> started = new java.util.concurrent.CopyOnWriteArrayList<>(); // stand-ins too
        ThreadPool pool = ThreadPool.builder()
                .threads(threads)
                .sleepStrategy(strategy)
                .threadName(i -> "soak-" + strategy + "-" + i)
                .onThreadStart(i -> {
                    workers[i] = Thread.currentThread(); // the index's latest thread, for the interrupts
                    started.add(Thread.currentThread());
                })
                .onThreadExit(i -> exited.incrementAndGet())
                .uncaughtExceptionHandler((t, e) -> tr.handled(e))
                .build();
        currentPool = pool;
        tick();
        EchoTraffic echo = null;
        if (withIo) {
            try {
                echo = new EchoTraffic(pool, new SplittableRandom(rnd.nextLong()), 1 + rnd.nextInt(2), this::tick);
            } catch (java.io.IOException e) {
                throw failure("cannot open the echo server: " + e, e);
            }
        }
        Thread[] clients = new Thread[outside];
        AtomicReference<Throwable> clientFailure = new AtomicReference<>();
        AtomicInteger clientsDone = new AtomicInteger();
        for (int c = 0; c < outside; c++) {
            long clientSeed = rnd.nextLong();
            clients[c] = new Thread(() -> {
                try {
                    client(pool, tr, new SplittableRandom(clientSeed), opsPerThread, workers);
                } catch (Throwable e) {
                    clientFailure.compareAndSet(null, e);
                } finally {
                    clientsDone.incrementAndGet();
                }
            }, "soak-client-" + c);
            clients[c].start();
        }
        if (closeUnderLoad) {
            while (clientsDone.get() == 0 && tr.accepted.get() < opsPerThread) { // some load, whatever the timing
                Thread.onSpinWait();
            }
            if (echo != null) {
                echo.shuttingDown();
            }
            pool.close(); // later outside submissions are rejected; everything accepted still runs
        }
        for (Thread c : clients) {
            while (c.isAlive()) {
                c.join(100);
                tick();
            }
        }
        if (clientFailure.get() != null) {
            throw failure("outside thread failed: " + clientFailure.get(), clientFailure.get());
        }
        if (echo != null) { // waits without reporting progress: a lost IO completion is the watchdog's to catch
            phase.set(phase.get() + " (the echo traffic's end)");
            if (closeUnderLoad) {
                echo.afterShutdown();
            } else {
                echo.awaitEnd();
            }
        }
        if (!closeUnderLoad) {
            checkIdleCounters(pool, strategy, threads);
            pool.close();
        }
        tick();
        // After close: every accepted task ran exactly once, every planned failure was delivered once, no thread left.
        tr.checkExactlyOnce();
        for (Thread w : started) {
            w.join(10_000); // a spare that retired just before the close may still be on its way out
            if (w.isAlive()) {
                throw new SoakFailure("pool thread " + w.getName() + " alive after close()");
            }
        }
        if (exited.get() != started.size()) { // one start and one exit hook per thread, stand-ins included
            throw new SoakFailure(exited.get() + " exit hooks ran after close(), for " + started.size()
                    + " threads started (" + threads + " workers)");
        }
        checkClosedCounters(pool, strategy, threads);
        long[] st = stats(strategy);
        st[0]++;
        st[1] += tr.ran.get();
        st[2] += tr.failuresDelivered.get();
        if (echo != null) {
            st[5] += echo.connections();
            st[6] += echo.exchanges();
        }
        currentPool = null;
    }

    /** What one outside thread does: random operations, each a random tree. */
    private void client(ThreadPool pool, Tracker tr, SplittableRandom rnd, int ops, Thread[] workers) {
        for (int i = 0; i < ops; i++) {
            tick();
            tr.pending.get().clear();
            int op = rnd.nextInt(6);
            long opSeed = rnd.nextLong();
            try {
                switch (op) {
                    case 0: {
                        int depth = 1 + rnd.nextInt(8);
                        long expected = (1L << depth) - 1;
                        long base = tr.newBlock((int) expected);
                        long got = tr.expectRethrow(() -> pool.install(() -> tree(tr, base, 1, depth, opSeed)));
                        if (got != expected && got != Tracker.PLANNED) {
                            throw new SoakFailure("join tree of depth " + depth + " returned " + got);
                        }
                        break;
                    }
                    case 1:
                        scopeOp(pool, tr, new Random(opSeed));
                        break;
                    case 2:
                        spawnOp(pool, tr, new Random(opSeed));
                        break;
                    case 3: {
                        long id = tr.newTask();
                        long got = tr.expectRethrow(() -> pool.install(() -> tr.body(id, new Random(opSeed)) + 41));
                        if (got != 42 && got != Tracker.PLANNED) {
                            throw new SoakFailure("install returned " + got);
                        }
                        break;
                    }
                    case 4:
                        broadcastOp(pool, tr, new Random(opSeed));
                        break;
                    default:
                        if (rnd.nextInt(4) == 0) { // a worker interrupt, from outside: it must not break anything
                            Thread w = workers[rnd.nextInt(workers.length)];
                            if (w != null) {
                                w.interrupt();
                            }
                        }
                        pool.join(() -> tr.ranPlain(), () -> tr.ranPlain());
                }
            } catch (RejectedExecutionException e) {
                tr.rejected.incrementAndGet(); // closed under load: not accepted, must not run
                tr.forgetPending();
            }
            if (rnd.nextInt(10) == 0) {
                LockSupport.parkNanos(rnd.nextInt(200_000));
            }
        }
    }

    /**
     * A binary tree of joins, node {@code idx} (heap order) of a block of ids: each node is join(its own task, join(left
     * subtree, right subtree)), so every task runs whatever fails (both halves of a join always run) and
     * failures come back combined. Returns the node count.
     */
    private long tree(Tracker tr, long base, int idx, int depth, long treeSeed) {
        long id = base + idx - 1;
        Random r = new Random(treeSeed ^ (id * 0x9E3779B97F4A7C15L));
        if (depth == 1) {
            return tr.body(id, r);
        }
        Pair<Long, Long> p = Spindle.join(() -> tr.body(id, r), () -> {
            Pair<Long, Long> c = Spindle.join(() -> tree(tr, base, 2 * idx, depth - 1, treeSeed),
                    () -> tree(tr, base, 2 * idx + 1, depth - 1, treeSeed));
            return c.first() + c.second();
        });
        return p.first() + p.second();
    }

    private void scopeOp(ThreadPool pool, Tracker tr, Random rnd) {
        int n = 1 + rnd.nextInt(20);
        long[] ids = new long[n];
        long[] nested = new long[n]; // -1: a plain spawn; else the id of a task spawned from inside the spawned one
        long[] seeds = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = tr.newTask();
            nested[i] = rnd.nextBoolean() ? tr.newTask() : -1;
            seeds[i] = rnd.nextLong();
        }
        tr.expectRethrow(() -> {
            pool.scope(s -> {
                for (int i = 0; i < n; i++) {
                    long id = ids[i];
                    long nid = nested[i];
                    long ts = seeds[i];
                    if (nid < 0) {
                        s.spawn(() -> tr.body(id, new Random(ts)));
                    } else {
                        s.spawn(inner -> { // a nested spawn from inside the scope
                            inner.spawn(() -> tr.body(nid, new Random(ts ^ 1)));
                            tr.body(id, new Random(ts));
                        });
                    }
                }
            });
            return 0L;
        });
    }

    private void spawnOp(ThreadPool pool, Tracker tr, Random rnd) {
        int n = 1 + rnd.nextInt(10);
        for (int i = 0; i < n; i++) {
            long id = tr.newTask();
            long ts = rnd.nextLong();
            boolean fails = tr.plannedToFail(id);
            if (fails) {
                tr.expectHandler(id);
            }
            try {
                pool.spawn(() -> tr.body(id, new Random(ts)));
                tr.pending.get().remove(id); // accepted: a later rejection in this op does not concern it
            } catch (RejectedExecutionException e) {
                tr.unaccept(id, fails);
                throw e;
            }
        }
    }

    private void broadcastOp(ThreadPool pool, Tracker tr, Random rnd) {
        int n = pool.threadCount();
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = tr.newTask();
        }
        long bs = rnd.nextLong();
        tr.expectRethrow(() -> {
            List<Integer> res = pool.broadcast((BroadcastContext ctx) -> {
                if (Spindle.currentThreadIndex().orElse(-1) != ctx.index()) {
                    throw new SoakFailure("broadcast copy " + ctx.index() + " ran on worker "
                            + Spindle.currentThreadIndex());
                }
                tr.body(ids[ctx.index()], new Random(bs + ctx.index()));
                return ctx.index();
            });
            for (int i = 0; i < n; i++) {
                if (res.get(i) != i) {
                    throw new SoakFailure("broadcast results out of order: " + res);
                }
            }
            return 0L;
        });
    }

    // --- the sleep counters, read from the registry (internal: by reflection, class path only) ----------------------

    private static Object protocol(ThreadPool pool) {
        try {
            Field f = ThreadPool.class.getDeclaredField("registry");
            f.setAccessible(true);
            Object registry = f.get(pool);
            Method m = registry.getClass().getDeclaredMethod("sleep");
            m.setAccessible(true);
            return m.invoke(registry);
        } catch (ReflectiveOperationException e) {
            throw new SoakFailure("cannot reach the sleep protocol of " + pool + ": " + e);
        }
    }

    private static long call(Object target, String method) {
        try {
            Method m = target.getClass().getDeclaredMethod(method);
            m.setAccessible(true);
            Object r = m.invoke(target);
            if (r instanceof Number) {
                return ((Number) r).longValue();
            }
            Method load = r.getClass().getDeclaredMethod("load"); // JecSleep.counters() -> JecCounters.load()
            load.setAccessible(true);
            return (long) load.invoke(r);
        } catch (ReflectiveOperationException e) {
            throw new SoakFailure("cannot call " + method + " on " + target + ": " + e);
        }
    }

    /** Idle pool: every worker ends up asleep, and the counters say so exactly (JEC: inactive == sleeping == n). */
    private void checkIdleCounters(ThreadPool pool, SleepStrategy s, int threads) {
        if (s != SleepStrategy.JOBS_EVENT_COUNTER) {
            return; // SLEEPY_WORKER and HINT_PIPE have no per-thread counts to compare; checked after close
        }
        phase.set(phase.get().replaceFirst(" \\(idle check\\)$", "") + " (idle check)");
        Object p = protocol(pool);
        while (true) { // no timing: wait until they all sleep; the watchdog fails us if they never do
            long w = call(p, "counters");
            int inactive = (int) ((w >>> 16) & 0xFFFF);
            int sleeping = (int) (w & 0xFFFF);
            if (sleeping > inactive || inactive > threads) {
                throw new SoakFailure("idle counters inconsistent: inactive " + inactive + ", sleeping " + sleeping);
            }
            if (inactive == threads && sleeping == threads) {
                break;
            }
            LockSupport.parkNanos(1_000_000);
        }
        tick();
    }

    /** After close: the counters are back to rest. */
    private static void checkClosedCounters(ThreadPool pool, SleepStrategy s, int threads) {
        Object p = protocol(pool);
        switch (s) {
            case JOBS_EVENT_COUNTER: {
                long w = call(p, "counters");
                if ((w & 0xFFFF_FFFFL) != 0) {
                    throw new SoakFailure("JEC counters not zero after close: inactive " + ((w >>> 16) & 0xFFFF)
                            + ", sleeping " + (w & 0xFFFF));
                }
                break;
            }
            case SLEEPY_WORKER: {
                long w = call(p, "loadState");
                if (w != 0) {
                    throw new SoakFailure("SLEEPY_WORKER state word not 0 after close: " + w);
                }
                break;
            }
            case HINT_PIPE: {
                long c = call(p, "sleepersCount");
                // H3: credits may be left: one from an injection's notifyAnywhere(1) plus n from termination's
                // notifyAnywhere(n), which only stops at -n. Nobody registers any more, so they are harmless.
                if (c > 0 || c < -(threads + 1)) {
                    throw new SoakFailure("HINT_PIPE sleepers count " + c + " after close (allowed -" + (threads + 1)
                            + "..0)");
                }
                break;
            }
            default:
                break;
        }
    }

    // --- churn: many sleep/wake cycles on a long-lived pool, then many pools ----------------------------------------

    private void churn(SleepStrategy s, long churnSeed) throws InterruptedException {
        SplittableRandom rnd = new SplittableRandom(churnSeed);
        phase.set("churn (" + s + ", seed " + churnSeed + ")");
        long sleeps = 0;
        try (ThreadPool pool = ThreadPool.builder().threads(2).sleepStrategy(s).build()) {
            currentPool = pool;
            PoolStats before = pool.stats();
            AtomicInteger ran = new AtomicInteger();
            long slept = before.sleeps();
            for (int i = 0; i < churnCycles; i++) {
                // One job from outside, then wait until a worker has gone back to sleep: each cycle is at least one
                // wake-up and one sleep (no timing: we wait for the count; the watchdog catches a hang).
                int expect = i + 1;
                pool.spawn(ran::incrementAndGet);
                while (ran.get() < expect) {
                    Thread.onSpinWait();
                }
                while (pool.stats().sleeps() <= slept) {
                    LockSupport.parkNanos(rnd.nextInt(20_000));
                }
                slept = pool.stats().sleeps();
                if ((i & 255) == 0) {
                    tick();
                }
            }
            sleeps = pool.stats().sleeps() - before.sleeps();
            if (s == SleepStrategy.JOBS_EVENT_COUNTER) {
                checkIdleCounters(pool, s, 2); // after many cycles the counts have not drifted
            }
        }
        long[] st = stats(s);
        st[3] += sleeps;
        // Repeated pool creation: every pool's threads end and its counters return to rest.
        int pools = Math.max(20, churnCycles / 200);
        for (int i = 0; i < pools; i++) {
            int n = 1 + rnd.nextInt(16);
            Thread[] workers = new Thread[n];
            ThreadPool pool = ThreadPool.builder().threads(n).sleepStrategy(s)
                    .onThreadStart(k -> workers[k] = Thread.currentThread()).build();
            currentPool = pool;
            AtomicInteger c = new AtomicInteger();
            pool.scope(sc -> {
                for (int k = 0; k < 8; k++) {
                    sc.spawn(c::incrementAndGet);
                }
            });
            pool.close();
            if (c.get() != 8) {
                throw new SoakFailure("churn pool ran " + c.get() + " of 8 tasks");
            }
            for (Thread w : workers) {
                if (w != null && w.isAlive()) {
                    throw new SoakFailure("churn pool worker alive after close");
                }
            }
            checkClosedCounters(pool, s, n);
            tick();
        }
        st[4] += pools;
        currentPool = null;
    }

    private static SoakFailure failure(String m, Throwable cause) {
        SoakFailure f = new SoakFailure(m);
        f.initCause(cause);
        return f;
    }

    // --- bookkeeping ------------------------------------------------------------------------------------------------

    /** Counts runs per task id, planned failures and where they were delivered. */
    final class Tracker {
        static final long PLANNED = Long.MIN_VALUE;
        final AtomicIntegerArray runs;
        final AtomicLong nextId = new AtomicLong();
        final AtomicLong ran = new AtomicLong();
        final AtomicLong accepted = new AtomicLong();
        final AtomicLong rejected = new AtomicLong();
        final AtomicLong failuresDelivered = new AtomicLong();
        final Map<Long, Boolean> handlerExpected = new ConcurrentHashMap<>();
        final Map<Long, Integer> handlerGot = new ConcurrentHashMap<>();
        final Map<Long, Boolean> unaccepted = new ConcurrentHashMap<>();
        final ThreadLocal<List<Long>> pending = ThreadLocal.withInitial(ArrayList::new);

        Tracker(int capacity) {
            runs = new AtomicIntegerArray(capacity);
        }

        long newTask() {
            long id = nextId.getAndIncrement();
            if (id >= runs.length()) {
                throw new SoakFailure("too many tasks in one round");
            }
            accepted.incrementAndGet();
            pending.get().add(id);
            return id;
        }

        /** The operation was rejected (pool closed): the ids it created were never accepted, must never run. */
        void forgetPending() {
            for (long id : pending.get()) {
                unaccepted.put(id, true);
            }
            pending.get().clear();
        }

        void unaccept(long id, boolean fails) {
            unaccepted.put(id, true);
            if (fails) {
                handlerExpected.remove(id);
            }
        }

        boolean plannedToFail(long id) {
            return new Random(seed ^ (id * 0x9E3779B97F4A7C15L)).nextInt(100) == 0; // 1%
        }

        void expectHandler(long id) {
            handlerExpected.put(id, true);
        }

        /** A task body: counts the run, maybe sleeps, maybe leaves its interrupt flag set, maybe fails (1%). */
        long body(long id, Random rnd) {
            int n = runs.incrementAndGet((int) id);
            ran.incrementAndGet();
            if (n != 1) {
                throw new SoakFailure("task " + id + " ran " + n + " times");
            }
            int r = rnd.nextInt(100);
            if (r < 3) {
                LockSupport.parkNanos(rnd.nextInt(300_000)); // random delay
            } else if (r < 6) {
                // a blocking call (issue 33): on a worker it hands the index to a stand-in (B2), in a join's half,
                // a scope's task, a broadcast copy or an install; nested when the task is itself past a hand-off
                int nanos = rnd.nextInt(300_000);
                Spindle.blocking(() -> {
                    LockSupport.parkNanos(nanos);
                    return null;
                });
            } else if (r < 8) {
                // a task leaving the interrupt flag set: the worker clears it after the task (docs/DESIGN.md §1.11)
                Thread.currentThread().interrupt();
            }
            if (plannedToFail(id)) {
                throw new Planned(id);
            }
            return 1;
        }

        void ranPlain() {
            ran.incrementAndGet();
        }

        /** The pool's handler: only spawn failures may arrive here, each exactly once. */
        void handled(Throwable e) {
            if (!(e instanceof Planned)) {
                handlerGot.put(-1L - handlerGot.size(), 1);
                System.out.println("soak: unexpected failure at the handler: " + e);
                e.printStackTrace(System.out);
                return;
            }
            handlerGot.merge(((Planned) e).id, 1, Integer::sum);
            failuresDelivered.incrementAndGet();
        }

        /**
         * Runs an operation whose failures must come back to the caller (join/scope/install/broadcast): a planned
         * failure of any task inside it must be rethrown here (others suppressed), never lost, never at the handler.
         */
        long expectRethrow(java.util.function.Supplier<Long> op) {
            long result;
            Throwable thrown = null;
            try {
                result = op.get();
            } catch (Planned p) {
                thrown = p;
                result = PLANNED;
            }
            List<Long> ids = new ArrayList<>(pending.get());
            pending.get().clear();
            // Which of this operation's tasks failed on purpose and ran? Each must be the rethrown one or suppressed.
            List<Long> failed = new ArrayList<>();
            for (long id : ids) {
                if (runs.get((int) id) > 0 && plannedToFail(id)) {
                    failed.add(id);
                }
            }
            if (failed.isEmpty() && thrown != null) {
                throw new SoakFailure("rethrown failure " + thrown + " from no failing task");
            }
            if (!failed.isEmpty()) {
                if (thrown == null) {
                    throw new SoakFailure("planned failures " + failed + " were not rethrown to the caller");
                }
                List<Long> seen = new ArrayList<>();
                collect(thrown, seen, java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()));
                // All tasks ran; every failure is the rethrown one or suppressed, exactly once.
                java.util.Collections.sort(seen);
                java.util.Collections.sort(failed);
                if (!seen.equals(failed)) {
                    throw new SoakFailure("failures delivered " + seen + ", expected exactly " + failed);
                }
                failuresDelivered.addAndGet(failed.size());
            }
            return result;
        }

        /** Every planned failure in the suppression tree, each instance once (docs/DESIGN.md §1.8). */
        private void collect(Throwable t, List<Long> seen, java.util.Set<Throwable> visited) {
            if (!visited.add(t)) {
                throw new SoakFailure("the same failure instance appears twice among the suppressed: " + t);
            }
            if (t instanceof Planned) {
                seen.add(((Planned) t).id);
            }
            for (Throwable s : t.getSuppressed()) {
                collect(s, seen, visited);
            }
        }

        long newBlock(int count) {
            long base = nextId.getAndAdd(count);
            if (base + count > runs.length()) {
                throw new SoakFailure("too many tasks in one round");
            }
            accepted.addAndGet(count);
            for (int i = 0; i < count; i++) {
                pending.get().add(base + i);
            }
            return base;
        }

        void checkExactlyOnce() {
            long n = nextId.get();
            for (int id = 0; id < n; id++) {
                int r = runs.get(id);
                boolean notAccepted = unaccepted.containsKey((long) id);
                if (!notAccepted && r != 1) {
                    throw new SoakFailure("accepted task " + id + " ran " + r + " times");
                }
                if (notAccepted && r > 1) {
                    throw new SoakFailure("task " + id + " ran " + r + " times");
                }
            }
            for (Long id : handlerExpected.keySet()) {
                Integer got = handlerGot.get(id);
                if (!unaccepted.containsKey(id) && (got == null || got != 1)) {
                    throw new SoakFailure("spawn failure " + id + " delivered " + got + " times to the handler");
                }
            }
            for (Map.Entry<Long, Integer> e : handlerGot.entrySet()) {
                if (e.getKey() < 0 || !handlerExpected.containsKey(e.getKey())) {
                    throw new SoakFailure("unexpected failure at the handler (id " + e.getKey() + ")");
                }
            }
        }
    }
}
