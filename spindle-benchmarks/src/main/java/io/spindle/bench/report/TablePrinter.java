package io.spindle.bench.report;

import java.util.ArrayList;
import java.util.List;

/**
 * The console table: rows = workload x metric x pool size, columns = pools (medians), then one Spindle/FJP ratio
 * column per Spindle pool. Plain ASCII so it survives any terminal encoding.
 */
public final class TablePrinter {
    private TablePrinter() {}

    public static String render(ResultTable t) {
        List<String> header = new ArrayList<>(List.of("workload", "metric", "thr"));
        header.addAll(t.pools());
        t.ratioPools().forEach(p -> header.add(ResultTable.shortName(p) + "/fjp"));
        List<List<String>> cells = new ArrayList<>();
        cells.add(header);
        String lastWorkload = null;
        for (ResultTable.Line l : t.lines()) {
            List<String> c = new ArrayList<>();
            c.add(l.workload().equals(lastWorkload) ? "" : l.workload());
            lastWorkload = l.workload();
            c.add(l.metric());
            c.add(Integer.toString(l.threads()));
            for (String p : t.pools()) c.add(l.row(p).map(r -> Fmt.num(r.median())).orElse("n/a"));
            for (String p : t.ratioPools()) c.add(Fmt.ratio(l.ratio(p)));
            cells.add(c);
        }
        return align(cells, 3);
    }

    /** Left-aligns the first {@code textColumns} columns, right-aligns the numbers, with a rule under the header. */
    private static String align(List<List<String>> cells, int textColumns) {
        int n = cells.get(0).size();
        int[] width = new int[n];
        for (List<String> row : cells) {
            for (int i = 0; i < n; i++) width[i] = Math.max(width[i], row.get(i).length());
        }
        StringBuilder b = new StringBuilder();
        for (int r = 0; r < cells.size(); r++) {
            List<String> row = cells.get(r);
            for (int i = 0; i < n; i++) {
                String s = row.get(i);
                String pad = " ".repeat(width[i] - s.length());
                b.append(i == 0 ? "" : "  ").append(i < textColumns ? s + pad : pad + s);
            }
            b.append('\n');
            if (r == 0) {
                for (int i = 0; i < n; i++) b.append(i == 0 ? "" : "  ").append("-".repeat(width[i]));
                b.append('\n');
            }
        }
        return b.toString().replaceAll(" +\n", "\n");
    }
}
