/**
 * Spindle: a work-stealing fork-join runtime with rayon-style sleep protocols.
 *
 * <p>Only {@code io.spindle} is exported; the engine in {@code io.spindle.internal.*} is hidden.
 */
module io.spindle {
    exports io.spindle;
}
