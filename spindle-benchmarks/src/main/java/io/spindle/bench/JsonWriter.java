package io.spindle.bench;

import java.util.Iterator;

/**
 * Writes {@link Results} as results.json in the exact schema of docs/DESIGN.md §4.4, by hand (no dependency for a dozen
 * lines): one object with "jdk", "os", "cpus", "date", "results"; one row object per line so the file diffs well.
 */
public final class JsonWriter {
    private JsonWriter() {}

    public static String write(Results r) {
        StringBuilder b = new StringBuilder();
        b.append("{\n");
        b.append("  \"jdk\": ").append(string(r.jdk())).append(",\n");
        b.append("  \"os\": ").append(string(r.os())).append(",\n");
        b.append("  \"cpus\": ").append(r.cpus()).append(",\n");
        b.append("  \"date\": ").append(string(r.date())).append(",\n");
        b.append("  \"results\": [");
        Iterator<Row> it = r.results().iterator();
        while (it.hasNext()) {
            Row row = it.next();
            b.append("\n    {\"workload\": ").append(string(row.workload()))
                    .append(", \"pool\": ").append(string(row.pool()))
                    .append(", \"threads\": ").append(row.threads())
                    .append(", \"metric\": ").append(string(row.metric()))
                    .append(", \"median\": ").append(number(row.median()))
                    .append(", \"min\": ").append(number(row.min()))
                    .append(", \"max\": ").append(number(row.max()))
                    .append(", \"runs\": ").append(row.runs())
                    .append('}');
            if (it.hasNext()) b.append(',');
        }
        b.append(r.results().isEmpty() ? "]\n" : "\n  ]\n");
        b.append("}\n");
        return b.toString();
    }

    /** A JSON number; JSON has no NaN or infinity, so those become null. */
    static String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) return "null";
        if (d == Math.rint(d) && Math.abs(d) < 1e15) return Long.toString((long) d);
        return Double.toString(d); // shortest form that reads back to the same double; "1.0E-4" is valid JSON
    }

    /** A JSON string literal with the escapes RFC 8259 requires. */
    static String string(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }
}
