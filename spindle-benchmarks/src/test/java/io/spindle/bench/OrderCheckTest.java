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
