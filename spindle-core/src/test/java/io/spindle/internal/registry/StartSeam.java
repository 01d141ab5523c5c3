package io.spindle.internal.registry;

import java.util.function.Consumer;

/** Opens {@link Registry#starter} to tests in other packages: makes {@code Thread.start} fail for a chosen worker. */
public final class StartSeam {
    private StartSeam() {}

    /**
     * Until the returned handle is closed, starting the worker thread named {@code threadName} throws {@code failure}
     * instead (the thread is not started); every other worker starts as usual. Not for tests run in parallel.
     */
    public static AutoCloseable failStartOf(String threadName, Throwable failure) {
        return failStartOf(threadName, failure, () -> {});
    }

    /** As {@link #failStartOf(String, Throwable)}, running {@code beforeFailing} on the building thread first. */
    public static AutoCloseable failStartOf(String threadName, Throwable failure, Runnable beforeFailing) {
        Consumer<WorkerThread> previous = Registry.starter; // volatile read
        Registry.starter = w -> { // volatile write: a pool built after this returns sees it
            if (w.getName().equals(threadName)) {
                beforeFailing.run();
                throw sneaky(failure);
            }
            previous.accept(w);
        };
        return () -> Registry.starter = previous; // volatile write
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
        throw (T) t;
    }
}
