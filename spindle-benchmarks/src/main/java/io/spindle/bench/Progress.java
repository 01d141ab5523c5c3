package io.spindle.bench;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The progress on stderr: which workload, which pool, which run, the time since the start and an estimate of the
 * time left. On a terminal it rewrites one line in place at every run. Otherwise (a log file, CI) it prints a line
 * only when the run has gone another {@link #STEP} of the way, and one per finished workload, so that a full run's log
 * stays a screenful or two instead of a line per run (issue 31: 1,053 lines for a quick run).
 *
 * <p>The estimate assumes the remaining workloads take as long on average as the finished ones: they do not (the IO
 * and light loads are slower than the join workloads), so it is a guide, and it improves as the run goes on.
 */
final class Progress {
    /** The share of the run between two progress lines on a non-terminal. */
    static final double STEP = 0.05;

    /** Within a workload, the warm-up is taken as this share of its time, the measured runs as the rest. */
    private static final double WARMUP_SHARE = 0.4;

    private final PrintStream err;
    private final boolean inPlace;
    private final int workloads;
    private final long startNanos;
    private final Clock clock;
    private boolean lineOpen;
    private int stepsShown; // whole STEPs of the run already reported on a non-terminal

    /** The time source, so that a test can drive it. */
    interface Clock {
        long nanoTime();
    }

    Progress(int workloads) {
        this(workloads, System.err, System.console() != null, System::nanoTime);
    }

    Progress(int workloads, PrintStream err, boolean inPlace, Clock clock) {
        this.workloads = workloads;
        this.err = err;
        this.inPlace = inPlace;
        this.clock = clock;
        this.startNanos = clock.nanoTime();
    }

    /** Shows "[ 3/14] fib-naive  fjp  run 2 of 5  17%, 0:41 elapsed, about 3:20 left" (or "warm-up 1 of 3"). */
    void show(int workloadIndex, String workload, String pool, boolean warmup, int k, int n) {
        double within = warmup ? WARMUP_SHARE * Math.min(1, (k - 1) / (double) n)
                : WARMUP_SHARE + (1 - WARMUP_SHARE) * (k - 1) / (double) n;
        double fraction = (workloadIndex - 1 + within) / workloads;
        String line = String.format(Locale.ROOT, "[%2d/%d] %-15s %-15s %s %d of %d  %s", workloadIndex, workloads,
                workload, pool, warmup ? "warm-up" : "run", k, n, timing(fraction));
        if (inPlace) {
            err.print("\r" + line + "\033[K");
            lineOpen = true;
        } else if ((int) (fraction / STEP + 1e-9) > stepsShown) {
            stepsShown = (int) (fraction / STEP + 1e-9);
            err.println(line);
        }
        err.flush();
    }

    /** Prints "[ 3/14] fib-naive  done in 4.2 s  21%, ..." as a line that stays. */
    void done(int workloadIndex, String workload, double seconds) {
        double fraction = workloadIndex / (double) workloads;
        stepsShown = Math.max(stepsShown, (int) (fraction / STEP + 1e-9));
        note(String.format(Locale.ROOT, "[%2d/%d] %-15s done in %.1f s  %s", workloadIndex, workloads, workload,
                seconds, timing(fraction)));
    }

    /** Prints a line that stays (a note, a finished workload), ending any line being rewritten. */
    void note(String line) {
        if (lineOpen) {
            err.print("\r\033[K");
            lineOpen = false;
        }
        err.println(line);
        err.flush();
    }

    /** @return "17%, 0:41 elapsed, about 3:20 left", without an estimate before there is anything to go by */
    private String timing(double fraction) {
        double elapsed = (clock.nanoTime() - startNanos) / 1e9;
        String s = String.format(Locale.ROOT, "%.0f%%, %s elapsed", 100 * fraction, clock(elapsed));
        if (fraction <= 0 || fraction >= 1) return s;
        return s + ", about " + clock(elapsed / fraction * (1 - fraction)) + " left";
    }

    /** @return "m:ss" */
    static String clock(double seconds) {
        long s = Math.round(seconds);
        return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
