package io.spindle.internal.io;

import io.spindle.internal.registry.WorkerThread;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * IO7's watchdog: ready IO must not wait behind a long task of the worker whose poller holds it (SPEC §6; Go's sysmon,
 * EMPER's completer). While some worker that holds IO runs a job, the watchdog ticks every {@link #TICK_NANOS}; a
 * poller whose owner is busy and has not polled for {@link #STARVED_NANOS} is polled here, and what is ready is
 * injected, so an idle worker runs it. When no worker that holds IO is busy for {@link #LINGER_NANOS}, the watchdog
 * parks until a worker that holds IO starts a job: an idle pool, with or without idle connections, costs nothing.
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
    /** How long the watchdog keeps ticking after it last saw a busy owner, before it parks. */
    static final long LINGER_NANOS = 4_000_000L;

    private static final VarHandle PARKED;

    static {
        try {
            PARKED = MethodHandles.lookup().findVarHandle(IoWatchdog.class, "parked", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final PoolIoImpl io;
    /** Parked until a worker that holds IO starts a job; set by the watchdog, cleared by the first waker. */
    private volatile boolean parked;
    private volatile boolean stopped;
    private long helpedPolls; // watchdog only (opaque), statistics

    IoWatchdog(PoolIoImpl io, String poolName) {
        super(null, null, poolName + "-io-watchdog", 0, false);
        this.io = io;
        setDaemon(true);
    }

    /** A worker that holds IO starts a job: make sure someone watches it (a volatile read unless we are parked). */
    void ownerBusy() {
        if (!ENABLED) {
            return;
        }
        VarHandle.fullFence(); // Dekker: the caller's busy state (running depth, pending operation) before our flag
        if (parked && (boolean) PARKED.compareAndSet(this, true, false)) { // volatile CAS: one waker unparks
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
            long now = System.nanoTime();
            if (lookOnce(now)) {
                lastBusy = now;
            }
            if (now - lastBusy < LINGER_NANOS) {
                LockSupport.parkNanos(this, TICK_NANOS);
                continue;
            }
            // Park until ownerBusy: flag, then look again (Dekker with ownerBusy, whose caller fenced after making
            // itself busy: either it reads our flag and unparks us, or this look sees it busy).
            PARKED.setVolatile(this, true); // volatile store before the look's loads
            VarHandle.fullFence();          // and the look's opaque load of the running depth after it
            if (lookOnce(System.nanoTime())) {
                PARKED.setVolatile(this, false); // volatile: nobody needs to unpark us
                lastBusy = System.nanoTime();
                continue;
            }
            while (parked && !stopped) { // volatile reads; a spurious return parks again
                LockSupport.park(this);
            }
        }
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
                    p.pollNow(null); // finished operations go to the injector: an idle worker runs them
                    HELPED.setOpaque(this, helpedPolls + 1);
                }
            }
        }
        return anyBusy;
    }
}
