package io.spindle.internal.io;

import io.spindle.internal.job.Failures;
import io.spindle.internal.registry.WorkerThread;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * IO7's watchdog: ready IO must not wait behind a long task of the worker whose poller holds it (docs/DESIGN.md §6;
 * Go's sysmon, EMPER's completer). While some worker that holds IO runs a job, the watchdog ticks every
 * {@link #TICK_NANOS}; a poller whose owner is busy and has not polled for {@link #STARVED_NANOS} is polled here, and
 * what is ready is injected, so an idle worker runs it. When no worker that holds IO is busy for {@link #LINGER_NANOS},
 * and no sign of new IO starting such jobs came since its previous tick ({@link #newIoClaimedWhileTicking}), it parks
 * until a worker that holds IO starts a job.
 *
 * <p>It is also IO8's sweeper for sleeping owners: while operations are pending anywhere it parks for at most
 * {@code PoolIO.DIRECT_CLOSE_NOTICE_MILLIS}, then looks once over the channel table for channels closed directly and
 * asks their homes to sweep, so that an owner asleep in its selector waits without a timeout: idle workers with idle
 * connections take no CPU, and the pool's one timed wake per second is this thread's, not one per worker. With nothing
 * pending anywhere it parks until an operation waits or a worker that holds IO starts a job: an idle pool without
 * IO pending costs nothing.
 *
 * <p>It never polls for a sleeping owner (EMPER MR 214: that owner is woken by its own selector), and it only tries
 * the poll lock: a poll it skips because the owner is polling right then is not lost (EMPER MR 117's race), since the
 * owner just polled, and the watchdog looks again at its next tick while the owner stays busy.
 */
final class IoWatchdog extends Thread {
    /** How often the watchdog looks while a worker that holds IO is busy. */
    static final long TICK_NANOS = Math.max(0L, Long.getLong("spindle.io.watchdogMicros", 2_000L)) * 1_000L;
    /**
     * Whether the pool has a watchdog at all: {@code -Dspindle.io.watchdogMicros=0} turns it off, for a server that
     * prefers the CPU its ticks cost under sparse traffic to IO7's bound (ready IO then waits for the owner's next busy
     * poll, every 64 jobs, or for the end of its long job).
     */
    static final boolean ENABLED = TICK_NANOS > 0;
    /** How long a busy owner may go without polling before the watchdog polls for it. */
    static final long STARVED_NANOS = TICK_NANOS;
    /**
     * How long the watchdog keeps ticking after it last saw a busy owner, before it parks: one tick. Under sparse
     * traffic each request's job wakes the watchdog, and a longer linger added ticks per request (4 ms: about 1.9
     * wake-ups of the watchdog per request at one request every 10 ms, against 1.6 with one tick). A tick after which
     * both an owner woke by its own IO and a claim found the watchdog awake counts as seeing a busy owner ({@link
     * #newIoClaimedWhileTicking}).
     */
    static final long LINGER_NANOS = TICK_NANOS;

    /** How long the watchdog pauses after a step failed with anything but exhaustion. */
    private static final long FAILURE_PAUSE_NANOS = 10_000_000L;
    /** At most one failure reported per this interval. */
    private static final long REPORT_INTERVAL_NANOS = 1_000_000_000L;

    private final PoolIoImpl io;
    private final WatchdogParking parking = new WatchdogParking();
    private long lastReportNanos = System.nanoTime() - REPORT_INTERVAL_NANOS; // watchdog only
    private long nextSweepNanos = System.nanoTime(); // watchdog only: when IO8's next look is due
    private volatile boolean stopped;
    private long helpedPolls; // watchdog only (opaque), statistics
    /** Watchdog only: whether the previous step ended in a tick (a timed park of TICK_NANOS), not a park. */
    private boolean ticked;
    /** Watchdog only: each poller's count of sleeps its own IO ended, as the previous step read it. */
    private final long[] ownIoWakeupsSeen;

    IoWatchdog(PoolIoImpl io, String poolName) {
        super(null, null, poolName + "-io-watchdog", 0, false);
        this.io = io;
        this.ownIoWakeupsSeen = new long[io.pollers().length];
        setDaemon(true);
    }

    /** A worker that holds IO starts a job: make sure someone watches it (a fence and a volatile read if we tick). */
    void ownerBusy() {
        if (!ENABLED) {
            return;
        }
        if (parking.claimFromAnyPark()) {
            LockSupport.unpark(this);
        }
    }

    /**
     * IO8: an operation now waits at some home (its pendingOps increment and a full fence came first, in the caller):
     * if we parked seeing nothing pending, we must sweep again. A volatile read in the common case: no wake-up per
     * operation while we park SWEEPING.
     */
    void operationWaits() {
        if (ENABLED && parking.claimFromParkedForGood()) {
            LockSupport.unpark(this);
        }
    }

    void shutdown() {
        stopped = true;
        LockSupport.unpark(this);
    }

    long helpedPolls() {
        return (long) HELPED.getOpaque(this);
    }

    private static final VarHandle HELPED;

    static {
        try {
            HELPED = MethodHandles.lookup().findVarHandle(IoWatchdog.class, "helpedPolls", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public void run() {
        long lastBusy = System.nanoTime() - LINGER_NANOS; // woken for a look: park again at once if nobody is busy
        while (!stopped) {
            try {
                lastBusy = step(lastBusy);
            } catch (Throwable failure) {
                // Nothing may end this thread while the pool lives: owners select without a timeout and rely on our
                // looks for channels closed directly (IO8), and busy owners on our polls (IO7). A selector that fails
                // (no descriptor left to open one for an owner), an Error in an unblock: back off, try again.
                failed(failure);
            }
        }
    }

    /**
     * One round: look for busy owners, look for closed channels when due, then tick, or park as the looks allow.
     *
     * @return when a busy owner was last seen
     */
    private long step(long lastBusy) {
        try {
            io.deliverOwedWakes(); // IO6, IO10: with every worker asleep, nobody else would (a volatile read if none)
        } catch (Throwable failure) {
            report(failure); // still owed; the polls and sweeps below go on regardless
        }
        long now = System.nanoTime();
        boolean newIo = newIoClaimedWhileTicking(); // every step: the next one compares with what this one read
        if (lookOnce(now) || newIo) {
            lastBusy = now;
        }
        if (now - nextSweepNanos >= 0) {
            nextSweepNanos = now + io.sweepMillis() * 1_000_000L;
            try {
                io.requestSweepsForClosedChannels(); // IO8: homes of channels closed directly sweep them
            } catch (Throwable failure) {
                report(failure); // the next look tries again; the busy owners' polls above went on regardless
            }
        }
        if (now - lastBusy < LINGER_NANOS) {
            ticked = true;
            LockSupport.parkNanos(this, TICK_NANOS);
            return lastBusy;
        }
        ticked = false; // whatever ends the park below, the next step's hint spans the park, not one tick
        // Park until ownerBusy: state, then look again (Dekker with ownerBusy, whose caller fenced after making itself
        // busy: either it reads our state and unparks us, or this look sees it busy). PARKED only if no operation is
        // pending: a second Dekker, with operationWaits (its caller's pendingOps increment, a fence, its load of our
        // state), so either it sees PARKED and unparks us, or our load below sees its operation.
        int how = anyPending() ? WatchdogParking.SWEEPING : WatchdogParking.PARKED;
        parking.announce(how);
        if (lookOnce(System.nanoTime())) {
            parking.awake();
            return System.nanoTime();
        }
        if (how == WatchdogParking.PARKED && anyPending() && !parking.parkedToSweeping()) {
            return lastBusy; // a waker claimed us out of PARKED (AWAKE now): look again
        }
        while (parking.state() == WatchdogParking.PARKED && !stopped) { // a spurious return parks again
            LockSupport.park(this);
        }
        long wait = nextSweepNanos - System.nanoTime();
        if (parking.state() == WatchdogParking.SWEEPING && wait > 0) {
            LockSupport.parkNanos(this, wait); // ownerBusy may end it early (AWAKE): the next step sweeps when due
        }
        parking.awake();
        return lastBusy;
    }

    /**
     * A step threw. Exhaustion (VirtualMachineError) is retried after the runtime's back-off, as the workers' steps are
     * (E4); anything else is reported to this thread's uncaught-exception handler, at most once a second, and retried
     * after a longer pause, so that a failure that repeats neither floods the handler nor spins a core.
     */
    private void failed(Throwable failure) {
        parking.awake(); // volatile: whatever step failed, we are not parked
        if (poolClosed(failure)) {
            return; // the loop ends: stopped is set
        }
        if (failure instanceof VirtualMachineError) {
            Failures.pauseAfterRuntimeFailure(Failures.RUNTIME_FAILURE_BACKOFF_NANOS);
            return;
        }
        report(failure);
        Failures.pauseAfterRuntimeFailure(FAILURE_PAUSE_NANOS);
    }

    /**
     * To this thread's uncaught-exception handler, at most once per REPORT_INTERVAL_NANOS, unless it is the pool's
     * close ({@link #poolClosed}); never throws.
     */
    void report(Throwable failure) {
        if (failure instanceof VirtualMachineError) {
            return; // exhaustion: retried, not reported (E4)
        }
        if (poolClosed(failure)) {
            return; // the end of the pool, not an error: nothing to report
        }
        long now = System.nanoTime();
        if (now - lastReportNanos >= REPORT_INTERVAL_NANOS) {
            lastReportNanos = now;
            try {
                getUncaughtExceptionHandler().uncaughtException(this, failure);
            } catch (Throwable ignored) {
                // a handler that throws must not end this thread either
            }
        }
    }

    /**
     * IO7: whether {@code failure} is the pool's close catching one of our polls part of the way. The pool's close
     * stops us before it closes the selectors ({@code PoolIoImpl.close}), but a look that began before that (a poll
     * for an owner it saw busy with IO pending) may reach a selector closed meanwhile: a clean shutdown, which
     * reported a ClosedSelectorException to the handler (a reviewer saw 26 in 36,703 pool lifecycles with a read
     * pending). Only selectors' closes throw ClosedSelectorException here, and each comes after our stop: the
     * selector's open flag is atomic, so having seen it closed we see {@code stopped} (volatile) set too.
     */
    private boolean poolClosed(Throwable failure) {
        return failure instanceof java.nio.channels.ClosedSelectorException && stopped;
    }

    /**
     * Whether, since the previous step, and that step a tick, both a claim ({@link #ownerBusy}) found the watchdog
     * awake and some owner's own IO ended a sleep of its: two events, not tied to each other, that together mostly mean
     * IO arriving and starting jobs that hold IO more often than the watchdog ticks. At one request per ms on a
     * connection, each request wakes its owner, and the request's job claims the watchdog when it places its next read
     * at its own worker, then ends long before the next tick, so a look seldom sees it busy: the watchdog parked at the
     * tick after a claim and was unparked by the next request's, about 0.8 wake-ups per request. Counting such a tick
     * as a busy owner seen keeps it ticking instead, one wake-up per tick (0.5 per request). Both signals, because each
     * alone counts more that is not new IO:
     * <ul>
     *   <li>a claim alone: a request's own later jobs claim too (a completion pushed after the one that placed the
     *       read), so at one request per 10 ms every request earned a second tick (2.2 wake-ups per request against
     *       1.6, measured);
     *   <li>a wake-up alone: IO whose completion starts with nothing left pending and places nothing from a worker
     *       (reads placed from outside the pool) wakes the owner and claims nothing, and ticking for it would only add
     *       wake-ups.
     * </ul>
     * Still counted: a request that wakes an owner twice within a tick and claims (an answer from a backend within
     * 2 ms, a write that waited for room, a body in two segments), which earns one more tick than before, where traffic
     * is sparser than a tick. After a park the signals are not counted: they span the whole park, and the claim that
     * ended the park is judged by the look that follows (a job already over lets the watchdog park again at once, as
     * before). A heuristic of when to park, no more: IO7's bound rests on the claims themselves, and parking later is
     * never unsafe.
     */
    private boolean newIoClaimedWhileTicking() {
        return newIoSince(ticked);
    }

    /** {@link #newIoClaimedWhileTicking}, with whether the previous step ticked given (package-private for tests). */
    boolean newIoSince(boolean previousStepTicked) {
        boolean claimed = parking.takeClaimedWhileAwake();
        boolean woken = false;
        IoPoller[] pollers = io.pollers();
        for (int i = 0; i < pollers.length; i++) {
            long seen = pollers[i].ioWakeups(); // opaque: an owner-only counter; a stale value moves a park by a tick
            if (seen != ownIoWakeupsSeen[i]) {
                ownIoWakeupsSeen[i] = seen;
                woken = true;
            }
        }
        return claimed && woken && previousStepTicked;
    }

    /** IO8: whether any operation is pending at any home (volatile reads of each poller's count). */
    private boolean anyPending() {
        for (IoPoller p : io.pollers()) {
            if (p.pendingOps() > 0) {
                return true;
            }
        }
        return false;
    }

    /** @return whether some worker that holds IO is busy (then polls for those starved) */
    private boolean lookOnce(long now) {
        boolean anyBusy = false;
        IoPoller[] pollers = io.pollers();
        WorkerThread[] workers = io.workers();
        for (int i = 0; i < pollers.length; i++) {
            IoPoller p = pollers[i];
            // volatile read of pendingOps, opaque of the running depth: a stale "not busy" is corrected next tick
            if (p.pendingOps() > 0 && workers[i] != null && workers[i].isBusy()) {
                anyBusy = true;
                if (now - p.lastPollNanos() > STARVED_NANOS) {
                    try {
                        p.pollNow(null); // finished operations go to the injector: an idle worker runs them
                        HELPED.setOpaque(this, helpedPolls + 1);
                    } catch (Throwable failure) {
                        report(failure); // one home's failing selector must not stop the looks at the others
                    }
                }
            }
        }
        return anyBusy;
    }
}
