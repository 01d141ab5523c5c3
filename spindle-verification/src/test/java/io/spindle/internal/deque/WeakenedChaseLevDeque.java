package io.spindle.internal.deque;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * TEST ONLY, NEVER IN THE LIBRARY: a copy of {@link ChaseLevDeque} with one deliberate weakening, to show that the
 * jcstress deque tests can fail. Apart from the marked lines it is the real algorithm.
 */
final class WeakenedChaseLevDeque<T> {
    enum Weakening {
        /** pop takes the last element without the CAS on top (I3's arbiter removed). */
        POP_WITHOUT_CAS,
        /** pop's store of bottom is a release store and its load of top an acquire load (Store-Load order lost). */
        RELAXED_POP,
        /**
         * The mask travels in its own field and a grown array's mask is published lazily, by the owner's next pop
         * (I4 broken: array and mask no longer published together).
         */
        SEPARATE_MASK
    }

    private static final VarHandle TOP;
    private static final VarHandle BOTTOM;
    private static final VarHandle BUFFER;
    private static final VarHandle MASK;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TOP = l.findVarHandle(WeakenedChaseLevDeque.class, "top", long.class);
            BOTTOM = l.findVarHandle(WeakenedChaseLevDeque.class, "bottom", long.class);
            BUFFER = l.findVarHandle(WeakenedChaseLevDeque.class, "buffer", Object[].class);
            MASK = l.findVarHandle(WeakenedChaseLevDeque.class, "mask", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Weakening weakening;
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    private volatile long top;
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;
    private volatile long bottom;
    private volatile Object[] buffer;
    private volatile int mask; // SEPARATE_MASK only
    private boolean maskPending; // owner only

    WeakenedChaseLevDeque(Weakening weakening) {
        this.weakening = weakening;
        BUFFER.setRelease(this, new Object[64]);
        MASK.setRelease(this, 63);
    }

    private int mask(Object[] a) {
        return weakening == Weakening.SEPARATE_MASK ? (int) MASK.getAcquire(this) : a.length - 1;
    }

    void push(T x) {
        long b = (long) BOTTOM.getOpaque(this);
        long t = (long) TOP.getAcquire(this);
        Object[] a = (Object[]) BUFFER.getOpaque(this);
        boolean grew = false;
        if (b - t > a.length - 1) {
            a = grow(a, t, b);
            grew = true;
        }
        SLOT.setOpaque(a, (int) (b & (a.length - 1)), x);
        BOTTOM.setRelease(this, b + 1);
        if (grew) {
            maskPending = true; // WEAKENED (SEPARATE_MASK): the new mask is published later, by pop
        }
    }

    @SuppressWarnings("unchecked")
    T pop() {
        if (maskPending) {
            maskPending = false;
            MASK.setRelease(this, ((Object[]) BUFFER.getOpaque(this)).length - 1);
        }
        long b = (long) BOTTOM.getOpaque(this) - 1;
        Object[] a = (Object[]) BUFFER.getOpaque(this);
        long t;
        if (weakening == Weakening.RELAXED_POP) {
            BOTTOM.setRelease(this, b);        // WEAKENED: release store ...
            t = (long) TOP.getAcquire(this);   // ... then acquire load: the load may pass the store
        } else {
            BOTTOM.setVolatile(this, b);
            t = (long) TOP.getVolatile(this);
        }
        if (t > b) {
            BOTTOM.setOpaque(this, b + 1);
            return null;
        }
        int i = (int) (b & (a.length - 1));
        Object x = SLOT.getOpaque(a, i);
        if (t == b) {
            boolean won;
            if (weakening == Weakening.POP_WITHOUT_CAS) {
                TOP.setVolatile(this, t + 1);  // WEAKENED: takes the last element without arbitration
                won = true;
            } else {
                won = TOP.compareAndSet(this, t, t + 1);
            }
            BOTTOM.setOpaque(this, b + 1);
            if (!won) {
                return null;
            }
        }
        SLOT.setOpaque(a, i, null);
        return (T) x;
    }

    @SuppressWarnings("unchecked")
    T steal() {
        while (true) {
            long t = (long) TOP.getVolatile(this);
            long b = (long) BOTTOM.getVolatile(this);
            if (t >= b) {
                return null;
            }
            Object[] a = (Object[]) BUFFER.getAcquire(this);
            int i = (int) (t & mask(a));
            Object x = i < a.length ? SLOT.getAcquire(a, i) : null;
            if (x != null && TOP.compareAndSet(this, t, t + 1)) {
                return (T) x;
            }
            Thread.onSpinWait();
        }
    }

    boolean isEmpty() {
        return (long) BOTTOM.getAcquire(this) - (long) TOP.getAcquire(this) <= 0;
    }

    private Object[] grow(Object[] old, long t, long b) {
        int capacity = old.length << 1;
        Object[] a = new Object[capacity];
        for (long k = t; k < b; k++) {
            a[(int) (k & (capacity - 1))] = SLOT.getOpaque(old, (int) (k & (old.length - 1)));
        }
        BUFFER.setRelease(this, a);
        return a;
    }
}
