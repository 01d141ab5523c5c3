package io.spindle.internal.join;

import io.spindle.Pair;
import io.spindle.internal.job.Failures;
import io.spindle.internal.job.Job;
import io.spindle.internal.registry.WorkerThread;

import java.util.function.LongBinaryOperator;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * {@code join} on a worker: make {@code b} stealable, run {@code a} inline, then take {@code b} back and run it inline
 * if nobody stole it, else run other work until the thief is done (rayon's {@code join_context}).
 *
 * <p>This is the {@link io.spindle.JoinStrategy#EAGER eager} join; the default, lazy one is
 * {@link io.spindle.internal.lazy.LazyJoin}, which shares this class's job ({@link JoinJob}) for the halves it promotes
 * and its failure rules ({@link #rethrowFailures}).
 */
public final class Join {
    private Join() {}

    static {
        // The abandon path (see JoinJob.ABANDONED) runs only with the stack exhausted, where even resolving a
        // constant-pool entry on its first use throws a second StackOverflowError. Resolve its field and constant now.
        JoinJob unused = JoinJob.of(null, (Runnable) () -> { });
        unused.slot = JoinJob.ABANDONED;
        Failures.pauseAfterRuntimeFailure(0); // and the retry's pause likewise
        new Application<>(null, null); // loaded here, not at a deep join's first use
    }

    /**
     * The eager join of one function applied to two arguments: each application becomes a closure (an eager join
     * allocates a job per join anyway). A named class rather than lambdas, so nothing is linked at a join's first use,
     * which may come deep in a recursion.
     */
    public static <T> long join(WorkerThread worker, ToLongFunction<? super T> f, T x, T y,
            LongBinaryOperator combine) {
        return join(worker, new Application<T>(f, x), new Application<T>(f, y), combine);
    }

    private static final class Application<T> implements LongSupplier {
        private final ToLongFunction<? super T> f;
        private final T argument;

        Application(ToLongFunction<? super T> f, T argument) {
            this.f = f;
            this.argument = argument;
        }

        @Override
        public long getAsLong() {
            return f.applyAsLong(argument);
        }
    }

    public static <A, B> Pair<A, B> join(WorkerThread worker, Supplier<A> a, Supplier<B> b) {
        JoinJob jobB = JoinJob.of(worker, b);
        worker.push(jobB); // its release store publishes the job's fields to a thief

        A resultA = null;
        Throwable failureA = null;
        try {
            resultA = a.get();
        } catch (Throwable t) {
            failureA = t; // b still runs (both closures always run: docs/DESIGN.md §1.2)
        }
        Throwable runtimeFailure;
        try {
            runtimeFailure = takeBackOrWait(worker, jobB);
        } catch (Throwable noStackLeft) { // see ABANDONED: only the call itself can throw
            jobB.slot = JoinJob.ABANDONED; // a plain store: no call fits here
            throw noStackLeft;
        }

        @SuppressWarnings("unchecked")
        B resultB = (B) jobB.result();
        rethrowFailures(failureA, jobB.failure(), runtimeFailure);
        return new Pair<>(resultA, resultB);
    }

    public static void join(WorkerThread worker, Runnable a, Runnable b) {
        JoinJob jobB = JoinJob.of(worker, b); // no wrapping of the Runnables into Suppliers: one object per join
        worker.push(jobB); // its release store publishes the job's fields to a thief

        Throwable failureA = null;
        try {
            a.run();
        } catch (Throwable t) {
            failureA = t; // b still runs (both closures always run: docs/DESIGN.md §1.2)
        }
        Throwable runtimeFailure;
        try {
            runtimeFailure = takeBackOrWait(worker, jobB);
        } catch (Throwable noStackLeft) { // see ABANDONED: only the call itself can throw
            jobB.slot = JoinJob.ABANDONED; // a plain store: no call fits here
            throw noStackLeft;
        }

        rethrowFailures(failureA, jobB.failure(), runtimeFailure);
    }

    public static long join(WorkerThread worker, LongSupplier a, LongSupplier b, LongBinaryOperator combine) {
        JoinJob jobB = JoinJob.of(worker, b);
        worker.push(jobB); // its release store publishes the job's fields to a thief

        long resultA = 0L;
        Throwable failureA = null;
        try {
            resultA = a.getAsLong();
        } catch (Throwable t) {
            failureA = t; // b still runs (both closures always run: docs/DESIGN.md §1.2)
        }
        Throwable runtimeFailure;
        try {
            runtimeFailure = takeBackOrWait(worker, jobB);
        } catch (Throwable noStackLeft) { // see ABANDONED: only the call itself can throw
            jobB.slot = JoinJob.ABANDONED; // a plain store: no call fits here
            throw noStackLeft;
        }

        rethrowFailures(failureA, jobB.failure(), runtimeFailure);
        return combine.applyAsLong(resultA, (Long) jobB.result()); // b ran and succeeded: its result is a Long
    }

    /**
     * docs/DESIGN.md §1.2: a's failure wins, with b's added as suppressed; else b's failure; else nothing. A failure of
     * the runtime's own steps while taking b back or waiting for it comes last (suppressed, or thrown if the closures
     * succeeded): both closures ran regardless.
     */
    public static void rethrowFailures(Throwable failureA, Throwable failureB, Throwable runtimeFailure) {
        Throwable primary = failureA != null ? failureA : failureB != null ? failureB : runtimeFailure;
        if (primary != null) {
            if (primary != failureB) {
                Failures.addSuppressedOnce(primary, failureB);
            }
            if (primary != runtimeFailure) {
                Failures.addSuppressedOnce(primary, runtimeFailure);
            }
            throw Failures.<RuntimeException>sneakyThrow(primary);
        }
    }

    /**
     * Pops local jobs until {@code jobB} comes back (run it inline) or the deque is empty (it was stolen: wait for its
     * latch, running other work meanwhile). Jobs above {@code jobB} are ones {@code a} left behind (spawns); they run
     * here, as in rayon.
     *
     * <p>E3: returns only once b has run or can never run (docs/DESIGN.md §1.2: a join never ends before its b). A step
     * of the runtime may throw on the way (an Error in the sleep path, a stack overflow in a pop when {@code a} left
     * the stack nearly full): the step is retried, and the first such failure is returned for the caller to throw after
     * b. The exception is a stack overflow before b was stolen: a retry at this depth would overflow the same way,
     * forever. Then b does not run at all: held, it is dropped (nobody else can see it); still queued, it is abandoned
     * (see {@link JoinJob#ABANDONED}); and the join throws the StackOverflowError. A stolen b is always waited for.
     *
     * @return the first failure of a runtime step, or null
     */
    private static Throwable takeBackOrWait(WorkerThread worker, JoinJob jobB) {
        Throwable runtimeFailure = null;
        boolean holdingB = false; // jobB was taken back from the deque: only this thread can run it now
        boolean bStolen = false;  // our deque ran dry without jobB: a thief has it, and will set its latch
        boolean retrying = false; // a step threw: pause first, inside the try (a catch block makes no call)
        while (true) {
            try {
                if (retrying) {
                    Failures.pauseAfterRuntimeFailure(Failures.RUNTIME_FAILURE_BACKOFF_NANOS);
                }
                if (holdingB) {
                    jobB.runInline(); // throws only if the call itself overflowed, before b started
                    return runtimeFailure;
                }
                while (!jobB.probe()) {
                    Job job = worker.takeLocalJob();
                    if (job == jobB) {
                        holdingB = true;
                        jobB.runInline();
                        return runtimeFailure;
                    }
                    if (job == null) {
                        bStolen = true;
                        worker.waitUntil(jobB); // returns, or throws, only once the thief set jobB's latch
                        return runtimeFailure;
                    }
                    worker.execute(job);
                }
                return runtimeFailure;
            } catch (StackOverflowError overflow) { // a catch clause, not an instanceof: see WorkerThread.push
                if (runtimeFailure == null) {
                    runtimeFailure = overflow;
                }
                if (!bStolen) {
                    // No stack left at this depth to run b or to dig it out from under a's left-behind jobs, and a
                    // retry would fail the same way, forever. Held, b is dropped unrun; still queued, it is abandoned
                    // (plain store, see JoinJob.ABANDONED) and skipped by whoever pops it later. The caller throws.
                    if (!holdingB) {
                        jobB.slot = JoinJob.ABANDONED;
                    }
                    return runtimeFailure;
                }
                // A stolen b is waited for: a thief sets its latch, and the loop's probe, compiled and inlined soon
                // enough, needs no stack of its own.
                retrying = true;
            } catch (Throwable failure) {
                if (runtimeFailure == null) {
                    runtimeFailure = failure;
                }
                retrying = true; // memory may come back
            }
        }
    }
}
