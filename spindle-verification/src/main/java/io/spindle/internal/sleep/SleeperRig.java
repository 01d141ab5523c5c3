package io.spindle.internal.sleep;

import io.spindle.internal.latch.CoreLatch;
import io.spindle.internal.latch.LatchOwner;
import io.spindle.internal.latch.WorkerLatch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;

/**
 * One jcstress sample of "a worker tries to fall asleep while another thread posts work or sets its latch", on a
 * real {@link SleepProtocol} (worker 0 is the sleeper). Only the collaborators are fakes: the injector is one flag
 * (written with release, read with acquire: the seed proof sketch's "PushJob" and "ReadJob"; weaker than the
 * registry's) or a real {@code ConcurrentLinkedQueue} (as in the registry), and the latch owner wakes through the
 * protocol exactly as {@code Registry.wakeLatchOwner} does.
 *
 * <p><b>Observing a lost wake-up without hanging.</b> If a wake-up is lost the sleeper blocks forever, and a jcstress
 * actor must end. So the waker actor, after its post (or {@code set}), calls {@link #rescueIfLost()}: it waits until
 * the sleeper has returned, or until it is blocked and no wake is on its way ({@link #blockedAndUnwoken()}, a
 * protocol-specific check that needs no timing), in which case it records the lost wake-up and wakes the sleeper
 * through a public method so the sample can end. The outcome "rescued" is the forbidden one.
 */
public abstract class SleeperRig {
    /** Sleeper outcome: its last search (or latch probe) saw the work; it never tried to sleep. */
    public static final int SEARCH_SAW_IT = 0;
    /** Sleeper outcome: the protocol's counter told it work was posted (JEC changed, no longer the sleepy one). */
    public static final int COUNTER_SAW_IT = 1;
    /**
     * Sleeper outcome: it did not block: its final check saw the job, a latch CAS failed (set), or (JEC) a waker claimed
     * it while PREPARING.
     */
    public static final int FINAL_CHECK_OR_LATCH_SAW_IT = 2;
    /** Sleeper outcome: it blocked (then was woken by the waker, or rescued: see the waker's result). */
    public static final int BLOCKED = 3;

    private static final VarHandle JOB;
    private static final VarHandle DONE;
    private static final VarHandle WAKE_CALLED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            JOB = l.findVarHandle(SleeperRig.class, "job", int.class);
            DONE = l.findVarHandle(SleeperRig.class, "sleeperDone", boolean.class);
            WAKE_CALLED = l.findVarHandle(SleeperRig.class, "latchWakeCalled", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public final SleepProtocol sleep;
    public final IdleState idle;
    public final CoreLatch latch;
    /** When non-null, the injector is this real queue (as in {@code Registry}) instead of the release/acquire flag. */
    private final ConcurrentLinkedQueue<Object> queue;
    @SuppressWarnings("unused")
    private int job;
    @SuppressWarnings("unused")
    private boolean latchWakeCalled;
    @SuppressWarnings("unused")
    private boolean sleeperDone;

    /**
     * @param latch     the latch the sleeper waits for, made from a {@link LatchOwner} that records the wake-up and then
     *                  wakes the owner exactly as {@code Registry.wakeLatchOwner(i)} does; null for a
     *                  {@link WorkerLatch} of worker 0 with that owner
     * @param realQueue whether the injector is a real {@code ConcurrentLinkedQueue} (whose append is a volatile CAS, as
     *                  in {@code Registry}) rather than a flag written with release (the proof sketch's weaker PushJob)
     */
    protected SleeperRig(SleepProtocol sleep, Function<LatchOwner, CoreLatch> latch, boolean realQueue) {
        this(sleep, latch, realQueue, null);
    }

    /**
     * As {@link #SleeperRig(SleepProtocol, Function, boolean)}, with the sleeper's final check (J5) given.
     *
     * @param finalCheck what the sleeper's final check before blocking reads ({@code WorkerThread.
     *                   hasInjectedOrPrivateWork} in the pool: e.g. the promotion slots, LZ6); null for the injector
     */
    protected SleeperRig(SleepProtocol sleep, Function<LatchOwner, CoreLatch> latch, boolean realQueue,
            IdleState.WorkView finalCheck) {
        this.sleep = sleep;
        this.queue = realQueue ? new ConcurrentLinkedQueue<>() : null;
        // The final check before blocking (J5) reads the injector, or what the test gives.
        this.idle = new IdleState(0, finalCheck != null ? finalCheck : this::injectorHasJob);
        LatchOwner owner = index -> {
            WAKE_CALLED.setVolatile(this, true);
            sleep.notifyWorkerLatchIsSet(index);
        };
        this.latch = latch != null ? latch.apply(owner) : new WorkerLatch(owner, 0);
    }

    /** The poster's push into the injector: a release store (the proof sketch's PushJob), or a queue append. */
    public final void injectJob() {
        if (queue != null) {
            queue.add("job");
        } else {
            JOB.setRelease(this, 1);
        }
    }

    /** The sleeper's search of the injector: an acquire load (ReadJob), or the queue's volatile reads. */
    public final boolean injectorHasJob() {
        return queue != null ? !queue.isEmpty() : (int) JOB.getAcquire(this) != 0;
    }

    /** Whether a set of the latch asked the protocol to wake its owner (it saw SLEEPING). */
    public final boolean latchWakeCalled() {
        return (boolean) WAKE_CALLED.getVolatile(this);
    }

    /**
     * Sleeper: the step of the worker loop that tries to fall asleep ({@code noWorkFound} at the sleeping round), then
     * reports how it ended.
     */
    public final int tryToSleep() {
        sleep.noWorkFound(idle, latch);
        return tryToSleepDone(sleep.sleeps(0) > 0 ? BLOCKED : sleeperPathCode());
    }

    /** Sleeper: it is done (returns {@code code}); the waker's {@link #rescueIfLost()} stops waiting. */
    protected final int tryToSleepDone(int code) {
        DONE.setVolatile(this, true);
        return code;
    }

    /** Sleeper: it found the work before trying to sleep. */
    public final int sawItInSearch() {
        DONE.setVolatile(this, true);
        return SEARCH_SAW_IT;
    }

    /**
     * Waker, after its post or set: waits until the sleeper returned, or is blocked with no wake-up on its way.
     *
     * @return 1 if the wake-up was lost (the sleeper was blocked and nobody was waking it; it has now been rescued),
     *         else 0
     */
    public final int rescueIfLost() {
        while (!(boolean) DONE.getVolatile(this)) {
            if (blockedAndUnwoken()) {
                rescue();
                return 1;
            }
            Thread.onSpinWait();
        }
        return 0;
    }

    /**
     * Called only after the waker finished its post: whether the sleeper blocked and no wake-up is on its way. Must
     * not depend on timing: it reads the protocol's own bookkeeping (e.g. JEC: the waker, not the sleeper, removes a
     * blocked sleeper's registration, before it lets the sleeper go).
     */
    protected abstract boolean blockedAndUnwoken();

    /** Wakes the blocked sleeper through a public method of the protocol. */
    protected void rescue() {
        sleep.notifyWorkerLatchIsSet(0);
    }

    /** How the sleeper avoided blocking, when it did (protocol-specific). */
    protected abstract int sleeperPathCode();
}
