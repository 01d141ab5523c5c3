package io.spindle.bench.workload;

import java.util.concurrent.locks.LockSupport;

/** Waiting by the clock: parking until a deadline (idle time) and spinning for a duration (busy time). */
final class Pace {
    private Pace() {}

    /** Parks until {@code System.nanoTime()} reaches {@code deadline}; never returns early. */
    static void parkUntil(long deadline) {
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(left);
        }
    }

    /** Keeps the CPU busy for {@code nanos} of wall time: a task that "does 20 µs of work". */
    static void spinFor(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
    }
}
