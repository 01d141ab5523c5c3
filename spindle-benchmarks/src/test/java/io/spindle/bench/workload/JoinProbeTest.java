package io.spindle.bench.workload;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** JoinProbe's option parsing only: the probe itself is a manual measurement, never run by the tests. */
class JoinProbeTest {
    @Test
    void defaultsAndValues() {
        JoinProbe.Options d = JoinProbe.Options.parse();
        assertEquals(new JoinProbe.Options(JoinProbe.FORMS, 30, 22, 15, 3.0, 20, false), d);
        JoinProbe.Options o = JoinProbe.Options.parse("forms=tree-pair,fib-pair,tree-pair", "fib=20", "tree=14",
                "rounds=3", "warmup-s=0.5", "rest-ms=0", "pools=spindle-1");
        assertEquals(new JoinProbe.Options(List.of("tree-pair", "fib-pair"), 20, 14, 3, 0.5, 0, true), o);
        assertEquals(false, JoinProbe.Options.parse("pools=spindle-1", "pools=all").onePool());
    }

    @Test
    void badValuesAreNamed() {
        String[][] bad = {{"fib=x", "'x'"}, {"fib=1", "'1'"}, {"tree=28", "'28'"}, {"rounds=0", "'0'"},
                {"warmup-s=-1", "'-1'"}, {"warmup-s=NaN", "'NaN'"}, {"rest-ms=", "''"}, {"forms=fib", "'fib'"},
                {"forms=", "''"}, {"forms=fib-pair,", "''"}, {"runs=3", "'runs'"}, {"fib", "'fib'"},
                {"pools=fjp", "'fjp'"}, {"pools=", "''"}};
        for (String[] b : bad) {
            var e = assertThrows(IllegalArgumentException.class, () -> JoinProbe.Options.parse(b[0]), b[0]);
            assertTrue(e.getMessage().contains(b[1]), b[0] + ": " + e.getMessage());
        }
    }
}
