package io.spindle.internal.job;

import io.spindle.internal.latch.Latch;

import java.util.function.Supplier;

/**
 * An operation handed to a pool by a thread that waits for its result: an external {@code install} (and through it
 * external {@code join} and {@code scope}). The waiter owns {@link #latch()}.
 */
public final class InstallJob<T> extends InjectedJob {
    private final Supplier<T> op;
    private final Latch latch;
    private final Runnable onDone;
    private T result;          // written before latch.set(), read after the waiter saw it set
    private Throwable failure; // likewise

    /**
     * @param onDone runs after the latch is set (releases the pool's count of outstanding work)
     */
    public InstallJob(Supplier<T> op, Latch latch, Runnable onDone) {
        this.op = op;
        this.latch = latch;
        this.onDone = onDone;
    }

    public Latch latch() {
        return latch;
    }

    @Override
    public void execute() {
        try {
            result = op.get();
        } catch (Throwable t) {
            failure = t; // a plain store: recording a failure never throws, not even out of memory
        }
        try {
            latch.set(); // publishes result/failure to the waiter (Latch's memory effects)
        } finally {
            onDone.run(); // E2: the pool's count goes back whatever happened above
        }
    }

    /** Waiter, after the latch is set: the result, or the op's failure rethrown as it is. */
    public T resultOrRethrow() {
        if (failure != null) {
            throw Failures.<RuntimeException>sneakyThrow(failure);
        }
        return result;
    }
}
