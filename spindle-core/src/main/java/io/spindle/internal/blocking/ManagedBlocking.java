package io.spindle.internal.blocking;

import io.spindle.internal.lazy.LazyWorker;
import io.spindle.internal.registry.WorkerThread;

import java.util.concurrent.ForkJoinPool;
import java.util.function.Supplier;

/**
 * {@code Spindle.blocking} and {@code Spindle.managedBlock}: on a worker that may hand off (B5), its latent lazy
 * frames are promoted, its index goes to a stand-in (B2), and the call blocks on what is now a detached thread (B1).
 * The rules are in this package's package-info.
 */
public final class ManagedBlocking {
    private ManagedBlocking() {}

    /** The body of {@code Spindle.blocking}: its result, or its failure thrown as it is (B8). */
    public static <T> T blocking(Supplier<T> body) {
        WorkerThread w = WorkerThread.current();
        if (w == null || !handOff(w)) {
            return body.get(); // not a worker, already detached, in a hook, or refused (B5): block where we are
        }
        try {
            return body.get();
        } finally {
            w.registry().blockingReturned();
        }
    }

    /**
     * The body of {@code Spindle.managedBlock}: ForkJoinPool's contract. Off our workers, ForkJoinPool's own method
     * (which compensates on its own workers and just blocks elsewhere); on ours, nothing if the blocker is releasable
     * at once, else a hand-off and then {@code block()} until it or {@code isReleasable()} says done.
     */
    public static void managedBlock(ForkJoinPool.ManagedBlocker blocker) throws InterruptedException {
        WorkerThread w = WorkerThread.current();
        if (w == null) {
            ForkJoinPool.managedBlock(blocker);
            return;
        }
        if (blocker.isReleasable()) {
            return; // as ForkJoinPool: no compensation for a wait that is already over
        }
        boolean handedOff = handOff(w);
        try {
            while (!blocker.isReleasable() && !blocker.block()) {
                // ForkJoinPool's loop: block() returns true when no more blocking is needed
            }
        } finally {
            if (handedOff) {
                w.registry().blockingReturned();
            }
        }
    }

    /**
     * B2, B5: makes every latent lazy frame stealable, then hands the index off if this worker may. The promotion comes
     * first even where no hand-off follows (a detached thread, the cap): the blocked code may wait for one of those
     * halves, and only another thread can run it now.
     *
     * @return whether the index was handed off
     */
    private static boolean handOff(WorkerThread w) {
        LazyWorker lazy = w.lazy();
        if (lazy != null) {
            lazy.promoteBeforeBlocking();
        }
        if (w.mayHandOff() && w.registry().handOffBeforeBlocking(w)) {
            return true; // the stand-in's first idle search scans this thread's deque (B3)
        }
        w.announceStealableWork(); // B5: it blocks where it is; no stand-in will look, so the protocol must
        return false;
    }
}
