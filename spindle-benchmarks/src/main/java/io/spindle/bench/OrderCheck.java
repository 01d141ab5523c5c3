package io.spindle.bench;

import io.spindle.bench.report.ResultTable;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Shows whether pool order matters: runs the same benchmark again in a fresh JVM (fresh JIT, fresh heap) with the
 * pools in reverse order, then compares every Spindle÷FJP ratio between the two runs, next to the run-to-run spread
 * the runs themselves showed. A shift no bigger than that spread means the order does not matter.
 */
public final class OrderCheck {
    /** One ratio in both orders; {@code threads} is the pool size of its line, as a light load has several. */
    public record Shift(String workload, String metric, int threads, String pool, double forward, double reversed) {
        /** @return reversed ÷ forward - 1 */
        public double change() {
            return reversed / forward - 1;
        }
    }

    /**
     * @param spread the median over the compared rows of max÷min - 1 within one run: the noise floor
     */
    public record Outcome(List<String> forwardOrder, List<String> reversedOrder, List<Shift> shifts, double spread,
                          Path reversedDir) {
        public double medianAbsChange() {
            double[] c = shifts.stream().mapToDouble(s -> Math.abs(s.change())).toArray();
            return c.length == 0 ? Double.NaN : Stats.of(c).median();
        }

        public Shift largest() {
            return shifts.stream().max(Comparator.comparingDouble(s -> Math.abs(s.change()))).orElse(null);
        }

        public String summary() {
            if (shifts.isEmpty()) return "No Spindle÷FJP ratios to compare (run fjp and a Spindle pool)";
            Shift w = largest();
            return String.format(Locale.ROOT, "With the pools reversed in a fresh JVM, the Spindle÷FJP ratios moved by a "
                            + "median of %.1f%%, at most %.1f%% (%s %s at %d threads, %s: %.3f -> %.3f); "
                            + "run-to-run spread of the same rows: median %.1f%%", 100 * medianAbsChange(),
                    100 * Math.abs(w.change()), w.workload(), w.metric(), w.threads(), w.pool(), w.forward(),
                    w.reversed(), 100 * spread);
        }
    }

    private OrderCheck() {}

    /**
     * Re-runs the runner with {@code args} (minus --order-check, --pools and --out) in a new JVM with the pools
     * reversed, writing into {@code out}/order-reversed, and compares with {@code forward}.
     */
    static Outcome run(String[] args, List<PoolKind> pools, Path out, Results forward, Progress progress)
            throws IOException, InterruptedException {
        List<String> reversed = new ArrayList<>(pools.stream().map(PoolKind::id).toList());
        Collections.reverse(reversed);
        Path dir = out.resolve("order-reversed");
        progress.note("order check: running again in a fresh JVM with the pools reversed ("
                + String.join(", ", reversed) + ")");
        List<String> childArgs = ChildRun.argsWithout(args, "--order-check");
        childArgs.addAll(List.of("--pools", String.join(",", reversed)));
        Results back = ChildRun.run(childArgs, dir);
        List<String> forwardIds = pools.stream().map(PoolKind::id).toList();
        return compare(forward, back, forwardIds, reversed, dir);
    }

    static Outcome compare(Results forward, Results reversed, List<String> forwardOrder, List<String> reversedOrder,
                           Path dir) {
        ResultTable a = new ResultTable(forward.results(), forwardOrder);
        ResultTable b = new ResultTable(reversed.results(), forwardOrder);
        List<Shift> shifts = new ArrayList<>();
        List<Double> spreads = new ArrayList<>();
        for (ResultTable.Line la : a.lines()) {
            ResultTable.Line lb = b.lines().stream()
                    .filter(l -> l.is(la.workload(), la.metric(), la.threads()))
                    .findFirst().orElse(null);
            if (lb == null) continue;
            for (String pool : a.ratioPools()) {
                var ra = la.ratio(pool);
                var rb = lb.ratio(pool);
                if (ra.isEmpty() || rb.isEmpty() || ra.get() == 0 || ra.get().isInfinite() || rb.get().isInfinite()) {
                    continue; // no finite ratio to compare (a zero in the denominator)
                }
                shifts.add(new Shift(la.workload(), la.metric(), la.threads(), pool, ra.get(), rb.get()));
                la.row(pool).ifPresent(r -> spreads.add(spread(r)));
                la.row(PoolKind.FJP.id()).ifPresent(r -> spreads.add(spread(r)));
            }
        }
        double spread = spreads.isEmpty() ? Double.NaN
                : Stats.of(spreads.stream().mapToDouble(Double::doubleValue).toArray()).median();
        return new Outcome(forwardOrder, reversedOrder, shifts, spread, dir);
    }

    private static double spread(Row r) {
        return r.min() > 0 ? r.max() / r.min() - 1 : 0;
    }
}
