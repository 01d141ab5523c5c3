package io.spindle.internal.join;

import io.spindle.internal.job.Job;
import io.spindle.internal.latch.CoreLatch;
import io.spindle.internal.registry.WorkerThread;

import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * The stealable second half of a join. It is its own completion latch: a thief that runs it sets the latch, which
 * wakes the join's owner only if the owner sleeps on it (L1).
 *
 * <p>Allocation per join is the largest cost of a fine-grained join (BENCHMARKS.md), so this object is three fields
 * (24 bytes with compressed references, against 40 for a general {@code WorkerLatch} with separate closure, result and
 * failure fields; the function form's job, made only at a lazy promotion, adds its argument):
 * <ul>
 *   <li>the latch state, inherited;</li>
 *   <li>the closure to run (a {@link Supplier}, a {@link Runnable}, a {@link LongSupplier}, or a function with its
 *       argument, which only the lazy join's promotions make), in one subclass each;</li>
 *   <li>{@code slot}: before the job runs, the owning worker (whom a thief must wake); after, the failure as it is (a
 *       {@link Throwable}), or the result, boxed in a {@link ThrowableResult} in the rare case that the result is
 *       itself a Throwable. Storing a failure must not allocate: the failure may be an OutOfMemoryError, or a
 *       StackOverflowError with no stack left for a constructor, and the owner waits for this job's latch either
 *       way.</li>
 * </ul>
 *
 * <p>One fresh object per join, on purpose: reusing a per-worker job per join depth (rayon keeps its job on the
 * stack) halved the bytes allocated per join but made joins slower under G1, because every join then stores young
 * objects (the closure, the result) into a long-lived one, and each such store takes G1's cross-region write barrier.
 * A fresh job is young, and stores into it are barrier-free. See BENCHMARKS.md, "What changed".
 */
public abstract class JoinJob extends CoreLatch implements Job {
    /**
     * The owner until the job has run, then its outcome. Plain: the owner writes it before the push (whose release
     * store publishes it to a thief), a thief writes it before {@code set} (whose swap publishes it to the owner's
     * acquire probe), and an owner running the job inline reads back its own write.
     */
    public Object slot; // public: Join and LazyJoin abandon a job with a plain store, no call (see ABANDONED)

    /**
     * {@link #slot}'s value once the owner abandoned the job: {@code a} overflowed the stack with the join's frame at
     * the very edge, so that even the call that takes b back or waits for it overflows, and nothing but plain stores
     * can run there (E3's last resort). The join stores this with a plain store and throws the overflow; whoever runs
     * the job from the deque later (the owner, popping it as a left-behind job of an enclosing join, or a thief) finds
     * it abandoned and skips it: b must not start after its join ended. One race is left: a thief that took b just
     * before the store runs it after the join ended.
     */
    public static final Object ABANDONED = new Object();

    JoinJob(WorkerThread owner) {
        this.slot = owner;
    }

    public static JoinJob of(WorkerThread owner, Supplier<?> b) {
        return new OfSupplier(owner, b);
    }

    public static JoinJob of(WorkerThread owner, Runnable b) {
        return new OfRunnable(owner, b);
    }

    /** For a join of long results: the result is boxed here, once per job, not once per join. */
    public static JoinJob of(WorkerThread owner, LongSupplier b) {
        return new OfLongSupplier(owner, b);
    }

    /** For a join that applies one function to two arguments: the job applies {@code f} to {@code argument}. */
    public static <T> JoinJob of(WorkerThread owner, ToLongFunction<? super T> f, T argument) {
        return new OfLongFunction<T>(owner, f, argument);
    }

    /** Runs the closure; its result, or null for a {@link Runnable}. */
    abstract Object compute();

    /** Run by a thief: compute, then set the latch, which publishes the outcome to the owner. */
    @Override
    public void execute() {
        Object s = slot; // read before runInline overwrites it
        if (s == ABANDONED) {
            setAndReportSleeping(); // nobody waits on it any more; set for form's sake
            return;
        }
        WorkerThread owner = (WorkerThread) s;
        runInline();
        if (setAndReportSleeping()) {
            owner.registry().wakeLatchOwner(owner.index()); // L1: the owner was blocked (or about to block) on us
        }
    }

    @Override
    public void set() {
        throw new UnsupportedOperationException("a join job sets itself when it has run");
    }

    /**
     * Run by the owner after taking the job back from its own deque, or by a thief: stores the outcome. Never throws,
     * so that the latch is always set after it: the failure path is a plain store (E2).
     */
    public void runInline() {
        Object outcome;
        try {
            outcome = compute();
            if (outcome instanceof Throwable) {
                outcome = new ThrowableResult(outcome); // rare; if this allocation fails, its Error is the outcome
            }
        } catch (Throwable t) {
            outcome = t;
        }
        slot = outcome;
    }

    /** After the job ran (inline, or the latch was seen set): its result; null for a {@link Runnable}. */
    public Object result() {
        Object o = slot;
        if (o instanceof ThrowableResult) {
            return ((ThrowableResult) o).result;
        }
        return o instanceof Throwable ? null : o;
    }

    /** After the job ran: its failure, or null. */
    public Throwable failure() {
        Object o = slot;
        return o instanceof Throwable ? (Throwable) o : null;
    }

    /** A subclass per closure type, not one closure field and a type test: an object may be both. */
    private static final class OfSupplier extends JoinJob {
        private final Supplier<?> closure;

        OfSupplier(WorkerThread owner, Supplier<?> closure) {
            super(owner);
            this.closure = closure;
        }

        @Override
        Object compute() {
            return closure.get();
        }
    }

    private static final class OfRunnable extends JoinJob {
        private final Runnable closure;

        OfRunnable(WorkerThread owner, Runnable closure) {
            super(owner);
            this.closure = closure;
        }

        @Override
        Object compute() {
            closure.run();
            return null;
        }
    }

    private static final class OfLongSupplier extends JoinJob {
        private final LongSupplier closure;

        OfLongSupplier(WorkerThread owner, LongSupplier closure) {
            super(owner);
            this.closure = closure;
        }

        @Override
        Object compute() {
            return closure.getAsLong();
        }
    }

    private static final class OfLongFunction<T> extends JoinJob {
        private final ToLongFunction<? super T> function;
        private final T argument;

        OfLongFunction(WorkerThread owner, ToLongFunction<? super T> function, T argument) {
            super(owner);
            this.function = function;
            this.argument = argument;
        }

        @Override
        Object compute() {
            return function.applyAsLong(argument);
        }
    }

    /** A result that is itself a Throwable, boxed so that it cannot be confused with a failure. */
    private static final class ThrowableResult {
        final Object result;

        ThrowableResult(Object result) {
            this.result = result;
        }
    }
}
