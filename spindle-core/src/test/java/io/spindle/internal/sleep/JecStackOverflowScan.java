package io.spindle.internal.sleep;

import io.spindle.internal.event.PoolEvents;
import io.spindle.internal.job.Failures;
import io.spindle.internal.latch.CoreLatch;
import io.spindle.internal.latch.WorkerLatch;

import java.lang.reflect.Field;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The child JVM of {@link JecStackOverflowScanTest} (run with {@code -Xint -Xss512k}; not a test itself): real
 * StackOverflowErrors at every depth of one JOBS_EVENT_COUNTER step. A thread recurses until its stack overflows, then
 * on the way back out retries the step once per frame, with one frame more room each time, until an attempt completes.
 * So each throw point of the step is hit once, in depth order, as a caller that catches the Error and retries from a
 * shallower frame would (E1, E3, E4 in the registry's package-info). Deterministic under {@code -Xint}, where every
 * call, even a VarHandle's, is a frame that can overflow.
 *
 * <p>Scans (the first argument):
 * <ul>
 *   <li>{@code waker}: a worker is blocked (BLOCKED, counted); a poster deep in a recursion injects one job; its
 *       wake-up overflows at every depth, from before the claim to the unblock;</li>
 *   <li>{@code sleeper}, {@code sleeper-jfr}: a worker deep in a recursion (a nested wait in a recursive join) takes its
 *       sleep step, whose final check finds work, so it registers and must undo its own count; it overflows at every
 *       depth, the finally's resets and the undo included ({@code sleeper-jfr}: with the JFR events of a recording);</li>
 *   <li>{@code blocker}: the same worker finds no work and blocks: it overflows at every depth of the sleep step on
 *       its way to the block (a block that threw is taken back); once an attempt parks, a shallow post wakes it.</li>
 *   <li>{@code blocker-vs-waker}: as {@code blocker}, with a waker that claims the worker as soon as it is BLOCKED
 *       (so the waker wins the race with the worker's own steps after its CAS to BLOCKED).</li>
 * </ul>
 * The scan prints where each attempt threw, then one line {@code RESULT key=value ...} that the test checks. It waits
 * only with generous limits (a thread that is still running after them is reported, not waited for).
 *
 * <pre>
 *   java -Xint -Xss512k -cp target/classes:target/test-classes io.spindle.internal.sleep.JecStackOverflowScan waker
 * </pre>
 */
public final class JecStackOverflowScan {
    /** How long a scan waits for a thread that should finish: long enough for -Xint on a loaded 2-core machine. */
    static final long GENEROUS_MILLIS = 60_000;

    static Runnable attempt;
    /** Every overflow caught: the first is the recursion's own, each later one where the previous attempt threw. */
    static final Throwable[] seen = new Throwable[100_000];
    static int n;
    /** Whether an attempt completed (the recursion's deepest retry that returned normally). */
    static volatile boolean completed;

    static void recurse() {
        try {
            recurse();
        } catch (StackOverflowError e) {
            seen[n++] = e; // no call: the catch itself must not overflow
            attempt.run();
            completed = true;
        }
    }

    private JecStackOverflowScan() {}

    public static void main(String[] args) throws Exception {
        String which = args.length > 0 ? args[0] : "waker";
        warmUp();
        Map<String, Object> result;
        switch (which) {
            case "waker":
                result = waker();
                break;
            case "sleeper":
                result = sleeper(new JecSleep(2));
                break;
            case "sleeper-jfr":
                jdk.jfr.Recording r = new jdk.jfr.Recording();
                r.enable("io.spindle.WorkerSleep");
                r.enable("io.spindle.WorkerWoken");
                r.start();
                result = sleeper(new JecSleep(2, JecSleep.IdleJudgement.COUNTERS,
                        new PoolEvents("scan", "JOBS_EVENT_COUNTER", t -> -1)));
                break;
            case "blocker":
                result = blocker();
                break;
            case "blocker-vs-waker":
                result = blockerVersusWaker();
                break;
            default:
                throw new IllegalArgumentException("unknown scan " + which);
        }
        StringBuilder line = new StringBuilder("RESULT");
        result.forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
        System.out.println(line);
        System.exit(0); // daemon threads left running (a stranded sleeper) must not keep the JVM alive
    }

    /** Every class and call site the scans use is initialized and linked first, as in a pool that has run a while. */
    static void warmUp() throws Exception {
        JecSleep sleep = new JecSleep(2);
        IdleState idle = new IdleState(0, () -> false);
        WorkerLatch latch = new WorkerLatch(sleep::notifyWorkerLatchIsSet, 0);
        for (int round = 0; round < 3; round++) {
            Thread t = new Thread(() -> sleepOnce(sleep, idle, latch));
            t.start();
            awaitBlocked(sleep, 0, t);
            if (round == 0) {
                sleep.newInjectedJobs(1, false);
            } else if (round == 1) {
                sleep.newInternalJobs(1, 1, false);
            } else {
                sleep.newBroadcastJobs();
            }
            t.join();
        }
        JecSleep s2 = new JecSleep(1);
        IdleState i2 = new IdleState(0, () -> true);
        s2.startLooking(i2);
        toSleepStep(s2, i2, latch);
        s2.noWorkFound(i2, latch); // the final check finds work: the owner's own undo
        Failures.pauseAfterRuntimeFailure(1);
        new StackOverflowError().getStackTrace();
    }

    /** One idle round of a worker up to its sleep step, then the step itself, then leaving idle. */
    private static void sleepOnce(JecSleep sleep, IdleState idle, WorkerLatch latch) {
        sleep.startLooking(idle);
        toSleepStep(sleep, idle, latch);
        sleep.noWorkFound(idle, latch);
        sleep.leaveIdle(idle, false);
    }

    /** Puts the worker at its sleep step: announced sleepy, searched once more. */
    private static void toSleepStep(JecSleep sleep, IdleState idle, CoreLatch latch) {
        while (idle.rounds <= idle.roundsUntilSleepy) {
            sleep.noWorkFound(idle, latch);
        }
    }

    static WorkerSleepState stateOf(JecSleep sleep, int i) {
        try {
            Field f = JecSleep.class.getDeclaredField("workers");
            f.setAccessible(true);
            return ((WorkerSleepState[]) f.get(sleep))[i];
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    static String name(int s) {
        return s >= 0 && s <= 4 ? new String[] {"AWAKE", "PREPARING", "NOTIFIED", "BLOCKED", "WAKING"}[s] : "?" + s;
    }

    /**
     * Waits (no time limit but the generous one) until worker {@code i} is parked in its block with nobody waking it:
     * its word BLOCKED and its thread WAITING (the block is the sleep step's only untimed park).
     *
     * @return false if the thread ended instead, or the generous limit passed
     */
    static boolean awaitBlocked(JecSleep sleep, int i, Thread t) throws InterruptedException {
        WorkerSleepState state = stateOf(sleep, i);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GENEROUS_MILLIS);
        while (!(state.isBlockedUnclaimed() && t.getState() == Thread.State.WAITING)) {
            if (!t.isAlive() || System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }

    /** Where each attempt threw; counts the attempts that threw inside {@code frame} (Class.method). */
    static int printThrowPoints(String frame) {
        System.out.println("  overflows: " + n + " (the first is the recursion's own)");
        int inFrame = 0;
        for (int i = 1; i < n; i++) {
            StringBuilder b = new StringBuilder("  attempt " + i + " threw at");
            int k = 0;
            boolean in = false;
            for (StackTraceElement e : seen[i].getStackTrace()) {
                String cls = e.getClassName().replaceAll(".*[.$]", "");
                if (cls.equals("JecStackOverflowScan")) {
                    break;
                }
                in |= (cls + "." + e.getMethodName()).equals(frame);
                if (k++ < 6) {
                    b.append(' ').append(cls).append('.').append(e.getMethodName()).append(':')
                            .append(e.getLineNumber());
                }
            }
            inFrame += in ? 1 : 0;
            System.out.println(b);
        }
        return inFrame;
    }

    static void printStack(String who, Thread t) {
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getClassName().startsWith("io.spindle") && !e.getClassName().contains("JecStackOverflowScan")) {
                System.out.println("    " + who + " at " + e);
            }
        }
    }

    /**
     * A worker sleeps (BLOCKED, counted). An injecting thread deep in a recursion posts one job; its wake-up overflows
     * at some point and the caller retries from one frame higher (E1: an injection whose notification throws is
     * withdrawn and may be retried by its caller). The deep poster alone must wake the sleeper.
     */
    static Map<String, Object> waker() throws Exception {
        JecSleep sleep = new JecSleep(2);
        IdleState idle = new IdleState(0, () -> false);
        WorkerLatch latch = new WorkerLatch(sleep::notifyWorkerLatchIsSet, 0);
        Thread sleeper = new Thread(() -> {
            sleep.startLooking(idle);
            toSleepStep(sleep, idle, latch);
            sleep.noWorkFound(idle, latch); // blocks
        }, "sleeper");
        sleeper.setDaemon(true);
        sleeper.start();
        boolean blocked = awaitBlocked(sleep, 0, sleeper);
        WorkerSleepState state = stateOf(sleep, 0);
        System.out.println("before: " + sleep.counters() + " state=" + name(state.stateWord()));
        attempt = () -> sleep.newInjectedJobs(1, false);
        Thread poster = new Thread(JecStackOverflowScan::recurse, "poster");
        poster.setDaemon(true);
        poster.start();
        poster.join(GENEROUS_MILLIS);
        sleeper.join(GENEROUS_MILLIS);
        boolean posterDone = !poster.isAlive();
        boolean sleeperWoke = !sleeper.isAlive();
        int inWake = printThrowPoints("WorkerSleepState.wake");
        System.out.println("poster " + (posterDone ? "done" : "STILL RUNNING (" + poster.getState() + ")")
                + "; sleeper " + (sleeperWoke ? "woke" : "STILL PARKED") + "; " + sleep.counters() + " state="
                + name(state.stateWord()));
        if (!posterDone) {
            printStack("poster", poster);
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("sleeperBlockedFirst", blocked);
        r.put("posterDone", posterDone && completed);
        r.put("sleeperWoke", sleeperWoke);
        if (!sleeperWoke) {
            // Diagnosis only: could a second, shallow poster still wake it (the word was left wakeable)?
            sleep.newInjectedJobs(1, false);
            sleeper.join(GENEROUS_MILLIS);
            r.put("wokeByASecondPost", !sleeper.isAlive());
        }
        r.put("attemptsThatThrew", n - 1);
        r.put("threwInWake", inWake);
        r.put("sleeping", JecCounters.sleepingThreads(sleep.counters().load()));
        r.put("inactive", JecCounters.inactiveThreads(sleep.counters().load()));
        r.put("state", name(state.stateWord()));
        r.put("ownsCount", state.ownsCount);
        return r;
    }

    /**
     * A worker at its sleep step, deep in a recursion, whose final check (J5) finds work: it registers and must undo its
     * own count. Its sleep step overflows at some point and the wait loop carries on from one frame higher (E3).
     */
    static Map<String, Object> sleeper(JecSleep sleep) throws Exception {
        IdleState idle = new IdleState(0, () -> true); // the final check finds an injected job
        WorkerLatch latch = new WorkerLatch(sleep::notifyWorkerLatchIsSet, 0);
        { // warm this protocol's own path (JFR classes): one real sleep and wake-up on worker 1
            IdleState i1 = new IdleState(1, () -> false);
            WorkerLatch l1 = new WorkerLatch(sleep::notifyWorkerLatchIsSet, 1);
            Thread t = new Thread(() -> sleepOnce(sleep, i1, l1));
            t.start();
            awaitBlocked(sleep, 1, t);
            l1.set();
            t.join();
        }
        sleep.startLooking(idle);
        attempt = () -> {
            toSleepStep(sleep, idle, latch);
            sleep.noWorkFound(idle, latch); // the sleep step
        };
        return runWorker(sleep, idle, latch, "JecSleep.undoOwnCount", false);
    }

    /**
     * A worker at its sleep step, deep in a recursion, that finds no work and blocks. Each attempt overflows somewhere
     * on the way to the park, or in it (then the worker takes BLOCKED back and undoes its count); the first attempt
     * that parks is woken by a shallow post, which nothing else makes.
     */
    static Map<String, Object> blocker() throws Exception {
        JecSleep sleep = new JecSleep(1);
        IdleState idle = new IdleState(0, () -> false);
        WorkerLatch latch = new WorkerLatch(sleep::notifyWorkerLatchIsSet, 0);
        sleep.startLooking(idle);
        attempt = () -> {
            toSleepStep(sleep, idle, latch);
            sleep.noWorkFound(idle, latch); // the sleep step: blocks unless it threw
        };
        // Under -Xint the undo of the worker's own count in the sleep step's finally is its deepest call: an attempt
        // that overflows anywhere after registering (in blockIfUnclaimed's CAS or its sleep statistic, whose throw
        // blockIfUnclaimed takes BLOCKED back for) ends by overflowing there, which is the throw point printed. The
        // first attempt with room for the undo has room to park, and is woken by the post.
        return runWorker(sleep, idle, latch, "JecSleep.undoOwnCount", true);
    }

    /**
     * {@link #blocker()} with a waker that spins on the worker's word and claims it whenever it is BLOCKED (as a
     * poster that read the sleeping count would): an attempt whose steps after its CAS to BLOCKED overflow finds itself
     * woken (AWAKE) when it looks again, so its WOKEN path runs at the depth that overflowed.
     */
    static Map<String, Object> blockerVersusWaker() throws Exception {
        JecSleep sleep = new JecSleep(1);
        IdleState idle = new IdleState(0, () -> false);
        WorkerLatch latch = new WorkerLatch(sleep::notifyWorkerLatchIsSet, 0);
        WorkerSleepState state = stateOf(sleep, 0);
        sleep.startLooking(idle);
        attempt = () -> {
            toSleepStep(sleep, idle, latch);
            sleep.noWorkFound(idle, latch); // the sleep step: a waker claims it as soon as it is BLOCKED
        };
        Thread waker = new Thread(() -> {
            while (!completed) {
                state.wake(sleep.counters(), io.spindle.internal.event.WakeReason.NEW_INJECTED_JOB, true);
            }
        }, "waker");
        waker.setDaemon(true);
        waker.start();
        Map<String, Object> r = runWorker(sleep, idle, latch, "JecSleep.undoOwnCount", false);
        completed = true; // stops the waker if the worker never completed
        return r;
    }

    private static Map<String, Object> runWorker(JecSleep sleep, IdleState idle, WorkerLatch latch, String frame,
                                                 boolean wakeWhenParked) throws Exception {
        Thread worker = new Thread(JecStackOverflowScan::recurse, "worker");
        worker.setDaemon(true);
        worker.start();
        boolean wokeIt = false;
        if (wakeWhenParked && awaitBlocked(sleep, 0, worker)) {
            sleep.newInjectedJobs(1, false); // the one post that wakes the attempt that parked
            wokeIt = true;
        }
        worker.join(GENEROUS_MILLIS);
        boolean done = !worker.isAlive();
        WorkerSleepState state = stateOf(sleep, 0);
        int inFrame = printThrowPoints(frame);
        System.out.println("worker " + (done ? "done" : "STILL RUNNING (" + worker.getState() + ")") + "; "
                + sleep.counters() + " state=" + name(state.stateWord()) + " latch=" + latch.state());
        if (!done) {
            printStack("worker", worker);
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("workerDone", done && completed);
        r.put("wokenByPost", wokeIt);
        r.put("attemptsThatThrew", n - 1);
        r.put("threwIn" + frame.replaceAll(".*\\.", ""), inFrame);
        r.put("sleeping", JecCounters.sleepingThreads(sleep.counters().load()));
        r.put("state", name(state.stateWord()));
        r.put("ownsCount", state.ownsCount);
        r.put("sleeps", state.counts.sleeps()); // attempts that counted a sleep: reached BLOCKED, about to block
        r.put("wakeups", state.counts.wakeups()); // of those, the ones a waker woke (the rest took BLOCKED back)
        r.put("latch", latch.state() == CoreLatch.UNSET ? "UNSET" : String.valueOf(latch.state()));
        return r;
    }
}
