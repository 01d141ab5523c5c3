package io.spindle.internal.sleep;

import io.spindle.internal.latch.CoreLatch;
import io.spindle.internal.latch.LatchOwner;
import io.spindle.internal.latch.WorkerLatch;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One jcstress sample of "a worker leaves the idle state through its latch while an outside thread injects a job"
 * (A4 and H8 in the sleep package-info), on a real two-worker {@link SleepProtocol}:
 * <ul>
 *   <li>W0 (worker 0), the idle worker actor, runs the worker loop's idle step ({@code probe} its latch, search the
 *       injector, {@code noWorkFound}) and leaves with {@code leaveIdle(idle, foundWork)}, as
 *       {@code WorkerThread.searchWhileIdle} does. How it idles is the subclass's: JEC keeps it yielding, awake and
 *       counted as inactive; HINT_PIPE has it registered and blocked on the pipe, where it can read a hint.</li>
 *   <li>W1 (worker 1) is asleep: blocked in the protocol before the poster sets the latch, with nothing to wake it but
 *       the poster's post or W0's hand-on. jcstress runs no more actors than there are CPUs (two, on the CI machine),
 *       so W1 is not an actor: the poster hands its sleeping round to one helper thread ({@link #SLEEPER}) and waits
 *       until it has blocked. The sample's race is the poster's against W0's.</li>
 *   <li>The poster actor, a thread outside the pool, sets W0's latch (a join's or install's latch completed from
 *       outside) and then injects a job: appends it to the injector (a real {@code ConcurrentLinkedQueue}, as the
 *       registry's) and calls {@code newInjectedJobs(1, true)}.</li>
 * </ul>
 * The job must not be stranded: W0's search takes it, or W1 is woken (by the poster, or by W0 handing the wake-up on
 * as it leaves through its latch). Forbidden: W0 left, W1 sleeps on with nobody to wake it, and the job is still in the
 * injector: the real W0 would now return into its job, which may wait for exactly that injected job.
 *
 * <p><b>Without hanging.</b> W0 always ends (its latch is set). The poster, after its post, waits for W0 to be done and
 * then for W1: once both the post and W0's {@code leaveIdle} have returned, no wake-up is on its way, so if W1 is still
 * registered as a sleeper ({@link #w1Unwoken()}, the protocol's own bookkeeping: J2, H1) it will never be woken: the
 * poster records whether the job is still in the injector, then wakes W1 through a public method, and waits until W1
 * has left the protocol. If W1 were blocked while not counted, the poster would wait for ever: that shows as a jcstress
 * timeout, not as an outcome.
 */
public abstract class LatchExitRig {
    /** W0's outcome: its search took the job (before its latch probe saw SET). */
    public static final int W0_TOOK_THE_JOB = 0;
    /** W0's outcome: it left through its latch, holding no unused hint. */
    public static final int W0_LATCH_EXIT = 1;
    /** W0's outcome (HINT_PIPE): it left through its latch holding a hint it read and did not follow (H8). */
    public static final int W0_LATCH_EXIT_WITH_HINT = 2;

    /** The poster's outcome: W1 was woken by the protocol (the post itself, or W0's hand-on). */
    public static final int W1_WOKEN = 0;
    /** The poster's outcome: W1 sleeps on and nobody will wake it, but the job was taken: nothing is stranded. */
    public static final int W1_ASLEEP_JOB_TAKEN = 1;
    /** The poster's outcome: W1 sleeps on, nobody will wake it, and the job sits in the injector. LOST WAKE-UP. */
    public static final int W1_ASLEEP_JOB_STRANDED = 2;

    private static final Object JOB = "job";

    /**
     * Runs W1's sleeping rounds, one sample after another (each poster waits until its W1 has left the protocol before
     * its sample ends, so at most one W1 is in flight per poster). A daemon: the forked jcstress VM just exits.
     */
    private static final ExecutorService SLEEPER = Executors.newSingleThreadExecutor(task -> {
        Thread t = new Thread(task, "spindle-latch-exit-W1");
        t.setDaemon(true);
        return t;
    });

    public final SleepProtocol sleep;
    public final IdleState idle0;
    public final IdleState idle1;
    public final CoreLatch latch0;
    public final CoreLatch latch1;
    /** The injector, as in {@code Registry}: a real queue, whose append is a volatile CAS. */
    private final ConcurrentLinkedQueue<Object> injector = new ConcurrentLinkedQueue<>();
    private volatile boolean w0Done;
    private volatile boolean w1Done;

    protected LatchExitRig(SleepProtocol sleep) {
        this.sleep = sleep;
        IdleState.WorkView view = new IdleState.WorkView() {
            @Override
            public boolean hasInjectedOrPrivateWork() {
                return !injector.isEmpty();
            }

            @Override
            public boolean moreWorkAt(int source) {
                return source == IdleState.FOUND_IN_INJECTOR && !injector.isEmpty();
            }
            // anyWorkVisible (A4): the default, the injector: there are no deques and no private queues here
        };
        idle0 = new IdleState(0, view);
        idle1 = new IdleState(1, view);
        // Each latch's owner is woken through the protocol, exactly as Registry.wakeLatchOwner does.
        LatchOwner owner = sleep::notifyWorkerLatchIsSet;
        latch0 = new WorkerLatch(owner, 0);
        latch1 = new WorkerLatch(owner, 1);
    }

    // --- the actors -------------------------------------------------------------------------------------------------

    /**
     * W0: the worker loop's idle step ({@code WorkerThread.searchWhileIdle}) until its latch is set or its search
     * takes the job; then {@code leaveIdle}. startLooking was done by the rig's constructor.
     *
     * @return W0_TOOK_THE_JOB, W0_LATCH_EXIT or W0_LATCH_EXIT_WITH_HINT
     */
    public final int w0() {
        try {
            while (true) { // searchWhileIdle
                if (latch0.probe()) {
                    int code = idle0.unusedHint() != IdleState.NO_HINT ? W0_LATCH_EXIT_WITH_HINT : W0_LATCH_EXIT;
                    sleep.leaveIdle(idle0, false);
                    return code;
                }
                idle0.takeHint(); // findWork looks where a hint points first: here that is the injector anyway
                if (injector.poll() != null) {
                    idle0.foundWork(IdleState.FOUND_IN_INJECTOR);
                    sleep.leaveIdle(idle0, true);
                    return W0_TOOK_THE_JOB;
                }
                sleep.noWorkFound(idle0, latch0);
            }
        } finally {
            w0Done = true;
        }
    }

    /** W1, on the {@link #SLEEPER} thread: the sleeping round; returns once woken (or rescued). */
    private void w1() {
        try {
            sleep.noWorkFound(idle1, latch1); // blocks until woken
        } finally {
            w1Done = true;
        }
    }

    /**
     * The poster: puts W1 to sleep (on the {@link #SLEEPER} thread) and waits until it is blocked, then sets W0's latch
     * and injects one job; then waits for the sample to settle (see the class comment).
     *
     * @return W1_WOKEN, W1_ASLEEP_JOB_TAKEN or W1_ASLEEP_JOB_STRANDED (the forbidden one)
     */
    public final int post() {
        while (!readyForW1()) {
            Thread.yield(); // the helper thread and the actors may share two cores
        }
        SLEEPER.execute(this::w1);
        while (!sleepersAreAsleep()) {
            Thread.yield();
        }
        latch0.set();
        injector.add(JOB);
        sleep.newInjectedJobs(1, true);
        return settle();
    }

    private int settle() {
        while (!w0Done) {
            Thread.yield(); // W0 always ends: its latch is set
        }
        // The post and W0's leaveIdle have returned: no wake-up for W1 is on its way any more.
        while (!w1Done) {
            if (w1Unwoken()) {
                int outcome = injector.isEmpty() ? W1_ASLEEP_JOB_TAKEN : W1_ASLEEP_JOB_STRANDED;
                sleep.notifyWorkerLatchIsSet(1); // the rescue: a public wake-up of exactly W1
                awaitW1();
                return outcome;
            }
            Thread.yield();
        }
        return W1_WOKEN;
    }

    /** The sample ends only once W1 has left the protocol (the HINT_PIPE arbiter closes the pipe and selector). */
    private void awaitW1() {
        while (!w1Done) {
            Thread.yield();
        }
    }

    // --- the protocol-specific parts --------------------------------------------------------------------------------

    /** Poster, before W1 is put to sleep: whatever must come first (HINT_PIPE: W0 is blocked and holds the watch). */
    protected boolean readyForW1() {
        return true;
    }

    /** Poster: whether the sleepers are blocked (past every check before blocking), so the post can start. */
    protected abstract boolean sleepersAreAsleep();

    /**
     * Poster, after its post and W0's leaveIdle returned: whether W1 is still registered as a sleeper, so that nobody
     * will ever wake it. Must not depend on timing.
     */
    protected abstract boolean w1Unwoken();
}
