package io.spindle.internal.job;

/**
 * A job that can enter a pool through its injector: a spawn or an install from outside the pool, a scope task from
 * another pool's thread. Besides the queue's own arbitration (exactly one poll or remove gets a node), it carries a
 * claim, and whoever claims it owns it: a worker runs it, {@code shutdownNow} returns its task, or the poster whose
 * notification of the sleep protocol threw takes it back and throws (E1 in the registry package). The claim is a
 * monitor, the one read-modify-write the JVM does without a call: the poster's take-back runs at whatever stack depth
 * the notification overflowed, where even calling a method could overflow again, so {@code Registry.inject} writes
 * {@link #claim()}'s body out inline. One subclass never enters the injector itself: the IO package's list of finished
 * operations, which is an {@code InjectedJob} only to be owed ({@link #nextOwed}) and enters as its operations
 * ({@link #enterOwed}).
 */
public abstract class InjectedJob implements Job {
    /**
     * Whether someone owns this job. Guarded by this job's monitor (a plain field: the monitor orders it); public only
     * for the inline copy of {@link #claim()} in {@code Registry.inject}.
     */
    public boolean claimed;
    /**
     * IO6: the next job owed for injection, while this one is owed ({@code Registry.injectKept} could not queue it);
     * guarded by the owes' monitor ({@code OwedLatchWakes}). A field of the job, so that owing it allocates nothing.
     */
    public InjectedJob nextOwed;

    /**
     * IO6: an owed job re-enters the pool through {@code injector} ({@code Registry.injectKept}) when a delivery takes
     * it ({@code OwedLatchWakes}); if this throws, the delivery owes the job again. A job enters as itself; a list of
     * finished IO operations that was owed whole enters as its operations, each once.
     */
    public void enterOwed(java.util.function.Consumer<InjectedJob> injector) {
        injector.accept(this);
    }

    /** @return whether someone owns this job (read inside the monitor) */
    public final boolean isClaimed() {
        synchronized (this) {
            return claimed;
        }
    }

    /**
     * @return true for exactly one caller, over this and the inline copy in {@code Registry.inject}: the job's owner
     */
    public final boolean claim() {
        synchronized (this) {
            if (claimed) {
                return false;
            }
            claimed = true;
            return true;
        }
    }
}
