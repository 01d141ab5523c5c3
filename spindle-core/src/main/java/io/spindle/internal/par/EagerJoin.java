package io.spindle.internal.par;

import io.spindle.Pair;
import io.spindle.ThreadPool;
import io.spindle.internal.join.Join;
import io.spindle.internal.registry.WorkerThread;

import java.util.function.Supplier;

/**
 * The parallel operations' join: always {@link io.spindle.JoinStrategy#EAGER eager}, whatever the pool's strategy.
 * Their splitting makes few, coarse joins (about two leaves per worker, more only where steals show uneven load) and
 * then runs long sequential leaves. A lazy join would share a half only at a heartbeat check, and a leaf loop makes
 * none, so a worker that finished its half early would idle while the other one's pending halves sit in latent frames
 * (see {@code internal/lazy/package-info}, "What lazy joins do not do"). Eager halves are stealable at once, and at a
 * few dozen joins per operation their cost does not show. The user's own joins inside a leaf stay the pool's kind.
 */
final class EagerJoin {
    private EagerJoin() {}

    /** {@code pool.join(a, b)}, eager when the caller is one of {@code pool}'s workers. */
    static <A, B> Pair<A, B> join(ThreadPool pool, Supplier<A> a, Supplier<B> b) {
        WorkerThread w = WorkerThread.current();
        if (w != null && w.registry().publicPool() == pool) {
            return Join.join(w, a, b);
        }
        return pool.join(a, b); // from outside: the install lands on a worker, whose joins below come back here
    }

    /** {@code Spindle.join(a, b)}, eager when the caller is a worker. */
    static void join(Runnable a, Runnable b) {
        WorkerThread w = WorkerThread.current();
        if (w != null) {
            Join.join(w, a, b);
        } else {
            io.spindle.Spindle.join(a, b);
        }
    }
}
