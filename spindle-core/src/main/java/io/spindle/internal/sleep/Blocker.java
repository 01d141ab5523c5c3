package io.spindle.internal.sleep;

/**
 * The mechanism one worker's thread blocks with, once its sleep protocol has decided that it sleeps, and the one a
 * waker uses to make it return. Only the mechanism: who may wake the worker, and who takes its sleeping count, is
 * arbitrated by {@link WorkerSleepState}'s state word (J6 in this package's {@code package-info.java}), which calls
 * {@link #block()} in a loop until the word says it was woken. So an implementation may return spuriously, and an
 * {@link #unblock()} that comes before the {@link #block()} it was meant for must make that {@code block()} return.
 *
 * <p>{@link ParkingBlocker} parks the thread ({@code LockSupport}); a worker that owns IO registrations will block in
 * its selector instead (docs/DESIGN.md §6), so that one wait returns on its IO or on a wake-up.
 */
public interface Blocker {
    /**
     * Owner thread only: blocks until {@link #unblock()} was called since this method last returned, or returns
     * spuriously (the caller re-checks). Returns at once while the thread is interrupted, without clearing the status:
     * the caller decides what an interrupt means (a worker's sleep ignores it and keeps the status).
     */
    void block();

    /** Any thread: makes the owner's current {@link #block()} return, or, if it is not blocked, its next one. */
    void unblock();

    /**
     * Owner only, after {@link #block()} returned: whether the owner has events of its own to handle (its IO became
     * ready), so that it ends its sleep itself, with no waker (J7, H9, S7 in package-info). A parking blocker has none.
     */
    default boolean ownEventsReady() {
        return false;
    }

    /**
     * Owner only: its sleep protocol ended this sleep for the owner's own events ({@link #ownEventsReady()}), with no
     * waker. Counted here, where the protocol decides, not where the wait returned: a wait that returned on IO may
     * still end as a waker's wake-up (the three-way race), and a sleep is counted once, as one or the other.
     */
    default void ownEventsEndedSleep() {
    }

    /**
     * Owner only, HINT_PIPE (H9): from now on ({@code on}) the owner's {@link #block()} also returns when
     * {@code source} is readable, or no longer ({@code !on}). Only blockers that wait in a selector support it; the
     * protocol gives every worker such a blocker before it calls this.
     *
     * @throws UnsupportedOperationException for a blocker that parks
     */
    default void watch(java.nio.channels.SelectableChannel source, boolean on) {
        throw new UnsupportedOperationException("this blocker parks: it cannot watch " + source);
    }
}
