package io.spindle.internal.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The watchdog's parking state (IO7, IO8) and the two Dekker pairs that wake it: a worker that holds IO starting a job
 * ({@link #claimFromAnyPark}, from both parks) and an operation that starts to wait somewhere ({@link
 * #claimFromParkedForGood}, only from a park without a timeout). The watchdog thread owns the rest; wakers only move
 * the state to {@link #AWAKE}, by CAS, so exactly one of them unparks it.
 */
final class WatchdogParking {
    /** Ticking, or about to decide how to park. */
    static final int AWAKE = 0;
    /** Parked until IO8's next look for channels closed directly; a worker that holds IO starting a job ends it. */
    static final int SWEEPING = 1;
    /** Parked without a timeout: nothing was pending; an operation that waits or a busy owner ends it. */
    static final int PARKED = 2;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(WatchdogParking.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int state;
    /**
     * A hint for when to park (IoWatchdog.newIoClaimedWhileTicking), no part of the claims' Dekker pairs: a claim that
     * found the watchdog AWAKE sets it, the watchdog takes it at each step. Plain on both sides, racy on purpose: a set
     * lost to the watchdog's clear, or seen a step late, moves a park by one tick. Plain, not a VarHandle, because a
     * claim runs at every job start of a worker that holds IO: a VarHandle call site links (allocates) on its first
     * use, which may come with the heap full (E6 in the registry package), and in the interpreter it takes frames that
     * a job start at a stack's edge may not have; a plain field access does neither.
     */
    private boolean claimedWhileAwake;

    int state() {
        return state; // volatile read
    }

    /**
     * The watchdog, before its last looks (for busy owners, for pending operations): publishes how it will park. The
     * store and the fence come before those loads: each waker's side stores first and loads this state after a fence
     * (or a volatile RMW), so either the waker sees this state and claims it, or the looks see the waker's store.
     */
    void announce(int parking) {
        STATE.setVolatile(this, parking);
        VarHandle.fullFence(); // store-load order against the looks' loads that follow (opaque ones among them)
    }

    /** The watchdog: it looked and goes on ticking, or a park ended; nobody needs to unpark it. */
    void awake() {
        STATE.setVolatile(this, AWAKE); // volatile: the next park starts with a new announce
    }

    /**
     * The watchdog announced PARKED, then saw an operation pending: it parks until the next look instead.
     *
     * @return false if a waker claimed it first (AWAKE: it looks again rather than park)
     */
    boolean parkedToSweeping() {
        return STATE.compareAndSet(this, PARKED, SWEEPING); // volatile CAS against the wakers' claims
    }

    /**
     * A worker that holds IO starts a job (IoWatchdog.ownerBusy): the caller stored its busy state before.
     *
     * @return whether this caller must unpark the watchdog (it claimed a park)
     */
    boolean claimFromAnyPark() {
        VarHandle.fullFence(); // Dekker: the caller's busy state (running depth, pending operation) before our load
        while (true) {
            int s = state; // volatile read
            if (s == AWAKE) {
                // Awake, or another waker claimed it: it looks again, and sees us busy. The hint is stored only when
                // unset, so that busy owners do not write the line on every job start.
                if (!claimedWhileAwake) { // plain (see the field)
                    claimedWhileAwake = true;
                }
                return false;
            }
            if (STATE.compareAndSet(this, s, AWAKE)) { // volatile CAS: one waker unparks
                return true;
            }
            // The state moved under us: a waker claimed it (AWAKE: done next round), or the watchdog went from PARKED
            // to SWEEPING after its looks (parkedToSweeping), which did not see us busy: claim that park too, or the
            // watchdog would sleep until its next look while our job runs.
        }
    }

    /**
     * The watchdog, at each step: whether some claim found it awake since the last call (then cleared), a hint for
     * when to park (IoWatchdog.newIoClaimedWhileTicking).
     */
    boolean takeClaimedWhileAwake() {
        if (claimedWhileAwake) { // plain (see the field): read once per step, after a park
            claimedWhileAwake = false;
            return true;
        }
        return false;
    }

    /**
     * IO8: an operation waits (PoolIoImpl.start: its pendingOps increment, a full fence, then this). A park until the
     * next look is left alone: that look comes anyway, and a wake-up per operation would cost a timed wake each.
     *
     * @return whether this caller must unpark the watchdog (it claimed a park without a timeout)
     */
    boolean claimFromParkedForGood() {
        return state == PARKED && STATE.compareAndSet(this, PARKED, AWAKE); // volatile read, then one waker's CAS
    }
}
