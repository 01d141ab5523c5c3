package io.spindle.bench.report;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One metric kind's chart as inline SVG, drawn by hand (no charting library to ship): a bar per Spindle pool ÷
 * baseline on each line of the result table, from 1 to the ratio of the medians on a log axis centred on 1 (0.5 and
 * 2 equally far from it), sized to the chart's own ratios. Whiskers span the range of ratios the runs allow (Spindle's
 * min ÷ the baseline's max to Spindle's max ÷ the baseline's min). Colours are the Okabe–Ito palette's blue and
 * vermillion, which colour-blind readers tell apart, for a ratio whose whole range is better or worse, and grey for
 * one within noise of 1 (see {@link Comparison#verdict()}). A ratio a log axis cannot place (a median of 0) gets a
 * label instead of a bar. Every bar has a tooltip ({@code <title>}) with both rows' medians and min–max, and its
 * ratio and absolute values are printed beside it.
 */
public final class SvgRatioChart {
    static final String BETTER = "#0072B2";
    static final String WORSE = "#D55E00";
    static final String NOISE = "#9E9E9E";

    /** The widest axis, 1/64 to 64: beyond it bars and whiskers end in an arrowhead, the label keeps the value. */
    static final int MAX_LOG2_RANGE = 6;

    private static final int GROUP_WIDTH = 290;
    private static final int PAIR_WIDTH = 160;
    private static final int PLOT_X = GROUP_WIDTH + PAIR_WIDTH;
    private static final int PLOT_WIDTH = 400;
    private static final int VALUE_WIDTH = 240;
    private static final int WIDTH = PLOT_X + PLOT_WIDTH + VALUE_WIDTH;
    private static final int ROW = 18;
    private static final int BAR = 10;
    private static final int TOP = 84;

    private final int range; // the axis runs from 2^-range to 2^range

    private SvgRatioChart(int range) {
        this.range = range;
    }

    public static String render(MetricKind kind, List<Comparison> bars) {
        return new SvgRatioChart(range(bars)).draw(kind, bars);
    }

    /**
     * @return the smallest whole power of 2, within 1..6, that holds every drawable ratio of the medians; whiskers
     *         are left out, as one baseline run near 0 (an idle pool's CPU) would otherwise stretch the axis until
     *         every bar of the chart is a sliver: a whisker beyond the axis ends in an arrowhead instead
     */
    static int range(List<Comparison> bars) {
        double widest = 0;
        for (Comparison c : bars) {
            if (c.drawable()) widest = Math.max(widest, Math.abs(log2(c.ratio())));
        }
        // a hair of slack so that a ratio of exactly 2 does not sit on the axis' end
        return (int) Math.max(1, Math.min(MAX_LOG2_RANGE, Math.ceil(widest + 1e-9)));
    }

    private String draw(MetricKind kind, List<Comparison> bars) {
        int height = TOP + bars.size() * ROW + 12;
        String title = kind.title() + ": Spindle ÷ baseline";
        StringBuilder s = new StringBuilder();
        s.append(f("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                + "font-family=\"sans-serif\" font-size=\"11\" role=\"img\" aria-label=\"%s\" class=\"ratio-chart\" "
                + "data-kind=\"%s\">%n", WIDTH, height, WIDTH, height, esc(title), kind.id()));
        s.append(f("<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>%n", WIDTH, height));
        s.append(f("<text x=\"0\" y=\"15\" font-size=\"14\" font-weight=\"bold\">%s</text>%n", esc(title)));
        s.append(f("<text x=\"0\" y=\"32\" fill=\"#444\">%s</text>%n", esc("Ratio of the medians, log axis; "
                + (kind.higherIsBetter() ? "above" : "below") + " 1 = Spindle better. Whiskers: the range of "
                + "ratios the runs allow (min–max). Hover a bar for both rows.")));
        legend(s);
        bands(s, bars);
        grid(s, height);
        for (int i = 0; i < bars.size(); i++) {
            boolean first = i == 0 || !bars.get(i).group().equals(bars.get(i - 1).group());
            row(s, bars.get(i), first, TOP + i * ROW);
        }
        return s.append("</svg>\n").toString();
    }

    private static void legend(StringBuilder s) {
        int x = 0;
        for (String[] e : new String[][] {{BETTER, "Spindle better (whole range)"}, {NOISE, "within noise of 1"},
                {WORSE, "Spindle worse (whole range)"}}) {
            s.append(f("<rect x=\"%d\" y=\"42\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"51\">%s</text>%n", x, e[0], x + 14, esc(e[1])));
            x += 200;
        }
    }

    /** A light band behind every other group, so the bars of one line of the table read as one block. */
    private static void bands(StringBuilder s, List<Comparison> bars) {
        boolean shaded = false;
        for (int i = 0; i < bars.size(); i++) {
            if (i > 0 && !bars.get(i).group().equals(bars.get(i - 1).group())) shaded = !shaded;
            if (shaded) {
                s.append(f("<rect x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f1f3f6\"/>%n",
                        TOP + i * ROW - 4, WIDTH, ROW));
            }
        }
    }

    /** Vertical lines at the powers of 2 (and at 0.8 and 1.25 on the narrowest axis), the one at 1 darker. */
    private void grid(StringBuilder s, int height) {
        for (int e = -range; e <= range; e++) tick(s, Math.pow(2, e), e >= 0 ? Integer.toString(1 << e)
                : "1/" + (1 << -e), e == 0, height);
        if (range == 1) {
            tick(s, 0.8, "0.8", false, height);
            tick(s, 1.25, "1.25", false, height);
        }
    }

    private void tick(StringBuilder s, double r, String label, boolean one, int height) {
        double x = x(r);
        s.append(f("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/>%n", x, TOP - 10, x,
                height - 8, one ? "#333" : "#ddd"));
        s.append(f("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%s</text>%n", x, TOP - 14,
                label));
    }

    private void row(StringBuilder s, Comparison c, boolean firstOfGroup, int y) {
        int mid = y + BAR / 2;
        s.append(f("<g class=\"cmp\" data-pool=\"%s\" data-baseline=\"%s\" data-verdict=\"%s\">%n<title>%s</title>%n",
                esc(c.pool()), esc(c.baseline()), c.verdict().name().toLowerCase(Locale.ROOT), esc(c.tooltip())));
        if (firstOfGroup) {
            s.append(f("<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-weight=\"bold\">%s</text>%n",
                    GROUP_WIDTH - 8, y + 9, esc(c.group())));
        }
        s.append(f("<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#333\">%s</text>%n", PLOT_X - 8, y + 9,
                esc(c.pairLabel())));
        String ratio;
        if (c.drawable()) {
            double r = c.ratio();
            String color = switch (c.verdict()) {
                case BETTER -> BETTER;
                case WORSE -> WORSE;
                default -> NOISE;
            };
            double one = x(1);
            double end = x(r);
            s.append(f("<rect class=\"bar\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>%n",
                    Math.min(one, end), y, Math.max(1, Math.abs(end - one)), BAR, color));
            if (clipped(r)) arrow(s, r, y, color);
            if (c.hasSpread()) whisker(s, c.low(), c.high(), mid);
            ratio = label(r);
        } else {
            s.append(f("<text class=\"undefined\" x=\"%.1f\" y=\"%d\" fill=\"#666\" font-style=\"italic\">%s: no "
                    + "bar on a log axis</text>%n", x(1) + 4, y + 9, esc(c.undefinedReason())));
            ratio = c.undefinedReason();
        }
        s.append(f("<text class=\"value\" x=\"%d\" y=\"%d\"><tspan font-weight=\"bold\">%s</tspan>  %s</text>%n",
                PLOT_X + PLOT_WIDTH + 8, y + 9, esc(ratio), esc(c.absolute())));
        s.append("</g>\n");
    }

    /** A line from {@code low} to {@code high} with a cap at each end, or an open arrowhead where it leaves the axis. */
    private void whisker(StringBuilder s, double low, double high, int mid) {
        double lo = x(low);
        double hi = x(high);
        s.append(f("<line class=\"whisker\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#222\"/>%n", lo, mid,
                hi, mid));
        whiskerEnd(s, lo, clipped(low) ? -1 : 0, mid);
        whiskerEnd(s, hi, clipped(high) ? 1 : 0, mid);
    }

    /** @param dir 0 for a cap, -1 or 1 for an arrowhead pointing left or right, beyond the axis */
    private static void whiskerEnd(StringBuilder s, double x, int dir, int mid) {
        if (dir == 0) {
            s.append(f("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#222\"/>%n", x, mid - 3, x,
                    mid + 3));
        } else {
            s.append(f("<polyline class=\"beyond\" points=\"%.1f,%d %.1f,%d %.1f,%d\" fill=\"none\" "
                    + "stroke=\"#222\"/>%n", x - 4 * dir, mid - 3, x, mid, x - 4 * dir, mid + 3));
        }
    }

    /**
     * @return the ratio as the tables write it, but with two significant digits below 0.01: the table's "0.00" for
     *         0.0016 B ÷ 44.3 B read as a ratio of 0 (issue 31)
     */
    static String label(double r) {
        return r < 0.01 ? String.format(Locale.ROOT, "%.1e", r) : Fmt.ratio(Optional.of(r));
    }

    /** A small arrowhead at the axis' end for a bar that goes beyond it. */
    private void arrow(StringBuilder s, double r, int y, String color) {
        double dir = r > 1 ? 1 : -1;
        s.append(f("<path d=\"M%.1f %d l%.1f %d l%.1f %d z\" fill=\"%s\"/>%n", x(r), y - 1, 6 * dir, BAR / 2 + 1,
                -6 * dir, BAR / 2 + 1, color));
    }

    private boolean clipped(double r) {
        return Math.abs(log2(r)) > range;
    }

    /** @return the x position of ratio {@code r}, clipped to the axis */
    private double x(double r) {
        double l = Math.max(-range, Math.min(range, log2(r)));
        return PLOT_X + (l + range) / (2.0 * range) * PLOT_WIDTH;
    }

    private static double log2(double r) {
        return Math.log(r) / Math.log(2);
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    static String esc(String t) {
        return t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
