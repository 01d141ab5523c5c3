package io.spindle.internal.io;

import io.spindle.internal.job.InjectedJob;
import io.spindle.internal.registry.OwedLatchWakes;

import java.util.function.Consumer;

/**
 * IO6: the operations one step finished (a poll, a close, a sweep), which its caller hands out, each exactly once
 * ({@link PoolIoImpl#queueFinished}). A list of its own rather than an {@code ArrayList} because it can be owed: if
 * the hand-out's own call overflows at a stack's edge before the list is out, the caller's catch block owes the whole
 * list with field stores and the owes' monitor, no call ({@link #owe}, written out inline there), and the next
 * delivery ({@code OwedLatchWakes}) makes its operations enter the pool through the injector ({@link #enterOwed}).
 * Before, the operations of such a list were lost: a close near the stack's edge had failed them and detached them
 * from their channel, so no sweep could find them, their futures never completed and their terminate counts kept the
 * pool from terminating. It extends {@link InjectedJob} only to ride the owed jobs' list ({@link #nextOwed}); it is
 * never queued or run as a job itself, so no claim ever marks it, and a delivery that throws part of the way simply
 * owes it again with what it has left.
 *
 * <p>Confined to the thread that fills and hands it out, and, once owed, to the delivering thread (the owe's monitor
 * and {@code any}, then the delivery's {@code getAndSet} of {@code any} and its monitor, order the hand-over). An owe
 * wakes nobody: the operations wait for the next delivery, made by a worker's wait round or idle search, the IO
 * watchdog's step, or the next hand-out from a thread outside the pool; with every worker asleep and nothing pending
 * (the watchdog parked for good) that is the pool's next activity of any kind, or its shutdown.
 */
final class FinishedOps extends InjectedJob {
    /** Room for the operations of most channels (read, write, an accept or connect, one readiness wait). */
    private static final int INITIAL_CAPACITY = 4;

    /**
     * Where the list is owed if its hand-out's call overflows; null for a white-box poller with no pool. A field of the
     * list, so that the catch block that owes it reads only fields.
     */
    final OwedLatchWakes owes;
    /**
     * Package-private with {@link #size} for {@code ChannelState}, which adds an operation it finished with two field
     * accesses and an array store after {@link #reserve}: no call between finishing an operation and listing it.
     */
    IoOp<?>[] ops = new IoOp<?>[INITIAL_CAPACITY];
    int size;

    FinishedOps(PoolIoImpl io) {
        this.owes = io != null ? io.owedWakes() : null;
    }

    /**
     * Room for {@code more} operations past {@link #size}, made before any of them finishes: a failure here (no
     * memory, a stack's edge) changes nothing, where one after an operation finished would lose it.
     */
    void reserve(int more) {
        if (size + more > ops.length) {
            ops = java.util.Arrays.copyOf(ops, Math.max(size + more, ops.length * 2));
        }
    }

    IoOp<?> get(int i) {
        if (i >= size) {
            throw new IndexOutOfBoundsException("index " + i + ", size " + size);
        }
        return ops[i];
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Drops the last operation (handed out): no copy, no allocation. */
    void removeLast() {
        ops[--size] = null;
    }

    void clear() {
        while (size > 0) {
            ops[--size] = null;
        }
    }

    /**
     * Owes this list (IO6): linked through {@link InjectedJob#nextOwed} under the owes' monitor, then {@code any} set.
     * The callers whose hand-out overflowed write this body out inline in their catch blocks, since calling it there
     * could overflow again; the field references it uses are resolved when the pool is built ({@code IoPoller}'s and
     * {@code PoolIoImpl}'s constructors).
     */
    void owe() {
        OwedLatchWakes o = owes;
        if (o == null) {
            return; // a white-box poller with no pool: nobody to deliver it
        }
        synchronized (o) {
            nextOwed = o.owedJobs;
            o.owedJobs = this;
        }
        o.any = true; // volatile, after the link: a delivery that takes `any` sees the list
    }

    /**
     * Delivered: each operation still here enters the pool through {@code injector} ({@code Registry.injectKept},
     * whose claim picks one run if an earlier hand-out that threw had linked the operation's node after all), last
     * first, and leaves the list once it is in, as {@link PoolIoImpl#queueFinished} hands out; those handed out before
     * the overflow are marked and skipped. If this throws, the delivery owes the list again with what it has left.
     */
    @Override
    public void enterOwed(Consumer<InjectedJob> injector) {
        while (size > 0) {
            IoOp<?> op = ops[size - 1];
            if (!op.handedOut) {
                injector.accept(op);
                op.handedOut = true; // a plain store, no call between the injection's return and it
            }
            removeLast();
        }
    }

    /** Never queued, so never run: an owed list enters the pool as its operations ({@link #enterOwed}). */
    @Override
    public void execute() {
        throw new UnsupportedOperationException("a list of finished IO operations is not a job: " + size + " left");
    }
}
