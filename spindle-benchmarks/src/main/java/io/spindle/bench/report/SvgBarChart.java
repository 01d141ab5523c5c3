package io.spindle.bench.report;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A horizontal bar chart of ratios as inline SVG, drawn by hand (no charting library to ship): one bar per line of
 * the result table (workload x metric x pool size), from 1 to the ratio on a log scale, so 0.5 and 2 are equally far
 * from 1. Green bars (below 1) are Spindle wins, red ones losses; ratios beyond the axis are clipped at its end and
 * marked, the label keeps the true value.
 */
public final class SvgBarChart {
    /** One bar, labelled "group · name"; bars of one group share a background band. */
    public record Bar(String group, String name, double ratio) {
        String label() {
            return group + " · " + name;
        }
    }

    private static final int LOG2_RANGE = 4; // axis from 1/16 to 16
    private static final int LABEL_WIDTH = 270;
    private static final int PLOT_WIDTH = 640;
    private static final int VALUE_WIDTH = 80;
    private static final int ROW = 22;
    private static final int TOP = 48;

    private SvgBarChart() {}

    public static String render(String title, List<Bar> bars) {
        int width = LABEL_WIDTH + PLOT_WIDTH + VALUE_WIDTH + 20;
        int height = TOP + bars.size() * ROW + 16;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\" "
                + "aria-label=\"%s\">%n", width, height, width, height, esc(title)));
        s.append(String.format(Locale.ROOT, "<text x=\"0\" y=\"16\" font-size=\"14\" font-weight=\"bold\">%s</text>%n",
                esc(title)));
        bands(s, bars, width);
        grid(s, height);
        for (int i = 0; i < bars.size(); i++) bar(s, bars.get(i), TOP + i * ROW);
        return s.append("</svg>\n").toString();
    }

    /** A light band behind every other group, so the rows of one workload read as one block. */
    private static void bands(StringBuilder s, List<Bar> bars, int width) {
        boolean shaded = false;
        for (int i = 0; i < bars.size(); i++) {
            if (i > 0 && !bars.get(i).group().equals(bars.get(i - 1).group())) shaded = !shaded;
            if (shaded) {
                s.append(String.format(Locale.ROOT, "<rect x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\" "
                        + "fill=\"#f3f5f8\"/>%n", TOP + i * ROW - 4, width, ROW));
            }
        }
    }

    /** Vertical lines at 1/16 .. 16 with their labels; the line at 1 is darker. */
    private static void grid(StringBuilder s, int height) {
        for (int e = -LOG2_RANGE; e <= LOG2_RANGE; e++) {
            double x = x(Math.pow(2, e));
            String label = e >= 0 ? Integer.toString(1 << e) : "1/" + (1 << -e);
            s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/>%n",
                    x, TOP - 8, x, height - 12, e == 0 ? "#333" : "#ddd"));
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">"
                    + "%s</text>%n", x, TOP - 12, label));
        }
    }

    private static void bar(StringBuilder s, Bar b, int y) {
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
                LABEL_WIDTH - 8, y + 11, esc(b.label())));
        double valueX = LABEL_WIDTH + PLOT_WIDTH + VALUE_WIDTH - 4;
        double r = b.ratio();
        if (Double.isNaN(r) || r <= 0) {
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" fill=\"#888\">n/a"
                    + "</text>%n", valueX, y + 11));
            return;
        }
        double one = x(1);
        double end = x(r);
        String color = r <= 1 ? "#2e7d32" : "#c62828";
        s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"14\" fill=\"%s\">"
                + "<title>%s: %s</title></rect>%n", Math.min(one, end), y, Math.max(1, Math.abs(end - one)), color,
                esc(b.label()), Fmt.ratio(Optional.of(r))));
        if (clipped(r)) { // a small arrowhead at the clipped end
            double dir = r > 1 ? 1 : -1;
            s.append(String.format(Locale.ROOT, "<path d=\"M%.1f %d l%.1f 7 l%.1f 7 z\" fill=\"%s\"/>%n",
                    end, y, 6 * dir, -6 * dir, color));
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" fill=\"%s\">%s</text>%n",
                valueX, y + 11, color, Fmt.ratio(Optional.of(r))));
    }

    private static boolean clipped(double r) {
        return Math.abs(Math.log(r) / Math.log(2)) > LOG2_RANGE;
    }

    /** The x position of ratio {@code r}, clipped to the axis. */
    private static double x(double r) {
        double l = Math.log(r) / Math.log(2);
        l = Math.max(-LOG2_RANGE, Math.min(LOG2_RANGE, l));
        return LABEL_WIDTH + (l + LOG2_RANGE) / (2.0 * LOG2_RANGE) * PLOT_WIDTH;
    }

    static String esc(String t) {
        return t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
