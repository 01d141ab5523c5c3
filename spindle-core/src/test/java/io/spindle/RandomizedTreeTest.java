package io.spindle;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bounded randomized soak: a seeded {@link Random} builds trees of join / scope (with nested spawns) / spawn / install
 * / broadcast / failure-catching guards, mixing {@link ThreadPool} methods and {@link Spindle} free functions, and
 * several outside threads run such trees at once against one pool, with random pauses so that workers keep falling
 * asleep and being woken. Every node returns a checkable value (the sum of its leaves' values), every node must run
 * exactly once, every failure must come back exactly once to the guard above it, and fire-and-forget spawns must all
 * run. A hang becomes a failure with a thread dump. Replay a failure with {@code -Dspindle.seed=<seed>} from its
 * message.
 */
class RandomizedTreeTest {
    static final int OUTSIDE_THREADS = 4;
    /**
     * Scale the soak with {@code -Dspindle.soak.scale=N} (default 1: a few seconds for all configs on 2 cores). A run
     * must stay under the 85 s watchdog (and JUnit's 120 s default timeout), so keep N at 10 or below.
     */
    static final int SCALE = Math.max(1, Integer.getInteger("spindle.soak.scale", 1));
    static final int TREES_PER_THREAD = 50 * SCALE;
    static final int NODE_BUDGET = 400;
    static final int MAX_DEPTH = 9;
    /** Trees run one at a time, each into a fully sleeping pool, after the concurrent phase. */
    static final int SOLO_TREES = 15 * SCALE;

    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    /** A failure thrown by a FAIL node; carries the node's id. */
    static final class TreeFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int id;

        TreeFailure(int id) {
            super("tree failure " + id, null, true, false);
            this.id = id;
        }
    }

    enum Kind { LEAF, FAIL, JOIN, SCOPE, INSTALL, SPAWN, GUARD, BROADCAST }

    /** How a node calls the pool: a ThreadPool method (several overloads) or a Spindle free function. */
    enum How { POOL, POOL_ALT, FREE, FREE_ALT }

    /** A spawned scope task: spawns its sub-tasks into the scope first, then evaluates its body. */
    static final class ScopeTask {
        final int id;
        final Node body;
        final List<ScopeTask> subs;

        ScopeTask(int id, Node body, List<ScopeTask> subs) {
            this.id = id;
            this.body = body;
            this.subs = subs;
        }
    }

    static final class Node {
        final int id;
        final Kind kind;
        final How how;
        final boolean onPool;
        int delayUs;          // LEAF
        Node a;               // JOIN a, INSTALL/SPAWN/GUARD child, SCOPE inline body
        Node b;               // JOIN b
        List<ScopeTask> tasks = List.of(); // SCOPE
        long value;           // what evaluating this node returns
        List<Integer> fails = List.of();   // FAIL ids that propagate out of this node (not crossing SPAWN / GUARD)

        Node(int id, Kind kind, How how, boolean onPool) {
            this.id = id;
            this.kind = kind;
            this.how = how;
            this.onPool = onPool;
        }
    }

    /** One tree with its expected results, built sequentially from a seed. */
    static final class Tree {
        final long seed;
        final int threads;
        final Random rnd;
        int nextId;
        int budget = NODE_BUDGET;
        long expectedSpawnSum;
        int spawnNodes;
        Node root;

        Tree(long seed, int threads) {
            this.seed = seed;
            this.threads = threads;
            this.rnd = new Random(seed);
            this.root = gen(0, false, false);
        }

        private Node gen(int depth, boolean onPool, boolean underGuard) {
            budget--;
            boolean small = budget <= 0 || depth >= MAX_DEPTH;
            Kind kind;
            if (!onPool) {
                // an outside thread may only call the pool's own methods; leaves must run on workers
                Kind[] outer = {Kind.JOIN, Kind.JOIN, Kind.SCOPE, Kind.SCOPE, Kind.INSTALL, Kind.SPAWN, Kind.GUARD,
                    Kind.BROADCAST};
                kind = small ? Kind.INSTALL : outer[rnd.nextInt(outer.length)];
                if (kind == Kind.GUARD && !small && depth > 2) {
                    kind = Kind.INSTALL;
                }
            } else if (small) {
                kind = underGuard && rnd.nextInt(8) == 0 ? Kind.FAIL : Kind.LEAF;
            } else {
                int r = rnd.nextInt(100);
                if (r < 24) {
                    kind = Kind.LEAF;
                } else if (r < 28) {
                    kind = underGuard ? Kind.FAIL : Kind.LEAF;
                } else if (r < 58) {
                    kind = Kind.JOIN;
                } else if (r < 72) {
                    kind = Kind.SCOPE;
                } else if (r < 78) {
                    kind = Kind.INSTALL;
                } else if (r < 87) {
                    kind = Kind.SPAWN;
                } else if (r < 97) {
                    kind = Kind.GUARD;
                } else {
                    kind = Kind.BROADCAST;
                }
            }
            How how = onPool ? How.values()[rnd.nextInt(4)] : How.values()[rnd.nextInt(2)];
            Node n = new Node(nextId++, kind, how, onPool);
            switch (kind) {
                case LEAF -> {
                    int r = rnd.nextInt(100);
                    // mostly instant; some short parks and spins; a few long parks (long enough for the waiting
                    // owner, and everyone else, to fall asleep before the leaf ends)
                    n.delayUs = r < 2 ? 1_000 + rnd.nextInt(2_000) : r < 9 ? 20 + rnd.nextInt(300)
                            : r < 13 ? -(10 + rnd.nextInt(60)) : 0; // <0: spin
                    n.value = n.id + 1L;
                }
                case FAIL -> n.fails = List.of(n.id);
                case JOIN -> {
                    n.a = gen(depth + 1, true, underGuard);
                    n.b = gen(depth + 1, true, underGuard);
                    n.value = n.a.value + n.b.value;
                    n.fails = concat(n.a.fails, n.b.fails);
                }
                case SCOPE -> {
                    int k = rnd.nextInt(depth < 3 ? 5 : 3);
                    List<ScopeTask> tasks = new ArrayList<>();
                    long[] sum = {0};
                    List<Integer> fails = new ArrayList<>();
                    for (int i = 0; i < k; i++) {
                        tasks.add(genTask(depth + 1, underGuard, sum, fails));
                    }
                    n.tasks = tasks;
                    n.a = gen(depth + 1, true, underGuard);
                    n.value = sum[0] + n.a.value;
                    fails.addAll(n.a.fails);
                    n.fails = fails;
                }
                case INSTALL -> {
                    n.a = gen(depth + 1, true, underGuard);
                    n.value = n.a.value;
                    n.fails = n.a.fails;
                }
                case SPAWN -> {
                    // fire and forget: a failure would go to the handler, so none may escape the spawned child
                    n.a = gen(depth + 1, true, false);
                    n.value = 0;
                    spawnNodes++;
                    expectedSpawnSum += n.a.value;
                }
                case GUARD -> {
                    n.a = gen(depth + 1, onPool, true);
                    n.value = n.a.fails.isEmpty() ? n.a.value : 0;
                }
                case BROADCAST -> n.value = (long) threads * (threads - 1) / 2 + 1000L * threads;
                default -> throw new AssertionError(kind);
            }
            return n;
        }

        private ScopeTask genTask(int depth, boolean underGuard, long[] sum, List<Integer> fails) {
            int id = nextId++;
            budget--;
            List<ScopeTask> subs = new ArrayList<>();
            int k = budget > 0 && depth < MAX_DEPTH ? rnd.nextInt(3) : 0;
            for (int i = 0; i < k; i++) {
                subs.add(genTask(depth + 1, underGuard, sum, fails));
            }
            Node body = gen(depth + 1, true, underGuard);
            sum[0] += body.value;
            fails.addAll(body.fails);
            return new ScopeTask(id, body, subs);
        }

        private static List<Integer> concat(List<Integer> x, List<Integer> y) {
            if (x.isEmpty()) {
                return y;
            }
            if (y.isEmpty()) {
                return x;
            }
            List<Integer> out = new ArrayList<>(x);
            out.addAll(y);
            return out;
        }
    }

    /** Executes one tree on a pool and records every deviation. */
    static final class Run {
        final Tree tree;
        final ThreadPool pool;
        final String prefix;
        final AtomicIntegerArray runs;
        final AtomicLong spawnSum = new AtomicLong();
        final CountDownLatch spawnsDone;
        final ConcurrentLinkedQueue<String> errors;

        Run(Tree tree, ThreadPool pool, String prefix, ConcurrentLinkedQueue<String> errors) {
            this.tree = tree;
            this.pool = pool;
            this.prefix = prefix;
            this.runs = new AtomicIntegerArray(tree.nextId);
            this.spawnsDone = new CountDownLatch(tree.spawnNodes);
            this.errors = errors;
        }

        void error(String what) {
            errors.add("tree seed=" + tree.seed + ": " + what);
        }

        long eval(Node n) {
            runs.incrementAndGet(n.id);
            if (n.onPool) {
                Thread t = Thread.currentThread();
                if (!t.getName().startsWith(prefix) || Spindle.currentThreadIndex().isEmpty()) {
                    error("node " + n.id + " " + n.kind + " ran off the pool, on " + t.getName());
                }
            }
            switch (n.kind) {
                case LEAF -> {
                    if (n.delayUs > 0) {
                        LockSupport.parkNanos(n.delayUs * 1_000L);
                    } else if (n.delayUs < 0) {
                        long end = System.nanoTime() - n.delayUs * 1_000L;
                        while (System.nanoTime() - end < 0) {
                            Thread.onSpinWait();
                        }
                    }
                    return n.id + 1L; // recomputed, not the expected value, so a lost or doubled result shows
                }
                case FAIL -> throw new TreeFailure(n.id);
                case JOIN -> {
                    switch (n.how) {
                        case POOL -> {
                            Pair<Long, Long> p = pool.join(() -> eval(n.a), () -> eval(n.b));
                            return p.first() + p.second();
                        }
                        case FREE -> {
                            Pair<Long, Long> p = Spindle.join(() -> eval(n.a), () -> eval(n.b));
                            return p.first() + p.second();
                        }
                        default -> {
                            long[] r = new long[2];
                            if (n.how == How.POOL_ALT) {
                                pool.join(() -> r[0] = eval(n.a), () -> r[1] = eval(n.b));
                            } else {
                                Spindle.join(() -> r[0] = eval(n.a), () -> r[1] = eval(n.b));
                            }
                            return r[0] + r[1];
                        }
                    }
                }
                case SCOPE -> {
                    AtomicLong acc = new AtomicLong();
                    switch (n.how) {
                        case POOL -> {
                            long inline = pool.scopeWithResult(s -> {
                                spawnTasks(s, n.tasks, acc);
                                return eval(n.a);
                            });
                            return inline + acc.get();
                        }
                        case FREE -> {
                            long inline = Spindle.scopeWithResult(s -> {
                                spawnTasks(s, n.tasks, acc);
                                return eval(n.a);
                            });
                            return inline + acc.get();
                        }
                        default -> {
                            java.util.function.Consumer<Scope> body = s -> {
                                spawnTasks(s, n.tasks, acc);
                                acc.addAndGet(eval(n.a));
                            };
                            if (n.how == How.POOL_ALT) {
                                pool.scope(body);
                            } else {
                                Spindle.scope(body);
                            }
                            return acc.get();
                        }
                    }
                }
                case INSTALL -> {
                    return pool.install(() -> eval(n.a));
                }
                case SPAWN -> {
                    Runnable task = () -> {
                        try {
                            spawnSum.addAndGet(eval(n.a));
                        } catch (Throwable e) {
                            error("spawned child of node " + n.id + " failed: " + e);
                        } finally {
                            spawnsDone.countDown();
                        }
                    };
                    switch (n.how) {
                        case POOL -> pool.spawn(task);
                        case POOL_ALT -> pool.execute(task);
                        default -> Spindle.spawn(task);
                    }
                    return 0;
                }
                case GUARD -> {
                    try {
                        long v = eval(n.a);
                        if (!n.a.fails.isEmpty()) {
                            error("guard " + n.id + ": expected failures " + n.a.fails + " but got value " + v);
                        }
                        return v;
                    } catch (TreeFailure e) {
                        checkFailures(n, e);
                        return 0;
                    } catch (Throwable e) {
                        error("guard " + n.id + ": unexpected throwable " + e + " (expected " + n.a.fails + ")");
                        return 0;
                    }
                }
                case BROADCAST -> {
                    List<Long> r = pool.broadcast(bc -> {
                        if (Spindle.currentThreadIndex().orElse(-1) != bc.index()) {
                            error("broadcast copy " + bc.index() + " ran on " + Thread.currentThread().getName());
                        }
                        return bc.index() + 1000L;
                    });
                    long s = 0;
                    for (long x : r) {
                        s += x;
                    }
                    return s;
                }
                default -> throw new AssertionError(n.kind);
            }
        }

        private void spawnTasks(Scope s, List<ScopeTask> tasks, AtomicLong acc) {
            for (ScopeTask t : tasks) {
                s.spawn(s2 -> {
                    runs.incrementAndGet(t.id);
                    spawnTasks(s2, t.subs, acc);
                    acc.addAndGet(eval(t.body));
                });
            }
        }

        private void checkFailures(Node guard, TreeFailure top) {
            List<Integer> got = new ArrayList<>();
            collect(top, got, Collections.newSetFromMap(new java.util.IdentityHashMap<>()));
            List<Integer> want = new ArrayList<>(guard.a.fails);
            Collections.sort(got);
            Collections.sort(want);
            if (!got.equals(want)) {
                error("guard " + guard.id + ": failures (first + suppressed) " + got + " but the subtree threw "
                        + want + " (each exactly once)");
            }
        }

        private static void collect(Throwable t, List<Integer> out, java.util.Set<Throwable> seen) {
            if (!seen.add(t)) {
                out.add(-1); // the same instance twice: a cycle or a duplicate
                return;
            }
            if (t instanceof TreeFailure tf) {
                out.add(tf.id);
            } else {
                out.add(Integer.MIN_VALUE); // a foreign throwable
            }
            for (Throwable s : t.getSuppressed()) {
                collect(s, out, seen);
            }
        }

        /** Runs the tree from the calling (outside) thread and checks everything. */
        void runAndCheck() {
            long got = eval(tree.root);
            if (got != tree.root.value) {
                error("root value " + got + " != expected " + tree.root.value);
            }
            if (!Watchdog.poll(() -> spawnsDone.getCount() == 0, Duration.ofSeconds(20))) {
                error("HANG: " + spawnsDone.getCount() + " of " + tree.spawnNodes + " fire-and-forget spawns never "
                        + "ran\n" + Watchdog.threadDump());
                return;
            }
            if (spawnSum.get() != tree.expectedSpawnSum) {
                error("spawned children summed to " + spawnSum.get() + " != expected " + tree.expectedSpawnSum);
            }
            TreeMap<Integer, Integer> wrong = new TreeMap<>();
            for (int i = 0; i < runs.length(); i++) {
                if (runs.get(i) != 1) {
                    wrong.put(i, runs.get(i));
                }
            }
            if (!wrong.isEmpty()) {
                error("nodes/tasks not run exactly once (id=times): " + wrong);
            }
        }
    }

    static long seed() {
        Long fixed = Long.getLong("spindle.seed");
        return fixed != null ? fixed : System.nanoTime() * 0x9E3779B97F4A7C15L;
    }

    static long mix(long seed, int a, int b) {
        long z = seed + 0x9E3779B97F4A7C15L * (a * 1_000_003L + b + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.TestPools#configs")
    void randomTreesFromSeveralOutsideThreads(TestPools.Config config) {
        long seed = seed();
        int n = config.threads();
        String prefix = "rt" + POOL_IDS.incrementAndGet() + "-w";
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        String[] where = new String[OUTSIDE_THREADS];
        java.util.Arrays.fill(where, "-");
        ThreadPool built = config.builder().threadName(i -> prefix + i)
                .uncaughtExceptionHandler((t, e) -> errors.add("uncaught on " + t.getName() + ": " + e))
                .build();
        java.util.function.Supplier<String> ctx = () -> "config=" + config + " seed=" + seed
                + " (replay: -Dspindle.seed=" + seed + ") outside threads at " + java.util.Arrays.toString(where)
                + " stats=" + built.stats() + " pool=" + built;
        long t0 = System.nanoTime();
        long nodes;
        try (Watchdog.Guard g = Watchdog.guard(built, ctx)) {
            ThreadPool pool = g.pool();
            AtomicLong nodeCount = new AtomicLong();
            Watchdog.run(Duration.ofSeconds(85), ctx, () -> {
                List<Thread> ts = new ArrayList<>();
                for (int t = 0; t < OUTSIDE_THREADS; t++) {
                    int me = t;
                    Thread th = new Thread(() -> {
                        Random gaps = new Random(mix(seed, me, -1));
                        for (int r = 0; r < TREES_PER_THREAD; r++) {
                            Tree tree = new Tree(mix(seed, me, r), n);
                            nodeCount.addAndGet(tree.nextId);
                            where[me] = "tree " + r + " (seed " + tree.seed + ", " + tree.nextId + " nodes)";
                            try {
                                new Run(tree, pool, prefix, errors).runAndCheck();
                            } catch (Throwable e) {
                                java.io.StringWriter sw = new java.io.StringWriter();
                                e.printStackTrace(new java.io.PrintWriter(sw));
                                errors.add("tree seed=" + tree.seed + " threw " + sw);
                            }
                            int g2 = gaps.nextInt(10);
                            if (g2 < 3) {
                                LockSupport.parkNanos(gaps.nextInt(2_000) * 1_000L);
                            } else if (g2 == 3) {
                                LockSupport.parkNanos(5_000_000L); // long enough for the pool to fall asleep
                            }
                        }
                        where[me] = "done";
                    }, "rt-outside-" + prefix + t);
                    th.setDaemon(true);
                    ts.add(th);
                }
                ts.forEach(Thread::start);
                for (Thread th : ts) {
                    th.join();
                }
                // Solo phase: one tree at a time into a pool that has fallen fully asleep, so that no other thread's
                // work can wake a worker whose wake-up was lost (that would only slow the run down, not hang it).
                Watchdog.Workers workers = new Watchdog.Workers(pool, prefix, n);
                for (int r = 0; r < SOLO_TREES; r++) {
                    workers.settle(Duration.ofSeconds(1));
                    Tree tree = new Tree(mix(seed, OUTSIDE_THREADS, r), n);
                    nodeCount.addAndGet(tree.nextId);
                    where[0] = "solo tree " + r + " (seed " + tree.seed + ", " + tree.nextId + " nodes)";
                    Run run = new Run(tree, pool, prefix, errors);
                    Watchdog.run(Duration.ofSeconds(20), ctx, () -> {
                        try {
                            run.runAndCheck();
                        } catch (Throwable e) {
                            java.io.StringWriter sw = new java.io.StringWriter();
                            e.printStackTrace(new java.io.PrintWriter(sw));
                            errors.add("tree seed=" + tree.seed + " threw " + sw);
                        }
                    });
                }
                where[0] = "done";
            });
            nodes = nodeCount.get();
        }
        System.out.printf("[RandomizedTreeTest] %s seed=%d: %d nodes in %d ms%n", config, seed, nodes,
                (System.nanoTime() - t0) / 1_000_000L);
        if (!errors.isEmpty()) {
            StringBuilder sb = new StringBuilder("config=" + config + " seed=" + seed + " (replay: -Dspindle.seed="
                    + seed + "): " + errors.size() + " error(s):\n");
            errors.stream().limit(20).forEach(e -> sb.append(" - ").append(e).append('\n'));
            fail(sb.toString());
        }
    }
}
