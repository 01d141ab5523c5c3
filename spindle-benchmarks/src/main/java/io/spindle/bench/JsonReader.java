package io.spindle.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads results.json back into {@link Results}: the order check reads what its second JVM wrote. A small
 * recursive-descent parser of RFC 8259 JSON (objects, arrays, strings, numbers, true/false/null).
 */
public final class JsonReader {
    private final String s;
    private int pos;

    private JsonReader(String s) {
        this.s = s;
    }

    /** @throws IllegalArgumentException if {@code json} is not JSON in the results.json schema */
    public static Results readResults(String json) {
        Object root = new JsonReader(json).document();
        Map<?, ?> o = as(Map.class, root, "the top level");
        List<Row> rows = new ArrayList<>();
        for (Object item : as(List.class, o.get("results"), "results")) {
            Map<?, ?> r = as(Map.class, item, "a result row");
            rows.add(new Row(str(r, "workload"), str(r, "pool"), (int) num(r, "threads"), str(r, "metric"),
                    num(r, "median"), num(r, "min"), num(r, "max"), (int) num(r, "runs")));
        }
        return new Results(str(o, "jdk"), str(o, "os"), (int) num(o, "cpus"), str(o, "date"), rows);
    }

    private static <T> T as(Class<T> type, Object v, String what) {
        if (!type.isInstance(v)) throw new IllegalArgumentException(what + " is not a JSON " + type.getSimpleName());
        return type.cast(v);
    }

    private static String str(Map<?, ?> o, String key) {
        return as(String.class, o.get(key), "\"" + key + "\"");
    }

    private static double num(Map<?, ?> o, String key) {
        Object v = o.get(key);
        return v == null && o.containsKey(key) ? Double.NaN : as(Double.class, v, "\"" + key + "\"");
    }

    private Object document() {
        Object v = value();
        skipSpace();
        if (pos != s.length()) throw error("trailing characters");
        return v;
    }

    private Object value() {
        skipSpace();
        if (pos >= s.length()) throw error("unexpected end");
        char c = s.charAt(pos);
        switch (c) {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                return number();
        }
    }

    private Map<String, Object> object() {
        Map<String, Object> m = new LinkedHashMap<>();
        pos++; // {
        skipSpace();
        if (accept('}')) return m;
        do {
            skipSpace();
            String key = string();
            skipSpace();
            expect(':');
            m.put(key, value());
            skipSpace();
        } while (accept(','));
        expect('}');
        return m;
    }

    private List<Object> array() {
        List<Object> a = new ArrayList<>();
        pos++; // [
        skipSpace();
        if (accept(']')) return a;
        do {
            a.add(value());
            skipSpace();
        } while (accept(','));
        expect(']');
        return a;
    }

    private String string() {
        expect('"');
        StringBuilder b = new StringBuilder();
        while (pos < s.length()) {
            char c = s.charAt(pos++);
            if (c == '"') return b.toString();
            if (c != '\\') {
                b.append(c);
                continue;
            }
            if (pos >= s.length()) break;
            char e = s.charAt(pos++);
            switch (e) {
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'u' -> {
                    if (pos + 4 > s.length()) throw error("short \\u escape");
                    b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                    pos += 4;
                }
                default -> b.append(e); // \" \\ \/
            }
        }
        throw error("unterminated string");
    }

    private Double number() {
        int start = pos;
        while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) pos++;
        try {
            return Double.valueOf(s.substring(start, pos));
        } catch (NumberFormatException e) {
            throw error("not a value");
        }
    }

    private Object literal(String word, Object v) {
        if (!s.startsWith(word, pos)) throw error("not a value");
        pos += word.length();
        return v;
    }

    private void skipSpace() {
        while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) pos++;
    }

    /** Consumes {@code c} if it is next. */
    private boolean accept(char c) {
        if (pos < s.length() && s.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!accept(c)) throw error("expected '" + c + "'");
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("bad JSON at offset " + pos + ": " + what);
    }
}
