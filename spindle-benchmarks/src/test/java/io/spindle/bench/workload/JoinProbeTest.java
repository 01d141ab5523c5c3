package io.spindle.bench.workload;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * JoinProbe's option parsing, and one tiny run of each pool mode that checks its output's shape: the probe's numbers
 * are a manual measurement, never checked by the tests.
 */
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

    @Test
    void aTinyRunOfEachModePrintsItsSummary() throws Exception {
        String all = run("forms=fib-pair,tree-function", "fib=8", "tree=6", "rounds=1", "warmup-s=0", "rest-ms=0");
        assertTrue(all.contains("pools=all"), all);
        assertTrue(all.contains("| fjp-2 ms |"), all);
        String one = run("forms=fib-pair,tree-function", "fib=8", "tree=6", "rounds=1", "warmup-s=0", "rest-ms=0",
                "pools=spindle-1");
        assertTrue(one.contains("pools=spindle-1"), one);
        assertTrue(one.contains("| spindle-1 ms |"), one);
        assertFalse(one.contains("fjp-2 ms") || one.contains("spindle-2 ms"), one);
        assertTrue(one.lines().anyMatch(l -> l.startsWith("| tree-function |") && l.contains("| - | - | - |")), one);
    }

    private static String run(String... args) throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        java.io.PrintStream out = System.out;
        System.setOut(new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            JoinProbe.main(args);
        } finally {
            System.setOut(out);
        }
        return bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
    }
}
