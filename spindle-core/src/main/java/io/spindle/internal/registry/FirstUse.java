package io.spindle.internal.registry;

import io.spindle.SleepStrategy;
import io.spindle.internal.deque.ChaseLevDeque;
import io.spindle.internal.io.IoPoller;
import io.spindle.internal.job.Failures;
import io.spindle.internal.latch.BlockingLatch;
import io.spindle.internal.latch.CountLatch;
import io.spindle.internal.latch.LatchOwner;
import io.spindle.internal.latch.WorkerLatch;
import io.spindle.internal.lazy.PromotionSlots;
import io.spindle.internal.sleep.SleepProtocols;

import java.io.UncheckedIOException;

/**
 * E6 in this package's {@code package-info.java}: before the first pool of this JVM accepts work, runs every path that
 * completion and wake-ups rely on once, on throwaway objects, so that what a first execution links (VarHandle call
 * sites, lambdas, native methods, class initializers: all allocate) is linked while memory is plentiful. Called by
 * every {@link Registry} as it is built; does its work once per JVM, on the first build that gets through it.
 *
 * <p>Not a holder class: a holder's initializer that failed (an OutOfMemoryError during the build) would leave the
 * class unusable for the JVM's life, and every later build would throw {@code NoClassDefFoundError}. A failed step
 * fails the build that ran it, and the next build runs the steps again (each is harmless to repeat).
 *
 * <p>IO: the HINT_PIPE protocol's throwaway opens a pipe and a selector, and the IO pollers' wake-up a selector. If the
 * OS refuses them (out of descriptors), the build goes on without that part (a pool that never uses IO needs none of
 * it; a HINT_PIPE pool would fail its own build for the same reason), and the next build tries that part again. Until
 * one succeeds, a wake-up through a selector is not covered by E6.
 */
final class FirstUse {
    /**
     * The steps that need no descriptor ran. Set only inside {@link #linkOnce} (the class's monitor: one thread runs
     * the steps at a time), after them; read without the monitor by every build. Volatile: a build that reads true
     * takes no lock, and the write, after the steps, is never seen before them. What the steps leave, the JVM's
     * linkage, is the JVM's to publish: the flag only saves running them again.
     */
    private static volatile boolean coreLinked;
    /** The steps that open a pipe or selector ran (HINT_PIPE, IO pollers); written and read as {@link #coreLinked}. */
    private static volatile boolean ioLinked;

    private FirstUse() {
    }

    /** E6: links the completion and wake-up paths unless done; cheap (two volatile reads) once it was. */
    static void ensureLinked() {
        if (!coreLinked || !ioLinked) { // volatile reads (see coreLinked); once per pool build, never per job
            linkOnce();
        }
    }

    private static synchronized void linkOnce() {
        if (!coreLinked) {
            linkLatches();
            linkTermination();
            linkFailures();
            ChaseLevDeque.linkFirstUse(); // the pops that take a job back: a failed last-element pop lost it
            PromotionSlots.linkFirstUse();
            SleepProtocols.linkWakePaths(SleepStrategy.JOBS_EVENT_COUNTER);
            SleepProtocols.linkWakePaths(SleepStrategy.SLEEPY_WORKER);
            coreLinked = true;
        }
        if (!ioLinked) {
            try {
                SleepProtocols.linkWakePaths(SleepStrategy.HINT_PIPE);
                IoPoller.linkWakePaths();
                ioLinked = true;
            } catch (UncheckedIOException noDescriptors) {
                // see the class comment: the build goes on, the next build tries again
            }
        }
    }

    /**
     * Every latch's set and probe, and a count latch's decrements, both ways to zero: a job's own decrement, and the
     * settling of decrements owed by a spawn that threw (E1). A worker latch is set while its owner is SLEEPING on it,
     * so that the setter's wake-up call runs too (L1); the protocols' own wake-ups are linked by
     * {@link SleepProtocols#linkWakePaths}.
     */
    private static void linkLatches() {
        LatchOwner nobody = index -> { };
        WorkerLatch sleptOn = new WorkerLatch(nobody, 0);
        sleptOn.probe();
        sleptOn.getSleepy();
        sleptOn.wakeUp(); // from SLEEPY
        sleptOn.getSleepy();
        sleptOn.fallAsleep();
        sleptOn.wakeUp(); // from SLEEPING
        sleptOn.getSleepy();
        sleptOn.fallAsleep();
        sleptOn.set(); // SLEEPING: wakeLatchOwner
        sleptOn.state();
        // The calling thread owns this one, so its set leaves it a permit: a later park returns once spuriously,
        // which every park's caller re-checks (LockSupport's contract).
        BlockingLatch caller = new BlockingLatch();
        caller.probe();
        caller.set();
        caller.await();
        try {
            caller.await(0L);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // keep it for the caller: the link is done either way
        }
        CountLatch last = new CountLatch(new WorkerLatch(nobody, 0));
        last.tryIncrement();
        last.decrement(); // not the last
        last.decrement(); // the last: sets the target
        last.tryIncrement(); // refused at zero
        CountLatch owing = new CountLatch(new WorkerLatch(nobody, 0), 2L);
        synchronized (owing) { // as ScopeImpl.submit owes, E1
            owing.owed++;
        }
        owing.decrement(); // not the last, and finds the owing: settles it, which ends the count and sets the target
        synchronized (owing) {
            owing.owed++;
        }
        owing.settleOwed(); // the submitter's own settle (nothing left to end: the count goes below zero, harmlessly)
        last.target().probe();
    }

    /**
     * The pool's count: both acquisitions, a release that is not the last, one that terminates, a shutdown that
     * terminates, and the settling of owed give-backs (E1) from a release and from a shutdown.
     */
    private static void linkTermination() {
        Runnable none = () -> { };
        Termination t = new Termination(none);
        t.tryAcquireExternal();
        t.tryAcquireInternal();
        t.tryAcquireExternal();
        t.shutdown(); // not terminating: settles owed counts (none)
        t.release(); // not the last
        synchronized (t) {
            t.owed++;
        }
        t.release(); // finds the owing and settles it: terminates
        t.isShutdown();
        t.outstanding();
        Termination idle = new Termination(none);
        synchronized (idle) {
            idle.owed++;
        }
        idle.tryAcquireExternal();
        idle.shutdown(); // settles the owing, which terminates
        Termination released = new Termination(none);
        released.tryAcquireExternal();
        released.shutdown();
        released.release(); // the last: terminates
        released.tryAcquireExternal(); // refused after shutdown
        released.tryAcquireInternal(); // refused after termination
    }

    /** E2: recording failures (the first, and later ones in their list), combining them, and the pause of E3/E4. */
    private static void linkFailures() {
        Failures f = new Failures();
        f.add(new IllegalStateException("E6 link step: a first failure"));
        f.add(new IllegalStateException("E6 link step: a second failure"));
        f.combine();
        Failures.addSuppressedOnce(new IllegalStateException("E6 link step"), new IllegalStateException());
        Failures.pauseAfterRuntimeFailure(0);
    }
}
