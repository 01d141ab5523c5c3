package io.spindle.internal.deque;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A growable Chase-Lev work-stealing deque: one owner thread pushes and pops at the bottom (LIFO), any number of
 * thieves steal at the top (FIFO).
 *
 * <p>The algorithm and its orderings follow Lê, Pop, Cohen and Zappa Nardelli, "Correct and Efficient Work-Stealing
 * for Weak Memory Models" (PPoPP 2013). Indices are 64-bit and only ever grow, so {@code top} has no ABA problem.
 *
 * <h2>Invariants</h2>
 * <ol>
 *   <li><b>I1 (ownership).</b> Only the owner writes {@code bottom} and {@code buffer}, and only the owner writes a
 *       slot that holds no element. Thieves only CAS {@code top}; the owner clears the
 *       slots they leave behind once the deque is empty.</li>
 *   <li><b>I2 (publication).</b> An element is written into its slot before the release store of {@code bottom} that
 *       makes it visible; a thief reads {@code bottom} with acquire before it reads the slot.</li>
 *   <li><b>I3 (one winner for the last element).</b> When owner and thieves race for the last element, both CAS
 *       {@code top} from the same value, so exactly one wins. The owner's store of {@code bottom} and load of
 *       {@code top} in {@link #pop()} are both volatile (sequentially consistent), as are the thief's loads of
 *       {@code top} and then {@code bottom}, which is the Store-Load ordering the algorithm needs.</li>
 *   <li><b>I4 (array and mask together).</b> The slots and their mask travel in one {@code Object[]} (the mask is
 *       {@code length - 1}), published through the single field {@code buffer} with release; a thief that sees a
 *       new {@code bottom} also sees the buffer holding its elements, since growth publishes the buffer before the
 *       {@code bottom} store that follows it. An old buffer keeps its elements, so a thief reading it still reads the
 *       right element for any index its CAS can win.</li>
 *   <li><b>I5 (plain slot writes).</b> Only the owner writes slots, with plain stores: each store that publishes an
 *       element comes before a release store of {@code bottom} (or of {@code buffer}), which orders it; a store that
 *       clears a slot needs no ordering, since no thief can win that index any more. Plain stores, because a store
 *       through an array {@code VarHandle} re-checks the array's runtime component type every time (it showed up in
 *       the join profile); thieves still read slots with acquire.</li>
 *   <li><b>I6 (a failed pop rolls itself back).</b> Every {@code VarHandle} call site links on its first execution,
 *       and linking allocates: with the heap full (or the stack exhausted) any step of {@link #pop()} after its
 *       store of {@code bottom = b} may throw (the registry's E6 links every step here before a pool accepts work,
 *       {@link #linkFirstUse}; this rule is what holds if one was missed). Without a rollback the deque was left
 *       with {@code bottom = b} and index {@code b} unclaimed by anyone: a task lost for good (an outside review
 *       reproduced it). So pop catches whatever those steps throw and stores {@code bottom = b + 1} with a direct
 *       volatile {@code putfield} (a call site of its own in the catch block would have to link there and then;
 *       the constructor resolves the field). Then, if its CAS had claimed the last element, the pop completes and
 *       returns it (only the store after the CAS threw); otherwise it rethrows, with the deque as before the pop.
 *       Why the restore is safe against concurrent thieves: a thief claims an index only by its CAS of {@code top}
 *       from that index, having read a {@code bottom} above it (I3). Case 1, the throw came before our CAS ran (all
 *       linking happens before a call's atomic step, and the atomic step itself allocates nothing): the owner has
 *       claimed nothing and written no slot, so indices {@code [top, b]} still hold their elements, {@code buffer}
 *       is unchanged, and slot {@code b} still holds its element, published by the push's release store and
 *       republished by this volatile store (I2). A thief that read the moved {@code bottom = b} saw at most
 *       {@code [top, b)}, a true subset, or returned null: a stale snapshot, as if it looked before a push. A thief
 *       that read {@code bottom = b + 1} before our store may have won index {@code b} by its CAS; then
 *       {@code top = b + 1} and the restored deque is empty, which is right. In the empty case ({@code top > b})
 *       {@code top = b + 1} and the restore leaves it empty too. Case 2, our CAS ran (it returned, so {@code won}
 *       is known): {@code top = b + 1} whoever won, and the restore is the very store the normal path makes next,
 *       only stronger. The store cannot race another owner step (I1), and it comes after everything the pop read,
 *       so no thief sees an index reappear that someone else already claimed. Limits (an outside review, by
 *       reasoning): the rule covers exceptions thrown by the steps themselves, not asynchronous ones (a debugger's
 *       or JVMTI's stop between the CAS's atomic step and its return would lose the element it won); and when C2
 *       code that inlined pop hits an uncommon trap there with the heap full, a deoptimization that cannot
 *       reallocate scalar-replaced objects pops the rebuilt frames without running this handler.</li>
 * </ol>
 *
 * @param <T> element type
 */
public final class ChaseLevDeque<T> {
    private static final int INITIAL_CAPACITY = 64; // power of two
    private static final int MAX_CAPACITY = 1 << 30;

    private static final VarHandle TOP;
    private static final VarHandle BOTTOM;
    private static final VarHandle BUFFER;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TOP = l.findVarHandle(ChaseLevDeque.class, "top", long.class);
            BOTTOM = l.findVarHandle(ChaseLevDeque.class, "bottom", long.class);
            BUFFER = l.findVarHandle(ChaseLevDeque.class, "buffer", Object[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // Padding keeps the thieves' hot field (top) and the owner's (bottom) on different cache lines.
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    private volatile long top;
    @SuppressWarnings("unused")
    private long p10, p11, p12, p13, p14, p15, p16, p17;
    private volatile long bottom;
    private volatile Object[] buffer;
    private long clearedBelow; // owner only: slots of indices below this were cleared after steals
    @SuppressWarnings("unused")
    private long p20, p21, p22, p23, p24, p25, p26, p27;

    public ChaseLevDeque() {
        BUFFER.setRelease(this, new Object[INITIAL_CAPACITY]); // release: publishes the empty array (I4)
        // I6: resolves the putfield of pop's rollback now (it stores 0, the value the field already holds): the
        // rollback runs only when a step failed, maybe with the heap full or the stack exhausted.
        bottom = 0L;
    }

    /**
     * Owner only: pushes {@code x} at the bottom.
     *
     * @param x the element, not null
     * @return whether the deque was empty just before the push (as seen by the owner; thieves may have emptied it
     *         since), the input of the sleep protocols' "queue was empty" wake rule
     */
    public boolean push(T x) {
        long b = (long) BOTTOM.getOpaque(this);   // opaque: only the owner writes bottom (I1)
        long t = (long) TOP.getAcquire(this);      // acquire: a slot is free once top moved past it
        Object[] a = (Object[]) BUFFER.getOpaque(this); // opaque: only the owner writes buffer (I1)
        if (b - t > a.length - 1) {
            a = grow(a, t, b);
        }
        a[(int) (b & (a.length - 1))] = x; // plain: the release store of bottom below orders it (I2, I5)
        BOTTOM.setRelease(this, b + 1);                     // release: publishes the element to thieves (I2)
        return b - t <= 0;
    }

    /**
     * Owner only: pops the most recently pushed element.
     *
     * @return the element, or null if the deque is empty (or its last element was just stolen)
     */
    @SuppressWarnings("unchecked")
    public T pop() {
        long b = (long) BOTTOM.getOpaque(this) - 1; // opaque: owner-written (I1)
        Object[] a = (Object[]) BUFFER.getOpaque(this);
        BOTTOM.setVolatile(this, b); // volatile: must be ordered before the load of top (Store-Load, I3)
        boolean won = false; // whether our CAS claimed the last element (read only by the rollback below)
        Object x = null;
        int i = 0;
        try {
            long t = (long) TOP.getVolatile(this);
            if (t > b) { // empty: restore
                BOTTOM.setOpaque(this, b + 1); // opaque: the deque was empty, nothing to publish
                clearStolenSlots(a, t);
                return null;
            }
            i = (int) (b & (a.length - 1));
            x = a[i]; // plain: the owner wrote it (I1)
            if (t == b) {
                // The last element: race the thieves for it (I3).
                won = TOP.compareAndSet(this, t, t + 1); // volatile CAS: the single arbiter of the last element
                BOTTOM.setOpaque(this, b + 1); // opaque: top moved to b+1 either way, so the deque is empty
                if (!won) {
                    return null;
                }
            }
        } catch (Throwable e) { // I6: a step after the bottom store threw (its first call's linking); roll back
            bottom = b + 1; // volatile putfield, resolved by the constructor: no call, nothing to link (I6)
            if (!won) {
                throw e;
            }
            // Only the store after a won CAS threw: the pop is complete now, and the element is ours.
        }
        a[i] = null; // plain (I5): the slot is ours alone now; drop the reference for the garbage collector
        return (T) x;
    }

    /**
     * Any thread: steals the oldest element.
     *
     * @return the element, or null if the deque was seen empty
     */
    @SuppressWarnings("unchecked")
    public T steal() {
        while (true) {
            long t = (long) TOP.getVolatile(this);     // volatile: ordered before the bottom load (I3)
            long b = (long) BOTTOM.getVolatile(this);  // volatile (acquire suffices for I2, SC for I3)
            if (t >= b) {
                return null;
            }
            Object[] a = (Object[]) BUFFER.getAcquire(this); // acquire: read after bottom, sees its elements (I4)
            int i = (int) (t & (a.length - 1));
            Object x = SLOT.getAcquire(a, i); // acquire: pairs with the owner's publication through bottom (I2)
            if (x != null && TOP.compareAndSet(this, t, t + 1)) { // volatile CAS: claims index t (I3)
                return (T) x; // the owner clears the slot later (clearStolenSlots), see I1
            }
            // Lost the race for index t (another thief or the owner took it): look again.
            Thread.onSpinWait();
        }
    }

    /** Owner (exact) or any thread (a snapshot): whether the deque holds no element. */
    public boolean isEmpty() {
        long b = (long) BOTTOM.getAcquire(this); // acquire: a racy snapshot is all a caller can rely on
        long t = (long) TOP.getAcquire(this);
        return b - t <= 0;
    }

    /** A racy snapshot of the number of elements, for statistics. */
    public int sizeEstimate() {
        long n = (long) BOTTOM.getAcquire(this) - (long) TOP.getAcquire(this);
        return (int) Math.max(0L, Math.min(n, Integer.MAX_VALUE));
    }

    /**
     * Owner only, deque empty: drops the references that thieves left behind in the slots of indices below {@code t}.
     * Thieves never write slots (I1); every index below {@code t} is dead, and with the deque empty no live element
     * shares a slot with one, so plain owner stores are safe. A thief still reading such a slot with a stale
     * {@code top} fails its CAS. Amortised O(1) per steal.
     */
    private void clearStolenSlots(Object[] a, long t) {
        long from = Math.max(clearedBelow, t - a.length);
        for (long k = from; k < t; k++) {
            a[(int) (k & (a.length - 1))] = null; // plain (I5)
        }
        clearedBelow = t;
    }

    /**
     * E6 (registry package-info): runs every step of this class once, on throwaway deques of the calling thread, so
     * that each {@code VarHandle} call site here is linked while memory is plentiful: a push that grows the buffer,
     * a pop of an element that is not the last, a pop of the last element (its CAS; a CAS that loses is the same call
     * site), a pop of an empty deque after a steal (its restore and the clearing of stolen slots), a steal that takes
     * an element and one that finds none, and the snapshots. (A steal that loses its race runs only
     * {@code Thread.onSpinWait}, an intrinsic, more.)
     */
    public static void linkFirstUse() {
        ChaseLevDeque<Object> d = new ChaseLevDeque<>();
        Object e = Boolean.TRUE;
        for (int k = 0; k <= INITIAL_CAPACITY; k++) {
            d.push(e); // the last push grows the buffer
        }
        d.steal();
        d.isEmpty();
        d.sizeEstimate();
        while (d.pop() != null) { // every element but the last, then the last (won), then the empty deque
            // drain
        }
        d.steal(); // empty
    }

    /** Owner only: the current capacity (for tests). */
    int capacity() {
        return ((Object[]) BUFFER.getOpaque(this)).length;
    }

    private Object[] grow(Object[] old, long t, long b) {
        int capacity = old.length << 1;
        if (capacity > MAX_CAPACITY || capacity <= 0) {
            throw new IllegalStateException("work-stealing deque is full: " + old.length + " queued jobs");
        }
        Object[] a = new Object[capacity];
        for (long k = t; k < b; k++) {
            a[(int) (k & (capacity - 1))] = old[(int) (k & (old.length - 1))]; // plain: owner-written (I1)
        }
        BUFFER.setRelease(this, a); // release: the copied elements are visible with the array (I4)
        return a;
    }
}
