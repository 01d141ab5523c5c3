package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Errors in the middle of the pool's bookkeeping (docs/DESIGN.md §1.2 and §2.6: errors are rethrown as they are, the
 * workers and the pool carry on; issue 11 §2): each case runs {@link ErrorSafetyChild} in a child JVM, the same java
 * binary as this one, with this JVM's test class path, which drives an {@code OutOfMemoryError} (in a 64 MiB heap) or a
 * {@code StackOverflowError} (on small worker stacks) through spawn, scope, join, install or the sleep path, and then
 * checks that the caller got the error, that no accepted task was lost, that the pool still runs work on every worker,
 * that the sleep counters return to rest and that {@code close()} returns. The child bounds every wait itself; if it
 * still runs after {@link #CHILD_TIMEOUT_S} s, {@link ChildJvm} dumps its threads into the failure message and kills
 * it.
 *
 * <p>{@code -Dspindle.errorSafety.rounds=N} overrides the child's rounds (default: 4 per OOM scenario, alternately
 * holding the exhausted heap after the error and dropping it at once; 2 for {@code sleep-path-oom}; 20 for
 * {@code join-soe}). {@code -Dspindle.errorSafety.scenarios=a,b} runs only the scenarios named.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ErrorSafetyTest {
    /** How long a child may run; {@code -Dspindle.errorSafety.childTimeoutS} overrides it (to try the dump path). */
    private static final long CHILD_TIMEOUT_S = Long.getLong("spindle.errorSafety.childTimeoutS", 90);

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String scenario : scenarios()) {
            for (SleepStrategy s : TestPools.IMPLEMENTED) {
                out.add(Arguments.of(scenario, s));
            }
        }
        return out.stream();
    }

    /**
     * Every scenario, or those {@code -Dspindle.errorSafety.scenarios=a,b} names (the pom's join-mode executions run the
     * join scenarios only: the mode changes nothing else the child does). A name that is not a scenario fails the run.
     */
    private static List<String> scenarios() {
        String chosen = System.getProperty("spindle.errorSafety.scenarios");
        if (chosen == null || chosen.isBlank()) {
            return ErrorSafetyChild.SCENARIOS;
        }
        List<String> out = new ArrayList<>();
        for (String name : chosen.split(",")) {
            String scenario = name.trim();
            if (!ErrorSafetyChild.SCENARIOS.contains(scenario)) {
                throw new IllegalArgumentException("spindle.errorSafety.scenarios names '" + scenario
                        + "', which is not one of " + ErrorSafetyChild.SCENARIOS);
            }
            out.add(scenario);
        }
        return out;
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("cases")
    void poolSurvivesTheError(String scenario, SleepStrategy strategy) {
        List<String> command = ChildJvm.java();
        if (scenario.equals("join-soe")) {
            command.add("-Xmx256m"); // the pool's workers get small stacks (ErrorSafetyChild.SOE_STACK_BYTES)
        } else {
            command.add("-Xmx64m");
        }
        for (String property : new String[] {"spindle.joinStrategy", "spindle.heartbeatMicros"}) {
            String value = System.getProperty(property); // the pom's extra executions: the child runs them too
            if (value != null) {
                command.add("-D" + property + "=" + value);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(ErrorSafetyChild.class.getName());
        command.add(scenario);
        command.add(strategy.name());
        String rounds = System.getProperty("spindle.errorSafety.rounds");
        if (rounds != null && !rounds.isBlank()) {
            command.add(rounds.trim());
        }
        ChildJvm.Result child = ChildJvm.run(command, CHILD_TIMEOUT_S).assertExited();
        assertEquals(0, child.exitValue(), scenario + " on " + strategy + ": the pool did not survive the error\n"
                + child.report());
        assertTrue(child.output().contains(ErrorSafetyChild.OK_LINE), "the child did not finish: " + child.report());
    }
}
