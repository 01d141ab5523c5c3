package io.spindle.internal.job;

/**
 * A fire-and-forget task ({@code spawn}, {@code execute}, {@code submit}). It holds one count of the pool's
 * outstanding work until it ended, so the pool does not terminate before it ran.
 */
public final class SpawnJob extends InjectedJob {
    /** Where a spawned task's outcome goes. */
    public interface Sink {
        /** The task threw: hand {@code failure} to the pool's uncaught-exception handler. */
        void spawnFailed(Throwable failure);

        /** The task ended (either way): release its count of outstanding work. */
        void spawnEnded();
    }

    private final Runnable task;
    private final Sink sink;
    private final boolean external;

    /**
     * @param external whether it was submitted from outside the pool (then {@code shutdownNow} may remove it)
     */
    public SpawnJob(Runnable task, Sink sink, boolean external) {
        this.task = task;
        this.sink = sink;
        this.external = external;
    }

    public boolean isExternal() {
        return external;
    }

    /** The user's task, as {@code shutdownNow} returns it. */
    public Runnable task() {
        return task;
    }

    @Override
    public void execute() {
        try {
            task.run();
        } catch (Throwable t) {
            sink.spawnFailed(t);
        } finally {
            sink.spawnEnded();
        }
    }
}
