package io.spindle;

import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Turns hangs into test failures. An action runs on a helper thread under a deadline; if it has not ended by then, the
 * test fails with an {@link AssertionError} whose message holds the caller's context (seed, step, pool stats) and a
 * full dump of every thread: state, the lock it waits on and who holds it, the monitors and synchronizers it holds,
 * and its whole stack. A hung action's thread is interrupted and abandoned (it is a daemon), so the build never hangs.
 */
public final class Watchdog {
    /** Deadline for a guarded pool's close(): short, so that a hang plus the close stay under JUnit's 120 s. */
    public static final Duration CLOSE_DEADLINE = Duration.ofSeconds(20);

    /** Frames shown per thread (deep enough for nested joins; the test runner's own frames are cut). */
    private static final int MAX_FRAMES = 160;

    private static final AtomicInteger ACTION_IDS = new AtomicInteger();

    private Watchdog() {}

    /** An action that may throw anything. */
    @FunctionalInterface
    public interface Action {
        void run() throws Throwable;
    }

    /** A computation that may throw anything. */
    @FunctionalInterface
    public interface Computation<T> {
        T call() throws Throwable;
    }

    /** Runs {@code action} with {@code deadline}; see the class documentation. */
    public static void run(Duration deadline, String context, Action action) {
        run(deadline, () -> context, action);
    }

    /** As {@link #run(Duration, String, Action)}, the context computed only if the deadline passes. */
    public static void run(Duration deadline, Supplier<String> context, Action action) {
        call(deadline, context, () -> {
            action.run();
            return null;
        });
    }

    /** Runs {@code computation} with {@code deadline} and returns its result; a failure of it is rethrown as is. */
    public static <T> T call(Duration deadline, String context, Computation<T> computation) {
        return call(deadline, () -> context, computation);
    }

    /** As {@link #call(Duration, String, Computation)}, the context computed only if the deadline passes. */
    public static <T> T call(Duration deadline, Supplier<String> context, Computation<T> computation) {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            try {
                result.set(computation.call());
            } catch (Throwable e) {
                failure.set(e);
            } finally {
                done.countDown();
            }
        }, "watchdog-action-" + ACTION_IDS.incrementAndGet());
        t.setDaemon(true);
        t.start();
        boolean finished = awaitUninterruptibly(done, deadline);
        if (!finished) {
            String dump = threadDump();
            String ctx = safeContext(context);
            t.interrupt();
            throw new AssertionError("HANG: action did not finish within " + deadline.toMillis() + " ms on thread "
                    + t.getName() + "\ncontext: " + ctx + "\n" + dump);
        }
        Throwable e = failure.get();
        if (e != null) {
            if (e instanceof Error err) {
                throw err;
            }
            if (e instanceof RuntimeException re) {
                throw re;
            }
            throw new AssertionError("action failed (context: " + safeContext(context) + ")", e);
        }
        return result.get();
    }

    /**
     * Waits for {@code latch} up to {@code deadline}; on timeout fails with a thread dump. Use inside a watchdog action
     * or directly on the test thread.
     */
    public static void await(CountDownLatch latch, Duration deadline, Supplier<String> context) {
        if (!awaitUninterruptibly(latch, deadline)) {
            throw new AssertionError("HANG: latch still at " + latch.getCount() + " after " + deadline.toMillis()
                    + " ms\ncontext: " + safeContext(context) + "\n" + threadDump());
        }
    }

    /** Polls {@code condition} every 200 µs up to {@code deadline}; on timeout fails with a thread dump. */
    public static void awaitCondition(BooleanSupplier condition, Duration deadline, Supplier<String> context) {
        if (!poll(condition, deadline)) {
            throw new AssertionError("condition not reached within " + deadline.toMillis() + " ms\ncontext: "
                    + safeContext(context) + "\n" + threadDump());
        }
    }

    /** Polls {@code condition} every 200 µs up to {@code deadline}; returns whether it held. */
    public static boolean poll(BooleanSupplier condition, Duration deadline) {
        long end = System.nanoTime() + deadline.toNanos();
        while (true) {
            if (condition.getAsBoolean()) {
                return true;
            }
            if (System.nanoTime() - end > 0) {
                return false;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(200_000L);
        }
    }

    /**
     * Wraps a pool so that try-with-resources closes it under a deadline: if the pool does not terminate (a worker
     * never woke for its terminate latch, or work still hangs), the close fails with a thread dump instead of hanging,
     * after a {@code shutdownNow()}.
     */
    public static Guard guard(ThreadPool pool, Supplier<String> context) {
        return new Guard(pool, context, CLOSE_DEADLINE);
    }

    /** A pool closed under a deadline; see {@link #guard(ThreadPool, Supplier)}. */
    public static final class Guard implements AutoCloseable {
        private final ThreadPool pool;
        private final Supplier<String> context;
        private final Duration deadline;

        Guard(ThreadPool pool, Supplier<String> context, Duration deadline) {
            this.pool = pool;
            this.context = context;
            this.deadline = deadline;
        }

        public ThreadPool pool() {
            return pool;
        }

        @Override
        public void close() {
            Thread closer = new Thread(pool::close, "watchdog-closer-" + ACTION_IDS.incrementAndGet());
            closer.setDaemon(true);
            closer.start();
            long end = System.nanoTime() + deadline.toNanos();
            boolean interrupted = false;
            while (closer.isAlive() && System.nanoTime() - end < 0) {
                try {
                    closer.join(Math.max(1L, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())));
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            if (closer.isAlive()) {
                String dump = threadDump();
                String ctx = safeContext(context);
                String state = String.valueOf(pool);
                try {
                    pool.shutdownNow();
                } catch (Throwable ignored) {
                    // the failure below is what matters
                }
                throw new AssertionError("HANG: pool.close() did not return within " + deadline.toMillis()
                        + " ms (pool " + state + "; it was then shut down with shutdownNow)\ncontext: " + ctx + "\n"
                        + dump);
            }
        }
    }

    /**
     * Finds a pool's workers by their distinctive thread-name prefix (set through {@link ThreadPool.Builder#threadName})
     * and tells whether they are all asleep.
     */
    public static final class Workers {
        private final ThreadPool pool;
        private final String prefix;
        private final int n;
        private volatile Thread[] threads; // cached once all n were found

        public Workers(ThreadPool pool, String prefix, int n) {
            this.pool = pool;
            this.prefix = prefix;
            this.n = n;
        }

        /** @return the workers found so far (all n once they started) */
        public Thread[] threads() {
            Thread[] cached = threads;
            if (cached != null) {
                return cached;
            }
            Thread[] found = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> isWorkerName(t.getName()))
                    .sorted(Comparator.comparing(Thread::getName))
                    .toArray(Thread[]::new);
            if (found.length == n) {
                threads = found;
            }
            return found;
        }

        /** Worker names are exactly {@code prefix + index}; helper threads named {@code prefix + "-..."} are not. */
        private boolean isWorkerName(String name) {
            if (!name.startsWith(prefix) || name.length() == prefix.length()) {
                return false;
            }
            for (int i = prefix.length(); i < name.length(); i++) {
                if (!Character.isDigit(name.charAt(i))) {
                    return false;
                }
            }
            return true;
        }

        /** @return whether all n workers exist and none is RUNNABLE (all parked, waiting or blocked) */
        public boolean allParked() {
            Thread[] ts = threads();
            if (ts.length != n) {
                return false;
            }
            for (Thread t : ts) {
                Thread.State st = t.getState();
                if (st == Thread.State.RUNNABLE || st == Thread.State.NEW) {
                    return false;
                }
            }
            return true;
        }

        /** @return whether the stats say every worker is blocked now ({@code sleeps - wakeups >= n}) */
        public boolean statsSayAllAsleep() {
            PoolStats s = pool.stats();
            return s.sleeps() - s.wakeups() >= n;
        }

        /**
         * Waits (at most {@code max}) until every worker is asleep: every worker slept at least once since the pool
         * started ({@code sleeps >= n}) and now either all are parked by their thread state or the stats count n
         * blocked workers, seen twice in a row. Not a failure when it does not happen in time (a pool may lag);
         * returns whether it did.
         */
        public boolean settle(Duration max) {
            int[] streak = {0};
            return poll(() -> {
                boolean asleep = pool.stats().sleeps() >= n && (allParked() || statsSayAllAsleep());
                streak[0] = asleep ? streak[0] + 1 : 0;
                return streak[0] >= 2;
            }, max);
        }

        /** @return each worker's name and state, for failure messages */
        public String describe() {
            StringBuilder sb = new StringBuilder();
            for (Thread t : threads()) {
                sb.append(t.getName()).append('=').append(t.getState()).append(' ');
            }
            return sb.toString().trim();
        }
    }

    /** @return a dump of every live thread with its state, lock, lock owner, held locks and whole stack */
    public static String threadDump() {
        StringBuilder sb = new StringBuilder(16_384);
        sb.append("===== thread dump =====\n");
        try {
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            ThreadInfo[] infos = mx.dumpAllThreads(mx.isObjectMonitorUsageSupported(),
                    mx.isSynchronizerUsageSupported());
            Arrays.sort(infos, Comparator.comparing(ThreadInfo::getThreadName));
            for (ThreadInfo ti : infos) {
                appendThread(sb, ti);
            }
            long[] deadlocked = mx.findDeadlockedThreads();
            if (deadlocked != null) {
                sb.append("DEADLOCKED thread ids: ").append(Arrays.toString(deadlocked)).append('\n');
            }
        } catch (Throwable e) {
            sb.append("(ThreadMXBean dump failed: ").append(e).append("; falling back to getAllStackTraces)\n");
            for (Map.Entry<Thread, StackTraceElement[]> en : Thread.getAllStackTraces().entrySet()) {
                Thread t = en.getKey();
                sb.append('"').append(t.getName()).append("\" id=").append(t.getId()).append(' ')
                        .append(t.getState()).append(t.isDaemon() ? " daemon" : "").append('\n');
                for (StackTraceElement f : en.getValue()) {
                    sb.append("\tat ").append(f).append('\n');
                }
                sb.append('\n');
            }
        }
        sb.append("===== end of thread dump =====");
        return sb.toString();
    }

    private static void appendThread(StringBuilder sb, ThreadInfo ti) {
        sb.append('"').append(ti.getThreadName()).append("\" id=").append(ti.getThreadId()).append(' ')
                .append(ti.getThreadState());
        if (ti.isDaemon()) {
            sb.append(" daemon");
        }
        if (ti.getLockName() != null) {
            sb.append(" waiting on ").append(ti.getLockName());
        }
        if (ti.getLockOwnerName() != null) {
            sb.append(" owned by \"").append(ti.getLockOwnerName()).append("\" id=").append(ti.getLockOwnerId());
        }
        if (ti.isSuspended()) {
            sb.append(" (suspended)");
        }
        if (ti.isInNative()) {
            sb.append(" (in native)");
        }
        sb.append('\n');
        StackTraceElement[] stack = ti.getStackTrace();
        MonitorInfo[] monitors = ti.getLockedMonitors();
        int shown = Math.min(stack.length, MAX_FRAMES);
        for (int i = 0; i < shown; i++) {
            sb.append("\tat ").append(stack[i]).append('\n');
            if (i == 0 && ti.getLockInfo() != null) {
                switch (ti.getThreadState()) {
                    case BLOCKED -> sb.append("\t-  blocked on ").append(ti.getLockInfo()).append('\n');
                    case WAITING, TIMED_WAITING -> sb.append("\t-  waiting on ").append(ti.getLockInfo())
                            .append('\n');
                    default -> { }
                }
            }
            for (MonitorInfo mi : monitors) {
                if (mi.getLockedStackDepth() == i) {
                    sb.append("\t-  locked ").append(mi).append('\n');
                }
            }
        }
        if (shown < stack.length) {
            sb.append("\t... ").append(stack.length - shown).append(" more frames\n");
        }
        LockInfo[] syncs = ti.getLockedSynchronizers();
        if (syncs != null && syncs.length > 0) {
            sb.append("\tLocked synchronizers: ").append(syncs.length).append('\n');
            for (LockInfo li : syncs) {
                sb.append("\t- ").append(li).append('\n');
            }
        }
        sb.append('\n');
    }

    private static boolean awaitUninterruptibly(CountDownLatch latch, Duration deadline) {
        long end = System.nanoTime() + deadline.toNanos();
        boolean interrupted = false;
        try {
            while (true) {
                long left = end - System.nanoTime();
                try {
                    return latch.await(Math.max(0L, left), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                    if (left <= 0) {
                        return latch.getCount() == 0;
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static String safeContext(Supplier<String> context) {
        try {
            return String.valueOf(context.get());
        } catch (Throwable e) {
            return "(context supplier failed: " + e + ")";
        }
    }
}
