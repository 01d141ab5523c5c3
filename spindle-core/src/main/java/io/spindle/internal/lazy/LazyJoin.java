package io.spindle.internal.lazy;

import io.spindle.Pair;
import io.spindle.internal.job.Failures;
import io.spindle.internal.job.Job;
import io.spindle.internal.join.Join;
import io.spindle.internal.join.JoinJob;
import io.spindle.internal.registry.WorkerThread;

import java.util.function.LongBinaryOperator;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * The {@link io.spindle.JoinStrategy#LAZY lazy} join (docs/DESIGN.md §7; invariants in package-info): {@code b} waits
 * in a frame of the worker's frame stack while {@code a} runs; if nobody promoted the frame meanwhile, {@code b} runs
 * inline, and the join cost a few plain writes and reads. A promoted frame is reclaimed (run inline) if no thief took
 * it, else waited for with the worker loop running, as an eager join waits for a stolen half.
 *
 * <p>Failures follow docs/DESIGN.md §1.2 as the eager {@link Join} does, and share its {@link Join#rethrowFailures
 * rules}: both closures always run; {@code a}'s failure wins with {@code b}'s suppressed; a failure of the runtime's
 * own steps comes last.
 */
public final class LazyJoin {
    private LazyJoin() {}

    static {
        // The abandon path runs only with the stack exhausted: resolve what it touches now (see JoinJob.ABANDONED).
        JoinJob unused = JoinJob.of(null, (Runnable) () -> { });
        unused.slot = JoinJob.ABANDONED;
        Failures.pauseAfterRuntimeFailure(0);
        // And initialize Join, whose failure rules a lazy join uses only once a closure threw, maybe with no stack
        // left: its static initializer (a lambda) would then overflow and leave the class unusable for good.
        Join.rethrowFailures(null, null, null); // nothing to throw: only links and initializes the class
    }

    /**
     * Initializes this class (and {@link Join}) now. Called when a lazy pool builds its workers, so that a program's
     * first join, which may come at any depth of the stack, does not run these classes' static initializers there.
     */
    public static void link() {
        // the call itself is the point: it runs the static initializer above
    }

    public static <A, B> Pair<A, B> join(WorkerThread worker, Supplier<A> a, Supplier<B> b) {
        LazyWorker lazy = worker.lazy();
        int d = lazy.push(b, LazyWorker.SUPPLIER);

        A resultA = null;
        Throwable failureA = null;
        try {
            resultA = a.get();
        } catch (Throwable t) {
            failureA = t; // b still runs (both closures always run: docs/DESIGN.md §1.2)
        }
        B resultB = null;
        Throwable failureB = null;
        Throwable runtimeFailure = null;
        if (d >= lazy.lo) {
            // LZ2: latent (an owner-local read: only this thread promotes). Frames above d are gone; b reuses d's.
            lazy.depth = d;
            try {
                resultB = b.get();
            } catch (Throwable t) {
                failureB = t;
            }
        } else {
            JoinJob job = lazy.promoted[d];
            try {
                runtimeFailure = finishPromoted(worker, lazy, d, job);
            } catch (Throwable noStackLeft) { // finishPromoted throws nothing: only the call itself can (no stack)
                // b cannot run at this depth: abandon the job (whoever takes it skips it; a thief already running it
                // is the eager join's residual race) and pop the frame. Plain stores only: no call fits here.
                job.slot = JoinJob.ABANDONED;
                lazy.depth = d;
                lazy.lo = d;
                throw noStackLeft;
            }
            @SuppressWarnings("unchecked")
            B r = (B) job.result();
            resultB = r;
            failureB = job.failure();
        }
        if (failureA != null || failureB != null || runtimeFailure != null) {
            Join.rethrowFailures(failureA, failureB, runtimeFailure);
        }
        return new Pair<>(resultA, resultB);
    }

    public static void join(WorkerThread worker, Runnable a, Runnable b) {
        LazyWorker lazy = worker.lazy();
        int d = lazy.push(b, LazyWorker.RUNNABLE);

        Throwable failureA = null;
        try {
            a.run();
        } catch (Throwable t) {
            failureA = t; // b still runs (both closures always run: docs/DESIGN.md §1.2)
        }
        Throwable failureB = null;
        Throwable runtimeFailure = null;
        if (d >= lazy.lo) {
            lazy.depth = d; // LZ2: latent
            try {
                b.run();
            } catch (Throwable t) {
                failureB = t;
            }
        } else {
            JoinJob job = lazy.promoted[d];
            try {
                runtimeFailure = finishPromoted(worker, lazy, d, job);
            } catch (Throwable noStackLeft) { // finishPromoted throws nothing: only the call itself can (no stack)
                // b cannot run at this depth: abandon the job (whoever takes it skips it; a thief already running it
                // is the eager join's residual race) and pop the frame. Plain stores only: no call fits here.
                job.slot = JoinJob.ABANDONED;
                lazy.depth = d;
                lazy.lo = d;
                throw noStackLeft;
            }
            failureB = job.failure();
        }
        if (failureA != null || failureB != null || runtimeFailure != null) {
            Join.rethrowFailures(failureA, failureB, runtimeFailure);
        }
    }

    public static long join(WorkerThread worker, LongSupplier a, LongSupplier b, LongBinaryOperator combine) {
        LazyWorker lazy = worker.lazy();
        int d = lazy.push(b, LazyWorker.LONG_SUPPLIER);

        long resultA = 0L;
        Throwable failureA = null;
        try {
            resultA = a.getAsLong();
        } catch (Throwable t) {
            failureA = t; // b still runs (both closures always run: docs/DESIGN.md §1.2)
        }
        long resultB = 0L;
        Throwable failureB = null;
        Throwable runtimeFailure = null;
        if (d >= lazy.lo) {
            lazy.depth = d; // LZ2: latent
            try {
                resultB = b.getAsLong();
            } catch (Throwable t) {
                failureB = t;
            }
        } else {
            JoinJob job = lazy.promoted[d];
            try {
                runtimeFailure = finishPromoted(worker, lazy, d, job);
            } catch (Throwable noStackLeft) { // finishPromoted throws nothing: only the call itself can (no stack)
                // b cannot run at this depth: abandon the job (whoever takes it skips it; a thief already running it
                // is the eager join's residual race) and pop the frame. Plain stores only: no call fits here.
                job.slot = JoinJob.ABANDONED;
                lazy.depth = d;
                lazy.lo = d;
                throw noStackLeft;
            }
            failureB = job.failure();
            if (failureB == null && runtimeFailure == null) {
                resultB = (Long) job.result(); // the promoted job boxed it: once per promotion, not per join
            }
        }
        if (failureA != null || failureB != null || runtimeFailure != null) {
            Join.rethrowFailures(failureA, failureB, runtimeFailure);
        }
        return combine.applyAsLong(resultA, resultB);
    }

    /**
     * {@code combine(f(x), f(y))}: the frame holds {@code f} and {@code y}, so a join that is never promoted allocates
     * nothing when {@code f} and {@code combine} capture nothing (method references to static methods).
     */
    public static <T> long join(WorkerThread worker, ToLongFunction<? super T> f, T x, T y,
            LongBinaryOperator combine) {
        LazyWorker lazy = worker.lazy();
        int d = lazy.pushFunction(f, y);

        long resultX = 0L;
        Throwable failureX = null;
        try {
            resultX = f.applyAsLong(x);
        } catch (Throwable t) {
            failureX = t; // f(y) still runs (both closures always run: docs/DESIGN.md §1.2)
        }
        long resultY = 0L;
        Throwable failureY = null;
        Throwable runtimeFailure = null;
        if (d >= lazy.lo) {
            lazy.depth = d; // LZ2: latent
            try {
                resultY = f.applyAsLong(y);
            } catch (Throwable t) {
                failureY = t;
            }
        } else {
            JoinJob job = lazy.promoted[d];
            try {
                runtimeFailure = finishPromoted(worker, lazy, d, job);
            } catch (Throwable noStackLeft) { // finishPromoted throws nothing: only the call itself can (no stack)
                // As in the other forms: abandon the job and pop the frame, with plain stores only.
                job.slot = JoinJob.ABANDONED;
                lazy.depth = d;
                lazy.lo = d;
                throw noStackLeft;
            }
            failureY = job.failure();
            if (failureY == null && runtimeFailure == null) {
                resultY = (Long) job.result(); // the promoted job boxed it: once per promotion, not per join
            }
        }
        if (failureX != null || failureY != null || runtimeFailure != null) {
            Join.rethrowFailures(failureX, failureY, runtimeFailure);
        }
        return combine.applyAsLong(resultX, resultY);
    }

    /**
     * LZ7: frame {@code d} was promoted into {@code job}. Reclaims it and runs it inline if no thief took it, else waits
     * for its latch running other work (frames above d are free for that work: LZ1 keeps {@code lo == depth == d + 1}
     * meanwhile). Either way leaves the stack at depth d with frames [0, d) promoted (LZ1).
     *
     * <p>E3 as in the eager join: returns only once b has run or can never run. A runtime step that throws is retried
     * and its first failure returned; a stack overflow before the job was stolen cannot be retried at this depth, so the
     * job is dropped (reclaimed) or abandoned (still in its slot: whoever takes it skips it), and the failure returned.
     *
     * @return the first failure of a runtime step, or null
     */
    private static Throwable finishPromoted(WorkerThread worker, LazyWorker lazy, int d, JoinJob job) {
        lazy.promoted[d] = null; // the job is held in this frame of the Java stack now: no stale reference kept
        lazy.depth = d + 1;      // LZ1 while waiting: frames above d are gone (any join's repair, here before work runs)
        lazy.lo = d + 1;
        Throwable runtimeFailure = null;
        boolean reclaimed = false;
        boolean stolen = false;
        boolean retrying = false;
        while (true) {
            try {
                if (retrying) {
                    Failures.pauseAfterRuntimeFailure(Failures.RUNTIME_FAILURE_BACKOFF_NANOS);
                }
                if (!reclaimed && !stolen) {
                    if (lazy.slotOf[d] == LazyWorker.ON_DEQUE) {
                        // B2: promoted onto our deque before a blocking call: take it back as an eager join does
                        // (Join.takeBackOrWait), running what our own code left above it, and no further once it ran:
                        // below it lies older work, of frames and jobs under this one
                        while (!reclaimed && !stolen) {
                            Job top = job.probe() ? null : worker.takeLocalJob(); // ran already (a nested wait)
                            if (top == job) {
                                reclaimed = true;
                            } else if (top == null) {
                                stolen = true; // a thief, or we ourselves, ran it or runs it: its latch tells
                            } else {
                                worker.execute(top);
                            }
                        }
                    } else if (lazy.slots.reclaim(lazy.slotOf[d], job)) {
                        reclaimed = true;
                    } else {
                        stolen = true; // a thief (maybe this worker, from its idle search) took it, and sets its latch
                    }
                }
                if (reclaimed) {
                    lazy.depth = d;
                    lazy.lo = d;      // LZ1: d leaves the prefix; b's own joins start latent at d
                    job.runInline();  // throws only if the call itself overflowed, before b started
                    return runtimeFailure;
                }
                worker.waitUntil(job); // returns, or throws, only once the latch is set
                lazy.depth = d;
                lazy.lo = d;
                return runtimeFailure;
            } catch (StackOverflowError overflow) { // a catch clause, not an instanceof: see WorkerThread.push
                if (runtimeFailure == null) {
                    runtimeFailure = overflow;
                }
                if (!stolen) {
                    // As Join: no stack to run b at this depth, and a retry would overflow the same way. Still in its
                    // slot, the job is abandoned and skipped by whoever takes it; reclaimed, it is dropped. Plain
                    // stores only: no call fits here.
                    if (!reclaimed) {
                        job.slot = JoinJob.ABANDONED;
                    }
                    lazy.depth = d;
                    lazy.lo = d;
                    return runtimeFailure;
                }
                retrying = true; // a stolen b is waited for: its thief sets the latch
            } catch (Throwable failure) {
                if (runtimeFailure == null) {
                    runtimeFailure = failure;
                }
                retrying = true; // memory may come back
            }
        }
    }
}
