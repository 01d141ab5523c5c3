package io.spindle.internal.latch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The four-state latch that a worker's wait loop probes and sleeps on (RFC 5, appendix A; see
 * {@code io.spindle.internal.sleep} package-info, "Latches"). Only the owner moves it between UNSET, SLEEPY and
 * SLEEPING; any thread may move it to SET, which is final.
 *
 * <pre>
 *   UNSET --getSleepy--> SLEEPY --fallAsleep--> SLEEPING --wakeUp--> UNSET
 *                          \-----------------wakeUp (gave up)-------> UNSET
 *     \___________________\_______________________\______set______> SET (final)
 * </pre>
 *
 * <p>A setter that swaps SET over SLEEPING must wake the owner ({@link #setAndReportSleeping()} returns true); over
 * SLEEPY no wake is needed, because the owner's fallAsleep CAS then fails and it does not block (L1 in
 * package-info). This class holds only the state; subclasses know the owner and how to wake it.
 */
public abstract class CoreLatch implements Latch {
    public static final int UNSET = 0;
    public static final int SLEEPY = 1;
    public static final int SLEEPING = 2;
    public static final int SET = 3;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(CoreLatch.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int state; // UNSET

    protected CoreLatch() {}

    /** Owner, in its wait loop: acquire, so the setter's writes before {@code set} are visible after true. */
    @Override
    public final boolean probe() {
        return (int) STATE.getAcquire(this) == SET;
    }

    /**
     * Owner: UNSET → SLEEPY, announcing that it may sleep on this latch.
     *
     * @return false if the latch was set meanwhile (then the owner must not sleep)
     */
    public final boolean getSleepy() {
        return STATE.compareAndSet(this, UNSET, SLEEPY); // volatile CAS: ordered with the setter's swap (L1)
    }

    /**
     * Owner, holding its sleep lock: SLEEPY → SLEEPING.
     *
     * @return false if the latch was set meanwhile (then the owner must not block)
     */
    public final boolean fallAsleep() {
        return STATE.compareAndSet(this, SLEEPY, SLEEPING); // volatile CAS (L1)
    }

    /**
     * Owner, after waking or giving up on sleep: SLEEPY or SLEEPING → UNSET unless the latch was set meanwhile. From
     * SLEEPY too, so that a sleep sequence that gave up half-way (an Error between the two steps) leaves the latch
     * where the next {@link #getSleepy} can start again.
     */
    public final void wakeUp() {
        int s = (int) STATE.getVolatile(this); // volatile: the CAS below decides; only the owner leaves UNSET
        if (s == SLEEPY || s == SLEEPING) {
            STATE.compareAndSet(this, s, UNSET); // volatile CAS: fails harmlessly if SET won (L1)
        }
    }

    /**
     * Any thread: swaps the state to SET.
     *
     * @return whether the owner was SLEEPING on this latch and so must be woken by the caller
     */
    protected final boolean setAndReportSleeping() {
        // getAndSet is volatile: it releases the setter's prior writes to the owner's acquire probe and is ordered
        // with the owner's CASes, so exactly one of "owner sees SET" or "setter sees SLEEPING" holds (L1).
        return (int) STATE.getAndSet(this, SET) == SLEEPING;
    }

    /** For tests and diagnostics. */
    public final int state() {
        return (int) STATE.getVolatile(this);
    }
}
