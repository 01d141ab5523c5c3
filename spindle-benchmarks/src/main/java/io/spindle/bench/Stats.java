package io.spindle.bench;

import java.util.Arrays;

/** Median, minimum and maximum of a set of runs. */
public record Stats(double median, double min, double max, int runs) {
    /** @throws IllegalArgumentException if {@code values} is empty */
    public static Stats of(double[] values) {
        if (values.length == 0) throw new IllegalArgumentException("no values");
        double[] s = values.clone();
        Arrays.sort(s);
        int n = s.length;
        double median = n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
        return new Stats(median, s[0], s[n - 1], n);
    }

    /**
     * The nearest-rank percentile of unsorted samples (p in 0..100); for latencies within one run.
     *
     * @throws IllegalArgumentException if {@code samples} is empty or p is out of range
     */
    public static double percentile(long[] samples, double p) {
        if (samples.length == 0) throw new IllegalArgumentException("no samples");
        if (p < 0 || p > 100) throw new IllegalArgumentException("p must be in 0..100, got " + p);
        long[] s = samples.clone();
        Arrays.sort(s);
        int rank = (int) Math.ceil(p / 100.0 * s.length); // 1-based
        return s[Math.max(0, rank - 1)];
    }
}
