package io.spindle.bench;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class OrderCheckTest {
    private static Results results(double spindle, double fjp) {
        return new Results("j", "o", 2, "d", List.of(
                new Row("fib-naive", "spindle-jec", 2, "time_ms", spindle, spindle * 0.9, spindle * 1.1, 3),
                new Row("fib-naive", "fjp", 2, "time_ms", fjp, fjp * 0.9, fjp * 1.1, 3),
                new Row("fib-naive", "sequential", 1, "time_ms", 50, 50, 50, 3)));
    }

    private static Results lightLoad(double spindleAt2, double spindleAt8) {
        return new Results("j", "o", 2, "d", List.of(
                new Row("noop-1ms", "spindle-jec", 2, "cpu_percent", spindleAt2, spindleAt2, spindleAt2, 3),
                new Row("noop-1ms", "fjp", 2, "cpu_percent", 1, 1, 1, 3),
                new Row("noop-1ms", "spindle-jec", 8, "cpu_percent", spindleAt8, spindleAt8, spindleAt8, 3),
                new Row("noop-1ms", "fjp", 8, "cpu_percent", 10, 10, 10, 3)));
    }

    @Test
    void comparesEachPoolSizeWithItself() {
        List<String> order = List.of("spindle-jec", "fjp");
        OrderCheck.Outcome o = OrderCheck.compare(lightLoad(2, 5), lightLoad(3, 4), order,
                List.of("fjp", "spindle-jec"), Path.of("x"));
        assertEquals(List.of("2: 2.0 -> 3.0", "8: 0.5 -> 0.4"), o.shifts().stream()
                .map(s -> s.threads() + ": " + s.forward() + " -> " + s.reversed()).toList());
    }

    @Test
    void comparesTheRatiosOfBothOrders() {
        List<String> order = List.of("spindle-jec", "fjp", "sequential");
        OrderCheck.Outcome o = OrderCheck.compare(results(60, 100), results(66, 100), order,
                List.of("sequential", "fjp", "spindle-jec"), Path.of("x"));
        assertEquals(1, o.shifts().size());
        OrderCheck.Shift s = o.shifts().get(0);
        assertEquals(0.6, s.forward(), 1e-12);
        assertEquals(0.66, s.reversed(), 1e-12);
        assertEquals(0.1, s.change(), 1e-12);
        assertEquals(1.1 / 0.9 - 1, o.spread(), 1e-12);
    }
}
