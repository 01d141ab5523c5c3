package io.spindle.bench;

import java.io.PrintStream;

/**
 * The progress line on stderr: which workload, which pool, which run. On a terminal it rewrites one line in place;
 * otherwise (a log file, CI) it prints one line per run.
 */
final class Progress {
    private final PrintStream err = System.err;
    private final boolean inPlace;
    private final int workloads;
    private boolean lineOpen;

    Progress(int workloads) {
        this.workloads = workloads;
        this.inPlace = System.console() != null;
    }

    /** Shows "[3/14] fib-naive · fjp · run 2 of 5" (or "warm-up 1 of 3"). */
    void show(int workloadIndex, String workload, String pool, boolean warmup, int k, int n) {
        String line = String.format("[%2d/%d] %-15s %-15s %s %d of %d", workloadIndex, workloads, workload, pool,
                warmup ? "warm-up" : "run", k, n);
        if (inPlace) {
            err.print("\r" + line + "\033[K");
            lineOpen = true;
        } else {
            err.println(line);
        }
        err.flush();
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
}
