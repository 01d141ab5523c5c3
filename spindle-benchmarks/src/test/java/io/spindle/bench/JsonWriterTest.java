package io.spindle.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonWriterTest {
    private static final Results SAMPLE = new Results("17.0.15+6 (Debian)", "Linux 6.1 amd64", 2,
            "2025-01-02T03:04:05Z", List.of(
                    new Row("fib-naive", "spindle-jec", 2, "time_ms", 12.5, 11.0, 14.25, 5),
                    new Row("sparse", "spindle-jec", 8, "threads_woken_per_job", 1.0E-4, 0, 3, 5)));

    @Test
    void writesTheSpecSchemaExactly() {
        String json = JsonWriter.write(SAMPLE);
        assertTrue(json.startsWith("{\n  \"jdk\": \"17.0.15+6 (Debian)\",\n  \"os\": \"Linux 6.1 amd64\",\n"
                + "  \"cpus\": 2,\n  \"date\": \"2025-01-02T03:04:05Z\",\n  \"results\": ["), json);
        assertTrue(json.contains("{\"workload\": \"fib-naive\", \"pool\": \"spindle-jec\", \"threads\": 2, "
                + "\"metric\": \"time_ms\", \"median\": 12.5, \"min\": 11, \"max\": 14.25, \"runs\": 5}"), json);
    }

    @Test
    void readsBackWhatItWrote() {
        assertEquals(SAMPLE, JsonReader.readResults(JsonWriter.write(SAMPLE)));
    }

    @Test
    void emptyResultsAreAnEmptyArray() {
        Results empty = new Results("j", "o", 1, "d", List.of());
        String json = JsonWriter.write(empty);
        assertTrue(json.contains("\"results\": []"), json);
        assertEquals(empty, JsonReader.readResults(json));
    }

    @Test
    void escapesStrings() {
        assertEquals("\"a\\\"b\\\\c\\nd\\u0001\"", JsonWriter.string("a\"b\\c\nd\u0001"));
        Results odd = new Results("quote \" backslash \\ tab \t", "o", 1, "d", List.of());
        assertEquals(odd, JsonReader.readResults(JsonWriter.write(odd)));
    }

    @Test
    void nonFiniteNumbersBecomeNull() {
        assertEquals("null", JsonWriter.number(Double.NaN));
        assertEquals("null", JsonWriter.number(Double.POSITIVE_INFINITY));
        assertEquals("3", JsonWriter.number(3.0));
        assertEquals("0.1", JsonWriter.number(0.1));
    }

    @Test
    void readerRejectsBrokenJson() {
        assertThrows(IllegalArgumentException.class, () -> JsonReader.readResults("{\"jdk\": \"x\""));
        assertThrows(IllegalArgumentException.class, () -> JsonReader.readResults("[]"));
    }
}
