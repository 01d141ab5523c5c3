package io.spindle.internal.latch;

/** The pool of a worker that owns {@link WorkerLatch}es: it knows how to wake that worker. */
public interface LatchOwner {
    /** Wakes worker {@code index} because a latch it sleeps on was set. */
    void wakeLatchOwner(int index);
}
