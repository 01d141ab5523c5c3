package io.spindle.internal.registry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ToIntFunction;

/**
 * B3: the threads that handed their index to a stand-in and finish their stacks ("detached"), with the index each
 * held. Written under {@link StandIns}' monitor; read without it by thieves (a detached thread's deque and promotion
 * slots stay stealable) and by latch setters, who unpark the detached threads of the latch's index.
 *
 * <p>The rule a setter relies on (B3): a thread enters the table before it first sleeps on a latch detached. Its entry
 * is a release store, followed by the volatile CAS that moves the latch to SLEEPING; a setter whose swap reads
 * SLEEPING synchronizes with that CAS and so finds the entry. The jcstress test {@code DetachedWaiterVsLatchSetTest}
 * runs this class against a real latch.
 *
 * @param <T> the thread type (the engine's {@code WorkerThread}; a plain thread in the jcstress test)
 */
public final class DetachedTable<T extends Thread> {
    private static final VarHandle ENTRY = MethodHandles.arrayElementVarHandle(Thread[].class);

    private final ToIntFunction<? super T> indexOf;
    /** Volatile: a reader sees a grown table with the entries it copied. A null entry is a free place. */
    private volatile Thread[] entries = new Thread[0];

    public DetachedTable(ToIntFunction<? super T> indexOf) {
        this.indexOf = indexOf;
        // E6: run the stores' call sites once now (a null entry is a free place), so that the first hand-off, which
        // may come at a stack's edge or with the heap full, does not link them in the middle of its commit
        entries = new Thread[1];
        enter(0, null);
        leave(null);
    }

    /**
     * A free place, growing the table if there is none. Under the owner's lock; may throw (out of memory), and then
     * nothing changed. The caller fills it with {@link #enter} once everything else that may fail is done.
     */
    public int reserve() {
        Thread[] table = entries;
        for (int i = 0; i < table.length; i++) {
            if (table[i] == null) {
                return i;
            }
        }
        entries = Arrays.copyOf(table, Math.max(4, table.length * 2)); // volatile: published with its entries
        return table.length;
    }

    /** B3: {@code t} enters at a place {@link #reserve} returned (release: see the class comment). Under the lock. */
    public void enter(int place, T t) {
        ENTRY.setRelease(entries, place, t);
    }

    /** Under the lock: {@code t} leaves (release; a reader may still see it once, harmlessly). */
    public void leave(T t) {
        Thread[] table = entries;
        for (int i = 0; i < table.length; i++) {
            if (table[i] == t) {
                ENTRY.setRelease(table, i, (Thread) null);
                return;
            }
        }
    }

    /**
     * B3: unparks every detached thread that held {@code index}; one of them may sleep on the latch just set, the
     * others find their latches unset and park again. Any thread may call it.
     *
     * @return how many it unparked
     */
    public int unparkAll(int index) {
        Thread[] table = entries; // volatile; each entry read plainly: the setter's swap ordered it (class comment)
        int n = 0;
        for (Thread d : table) {
            if (d != null && indexOf.applyAsInt(cast(d)) == index) {
                LockSupport.unpark(d);
                n++;
            }
        }
        return n;
    }

    /** A snapshot of the entries, nulls included, for scans; never modify it. */
    public Thread[] snapshot() {
        return entries; // volatile
    }

    @SuppressWarnings("unchecked")
    private T cast(Thread t) {
        return (T) t;
    }
}
