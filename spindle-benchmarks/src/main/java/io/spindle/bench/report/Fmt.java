package io.spindle.bench.report;

import java.util.Locale;
import java.util.Optional;

/** Number formatting for tables: about three significant digits, always with a dot as the decimal mark. */
public final class Fmt {
    private Fmt() {}

    public static String num(double v) {
        if (Double.isNaN(v)) return "n/a";
        double a = Math.abs(v);
        String f = a == 0 ? "%.0f" : a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : a >= 0.01 ? "%.3f" : "%.2g";
        return String.format(Locale.ROOT, f, v);
    }

    public static String ratio(Optional<Double> r) {
        return r.map(v -> v.isInfinite() ? "inf"
                : String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v)).orElse("n/a");
    }

    /** @return a signed percentage, e.g. "+3.1%" */
    public static String percent(double fraction) {
        return String.format(Locale.ROOT, "%+.1f%%", 100 * fraction);
    }
}
