package io.spindle.internal.job;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * Collects the failures of concurrent parts of one operation (a scope, a broadcast, an invokeAny): the first in time
 * is rethrown, the others are added to it as suppressed exactly once each, never an instance to itself.
 */
public final class Failures {
    /** How long a retry of a failed runtime step waits: see {@link #pauseAfterRuntimeFailure()}. */
    private static final long RUNTIME_FAILURE_BACKOFF_NANOS = 1_000_000L;
    private static final VarHandle FIRST;
    private static final VarHandle UNRECORDED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            FIRST = l.findVarHandle(Failures.class, "first", Throwable.class);
            UNRECORDED = l.findVarHandle(Failures.class, "unrecorded", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile Throwable first;
    private final ConcurrentLinkedQueue<Throwable> others = new ConcurrentLinkedQueue<>();
    /** Later failures that could not be queued (no memory for a node): counted, and said in {@link #combine()}. */
    private volatile int unrecorded;

    /**
     * Records a failure; the first one recorded (the CAS winner) is "first in time". Never throws (E2): callers call it
     * from their catch blocks on the way to a latch or count that must still be released, often while memory is
     * exhausted (the failure being recorded may be that OutOfMemoryError).
     */
    public void add(Throwable t) {
        // volatile CAS: exactly one failure becomes first; the rest queue up (the queue publishes them safely)
        if (!FIRST.compareAndSet(this, null, t)) {
            try {
                others.add(t); // allocates a node
            } catch (Throwable noMemory) {
                UNRECORDED.getAndAdd(this, 1); // volatile RMW: published to combine() like the queue's nodes
            }
        }
    }

    /**
     * @return the first failure with the others added as suppressed, or null if none. Call once, after every part
     *         ended (a happens-before edge from each part, e.g. a latch, makes their failures visible).
     */
    public Throwable combine() {
        Throwable f = first;
        if (f == null) {
            return null;
        }
        try {
            Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            seen.add(f);
            for (Throwable o : others) {
                if (seen.add(o)) {
                    f.addSuppressed(o);
                }
            }
            int lost = unrecorded;
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
     * E3, E4 (registry package-info): backs off for a millisecond after a step of the runtime threw, before the caller
     * retries it: a failure that repeats (memory stays exhausted) must not spin a core. Never throws (with no stack
     * left even for the pause, the caller retries at once).
     */
    public static void pauseAfterRuntimeFailure() {
        try {
            LockSupport.parkNanos(RUNTIME_FAILURE_BACKOFF_NANOS);
        } catch (Throwable ignored) {
            // see above
        }
    }

    /**
     * Rethrows {@code t} unchanged, checked or not: closures may have thrown checked exceptions sneakily, and SPEC §1
     * says failures are rethrown as they are.
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
