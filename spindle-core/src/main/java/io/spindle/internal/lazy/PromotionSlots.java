package io.spindle.internal.lazy;

import io.spindle.internal.join.JoinJob;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A worker's steal-only queue of promoted join halves (LZ4): a few slots, each empty or holding one {@link JoinJob}.
 * The owner fills an empty slot when it promotes a frame and empties it again when it reclaims the frame; any worker
 * (the owner included) may take a job out to run it. Kept apart from the owner's Chase-Lev deque, whose LIFO end is
 * the owner's: a promoted half is the <em>oldest</em> waiting work, which is what a thief should get.
 *
 * <p>A job is put into a slot once and never again (a promotion always makes a fresh job), so a compare-and-set on the
 * job's identity cannot succeed for a job that left the slot: no ABA.
 *
 * <p>This object is the only part of a worker's lazy-join state that other threads touch, so it lives on its own
 * cache lines (padded): idle workers reading the slots must not slow the owner's plain frame writes.
 */
public final class PromotionSlots {
    /** Frames one beat may promote at most (LZ5): enough to wake several sleepers at once on a larger pool. */
    public static final int SLOTS = 4;

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(JoinJob[].class);

    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    private final JoinJob[] slots = new JoinJob[SLOTS];
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;

    /** Owner only: an empty slot, or -1. Opaque reads: a slot a thief is emptying right now may look full; no harm. */
    int freeSlot() {
        for (int s = 0; s < SLOTS; s++) {
            if (SLOT.getOpaque(slots, s) == null) {
                return s;
            }
        }
        return -1;
    }

    /**
     * Owner only, into a slot {@link #freeSlot} returned: only the owner fills slots, so it is still empty.
     * Volatile store: publishes the job's fields to the thief's acquiring read, and takes part in the promotion's
     * Dekker handshake with a sleeper's final check (LZ6: this store, a full fence, the read of the sleep counters).
     */
    void publish(int s, JoinJob job) {
        SLOT.setVolatile(slots, s, job);
    }

    /**
     * Owner only: takes {@code job} back if no thief took it (LZ7). CAS, because a thief may be taking it right now:
     * exactly one of them wins.
     *
     * @return whether the owner has it (and must run it inline)
     */
    boolean reclaim(int s, JoinJob job) {
        return SLOT.compareAndSet(slots, s, job, null);
    }

    /**
     * Any worker: takes a promoted job to run it, oldest slot first. Acquire read (pairs with {@link #publish}), then a
     * CAS that races the owner's reclaim and other thieves: whoever empties the slot runs the job (LZ7).
     *
     * @return the job taken, or null
     */
    public JoinJob steal() {
        for (int s = 0; s < SLOTS; s++) {
            JoinJob job = (JoinJob) SLOT.getAcquire(slots, s);
            if (job != null && SLOT.compareAndSet(slots, s, job, null)) {
                return job;
            }
        }
        return null;
    }

    /**
     * Whether any slot holds a job. Volatile reads: a sleeper's final check calls this after its registration and
     * full fence (LZ6), so that it and a promoter's volatile store cannot both miss each other.
     */
    public boolean isEmpty() {
        for (int s = 0; s < SLOTS; s++) {
            if (SLOT.getVolatile(slots, s) != null) {
                return false;
            }
        }
        return true;
    }

    /**
     * E6 (registry package-info): runs each step here once, on a throwaway object of the calling thread, so that its
     * {@code VarHandle} call sites are linked while memory is plentiful: a publish into a free slot, a reclaim that
     * wins (a reclaim that loses is the same call site), a steal that takes the job and one that finds none, and the
     * snapshots. The throwaway jobs are never run.
     */
    public static void linkFirstUse() {
        PromotionSlots p = new PromotionSlots();
        Runnable none = () -> { };
        JoinJob reclaimed = JoinJob.of(null, none);
        int s = p.freeSlot();
        p.publish(s, reclaimed);
        p.reclaim(s, reclaimed);
        JoinJob stolen = JoinJob.of(null, none);
        p.publish(p.freeSlot(), stolen);
        p.isEmpty();
        p.sizeEstimate();
        p.steal(); // takes it
        p.steal(); // finds none
    }

    /** A racy count of the jobs waiting here, for statistics. */
    public int sizeEstimate() {
        int n = 0;
        for (int s = 0; s < SLOTS; s++) {
            if (SLOT.getOpaque(slots, s) != null) {
                n++;
            }
        }
        return n;
    }
}
