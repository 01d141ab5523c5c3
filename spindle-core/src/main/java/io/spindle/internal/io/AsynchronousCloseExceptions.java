package io.spindle.internal.io;

import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ShutdownChannelGroupException;

/** The failures the pool itself gives pending operations: one fresh instance per operation, never shared. */
final class AsynchronousCloseExceptions {
    private AsynchronousCloseExceptions() {}

    /** The channel was closed while the operation was pending (docs/DESIGN.md §6). */
    static AsynchronousCloseException closed() {
        return new AsynchronousCloseException();
    }

    /** The pool was shut down while the operation was pending (docs/DESIGN.md §6). */
    static ShutdownChannelGroupException shutdown() {
        return new ShutdownChannelGroupException();
    }
}
