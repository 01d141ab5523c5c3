package io.spindle.internal.io;

/** Placeholder while the IO engine is written (branch io). */
public final class PoolIoImpl {
}
