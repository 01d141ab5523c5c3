package io.spindle.internal.job;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * Collects the failures of concurrent parts of one operation (a scope, a broadcast, an invokeAny): the first in time
 * is rethrown, the others are added to it as suppressed exactly once each, never an instance to itself.
 */
public final class Failures {
    /** How long a retry of a failed runtime step waits: see {@link #pauseAfterRuntimeFailure(long)}. */
    public static final long RUNTIME_FAILURE_BACKOFF_NANOS = 1_000_000L;

    // Guarded by this object's monitor. A monitor, not a VarHandle: add() runs when memory may be exhausted, and a
    // VarHandle call site allocates when it is linked, on its first execution, which may be this very failure (E2).
    private Throwable first;
    private ArrayList<Throwable> others; // created on the second failure
    /** Later failures that could not be kept (no memory for the list): counted, and said in {@link #combine()}. */
    private int unrecorded;

    /**
     * Records a failure; the first one recorded is "first in time". Never throws (E2): callers call it from their
     * catch blocks on the way to a latch or count that must still be released, often while memory is exhausted (the
     * failure being recorded may be that OutOfMemoryError). Entering a monitor takes no Java heap.
     */
    public void add(Throwable t) {
        synchronized (this) {
            if (first == null) {
                first = t;
                return;
            }
            try {
                if (others == null) {
                    others = new ArrayList<>(2);
                }
                others.add(t);
            } catch (Throwable noMemory) {
                unrecorded++;
            }
        }
    }

    /**
     * @return the first failure with the others added as suppressed, or null if none. Call once, after every part
     *         ended (a happens-before edge from each part, e.g. a latch, makes their failures visible; the monitor
     *         makes them visible in any case).
     */
    public Throwable combine() {
        Throwable f;
        List<Throwable> rest;
        int lost;
        synchronized (this) {
            f = first;
            rest = others;
            lost = unrecorded;
        }
        if (f == null) {
            return null;
        }
        try {
            if (rest != null) {
                Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
                seen.add(f);
                for (Throwable o : rest) {
                    if (seen.add(o)) {
                        f.addSuppressed(o);
                    }
                }
            }
            if (lost > 0) {
                f.addSuppressed(new IllegalStateException(lost
                        + " more failure(s) of this operation could not be recorded: out of memory"));
            }
        } catch (Throwable noMemory) {
            // Out of memory while attaching the others: the first failure is still the one to rethrow.
        }
        return f;
    }

    /** Rethrows {@link #combine()} as it is, if there was a failure. */
    public void rethrowIfAny() {
        Throwable f = combine();
        if (f != null) {
            throw Failures.<RuntimeException>sneakyThrow(f);
        }
    }

    /**
     * E3, E4 (registry package-info): backs off for {@code nanos} ({@link #RUNTIME_FAILURE_BACKOFF_NANOS}) after a step
     * of the runtime threw, before the caller retries it: a failure that repeats (memory stays exhausted) must not spin
     * a core. Never throws (with no stack left even for the pause, the caller retries at once). Callers on failure
     * paths also call it once with 0 from their static initializer: a call site's first execution resolves it, and
     * with the stack exhausted that resolution itself throws.
     */
    public static void pauseAfterRuntimeFailure(long nanos) {
        try {
            LockSupport.parkNanos(nanos);
        } catch (Throwable ignored) {
            // see above
        }
    }

    /**
     * Rethrows {@code t} unchanged, checked or not: closures may have thrown checked exceptions sneakily, and
     * docs/DESIGN.md §1.2 says failures are rethrown as they are.
     *
     * @return never returns; declared so callers can write {@code throw sneakyThrow(t)}
     */
    @SuppressWarnings("unchecked")
    public static <E extends Throwable> E sneakyThrow(Throwable t) throws E {
        throw (E) t;
    }

    /**
     * Adds {@code suppressed} to {@code primary} unless it is the same instance (or null). Never throws: with memory
     * exhausted the suppressed failure is dropped, and the primary one, which the caller is about to rethrow, wins.
     */
    public static void addSuppressedOnce(Throwable primary, Throwable suppressed) {
        if (suppressed != null && suppressed != primary) {
            try {
                primary.addSuppressed(suppressed); // allocates the suppressed list on first use
            } catch (Throwable noMemory) {
                // nothing to record it with; rethrowing the primary failure matters more
            }
        }
    }
}
