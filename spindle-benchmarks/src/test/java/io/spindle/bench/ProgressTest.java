package io.spindle.bench;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProgressTest {
    /** A clock that moves only when told: one second per run below, so every run takes as long as every other. */
    private long now;

    /** Drives a run of 12 workloads, 5 pools, 2 warm-up rounds and 3 runs, as Bench and Runner call Progress. */
    private String outputOfARun(boolean terminal) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Progress p = new Progress(12, new PrintStream(bytes, true, StandardCharsets.UTF_8), terminal, () -> now);
        String[] pools = {"spindle-jec", "spindle-sleepy", "spindle-hint", "fjp", "sequential"};
        for (int w = 1; w <= 12; w++) {
            for (int round = 1; round <= 2; round++) {
                for (String pool : pools) {
                    p.show(w, "w" + w, pool, true, round, 2);
                    now += 1_000_000_000L;
                }
            }
            for (int run = 1; run <= 3; run++) {
                for (String pool : pools) {
                    p.show(w, "w" + w, pool, false, run, 3);
                    now += 1_000_000_000L;
                }
            }
            p.done(w, "w" + w, 25);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private List<String> logOfARun(boolean terminal) {
        return outputOfARun(terminal).lines().toList();
    }

    @Test
    void aLogGetsALinePerWorkloadAndOneEveryFivePerCentNotOnePerRun() {
        List<String> log = logOfARun(false);
        long runLines = log.stream().filter(l -> l.contains(" of ")).count();
        assertEquals(12, log.stream().filter(l -> l.contains("done in")).count(), String.join("\n", log));
        // 300 show calls; at most one per 5 % step that no workload's end already reported
        assertTrue(runLines <= 20 && runLines > 0, String.join("\n", log));
        assertTrue(log.stream().allMatch(l -> l.contains("elapsed")), String.join("\n", log));
    }

    @Test
    void theEstimateOfTheTimeLeftExtrapolatesTheTimeSoFar() {
        List<String> log = logOfARun(false);
        // after 6 of 12 workloads, 150 s of runs: as much again to go
        assertTrue(log.contains("[ 6/12] w6              done in 25.0 s  50%, 2:30 elapsed, about 2:30 left"),
                String.join("\n", log));
        assertTrue(log.get(log.size() - 1).endsWith("100%, 5:00 elapsed"), log.get(log.size() - 1));
    }

    @Test
    void aTerminalGetsEveryRunRewrittenInPlace() {
        String out = outputOfARun(true);
        // a carriage return before each of the 300 runs and one to clear the line before each "done"; a newline
        // only after each "done"
        assertEquals(12, out.chars().filter(c -> c == '\n').count(), out);
        assertEquals(312, out.chars().filter(c -> c == '\r').count(), out);
    }
}
