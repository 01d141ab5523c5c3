package io.spindle.internal.latch;

/**
 * A one-shot signal: it starts unset and, once {@link #set() set}, stays set. The thread waiting for it is its owner;
 * how the owner waits (running other jobs, or blocking) depends on the implementation.
 *
 * <p>Memory effects: everything a thread did before {@code set()} is visible to a thread that then sees
 * {@code probe()} return true.
 */
public interface Latch {
    /** Sets the latch, waking its owner if the owner sleeps on it. Idempotent. */
    void set();

    /** @return whether the latch is set */
    boolean probe();
}
