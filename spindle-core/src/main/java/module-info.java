/**
 * Spindle: a work-stealing fork-join runtime with rayon-style sleep protocols.
 *
 * <p>Only {@code io.spindle} is exported; the engine in {@code io.spindle.internal.*} is hidden.
 *
 * <p>{@code jdk.jfr} is optional: with it, the engine emits Flight Recorder events ({@code io.spindle.WorkerSleep},
 * {@code WorkerWoken}, {@code StealBatch}, {@code Injection}); without it (a runtime image that lacks it, or
 * {@code --limit-modules}) the pool runs the same and no JFR class is loaded.
 */
module io.spindle {
    requires static jdk.jfr;

    exports io.spindle;
}
