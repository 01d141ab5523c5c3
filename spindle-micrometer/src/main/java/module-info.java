/**
 * Micrometer meters for Spindle pools. A module of its own, so that the library ({@code io.spindle}) keeps no
 * dependency: only an application that wants the meters adds this module and Micrometer.
 */
// micrometer.core is an automatic module, which javac warns about when it is required (-Xlint:all). Its name is the
// Automatic-Module-Name that Micrometer's jar declares, not one derived from the file name, so it stays stable.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.spindle.micrometer {
    // Both transitive: SpindlePoolMetrics's constructors and bindTo take ThreadPool, Tag and MeterRegistry.
    requires transitive io.spindle;
    requires transitive micrometer.core;

    exports io.spindle.micrometer;
}
