package io.spindle.internal.lazy;

import io.spindle.internal.join.JoinJob;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * TEST ONLY, NEVER IN THE LIBRARY: a copy of {@link PromotionSlots} with one deliberate weakening, to show that the
 * jcstress tests of the real class can fail (each {@code Weakened*Test} here has the shape of a real test and must
 * report its forbidden outcome). Everything else is as in PromotionSlots (no padding: the tests do not measure).
 */
final class WeakenedPromotionSlots {
    enum Weakening {
        /**
         * {@code reclaim} and {@code steal} empty the slot by a volatile read and then a volatile store of null, not by
         * one CAS (LZ7 broken): the owner and a thief that both read the job both run it, and a thief's late store of
         * null can erase the next job the owner published into the slot it just emptied (a lost frame).
         */
        RECLAIM_STEAL_WITHOUT_CAS,
        /**
         * {@code publish} is a release store, and the promoter makes no full fence after it (LZ6's poster side
         * removed): the store may sit in the promoter's store buffer while it reads the sleep counters, so a sleeper
         * that registers meanwhile and reads the slots misses the job, and the promoter misses the sleeper. (Either the
         * volatile store or the fence alone would order the store before the counters read: a volatile store is
         * followed by a full fence on HotSpot, and the JMM totally orders it with the counters' volatile load. So both
         * go.)
         */
        RELAXED_PUBLISH
    }

    static final int SLOTS = PromotionSlots.SLOTS;

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(JoinJob[].class);

    private final JoinJob[] slots = new JoinJob[SLOTS];
    private final Weakening weakening;

    WeakenedPromotionSlots(Weakening weakening) {
        this.weakening = weakening;
    }

    int freeSlot() {
        for (int s = 0; s < SLOTS; s++) {
            if (SLOT.getOpaque(slots, s) == null) {
                return s;
            }
        }
        return -1;
    }

    /** RELAXED_PUBLISH: a release store; the caller (the test's promoter) then omits its fence. */
    void publish(int s, JoinJob job) {
        if (weakening == Weakening.RELAXED_PUBLISH) {
            SLOT.setRelease(slots, s, job); // WEAKENED
        } else {
            SLOT.setVolatile(slots, s, job);
        }
    }

    boolean reclaim(int s, JoinJob job) {
        if (weakening == Weakening.RECLAIM_STEAL_WITHOUT_CAS) {
            if (SLOT.getVolatile(slots, s) == job) { // WEAKENED: read, then store
                SLOT.setVolatile(slots, s, null);
                return true;
            }
            return false;
        }
        return SLOT.compareAndSet(slots, s, job, null);
    }

    JoinJob steal() {
        for (int s = 0; s < SLOTS; s++) {
            JoinJob job = (JoinJob) SLOT.getAcquire(slots, s);
            if (job == null) {
                continue;
            }
            if (weakening == Weakening.RECLAIM_STEAL_WITHOUT_CAS) {
                SLOT.setVolatile(slots, s, null); // WEAKENED: a blind store after the read, no CAS
                return job;
            }
            if (SLOT.compareAndSet(slots, s, job, null)) {
                return job;
            }
        }
        return null;
    }

    boolean isEmpty() {
        for (int s = 0; s < SLOTS; s++) {
            if (SLOT.getVolatile(slots, s) != null) {
                return false;
            }
        }
        return true;
    }
}
