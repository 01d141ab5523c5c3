package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * E6 (registry package-info; issue 28, item 2): the pool's completion and wake-up paths hold their error-safety rules
 * the first time they run, even with the heap full, because the first pool built in a JVM links them. Per strategy and
 * per case, {@link FirstUseChild} runs in a fresh child JVM with a 64 MiB heap and no warm-up: an install from outside
 * whose op fills the heap, a join whose stolen half fills it while its owner sleeps on the join's latch, and a scope
 * from outside that spawns until a spawn throws, and a scope whose one queued task its end takes back (the deque's
 * last-element pop) with the heap full; the heap is released only after each operation returned. Each must
 * return or throw its OutOfMemoryError, its pool must then still run a job, and {@code close()} must return. Without
 * E6, each case hung on each strategy (JDK 17 and 25): a count latch's decrement, a caller's latch set, a worker's
 * wake-up (HINT_PIPE: the selector's wake-up, a native method's first call) each linked, and failed, on its first
 * execution. A hang turns into a failure, with the child's threads, after {@link #CHILD_TIMEOUT_S} s; a passing
 * child takes about two seconds.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FirstUseUnderFullHeapTest {
    /**
     * How long a child may run: far beyond a passing child's time, so that it only turns a hang into a failure.
     * {@code -Dspindle.firstUse.childTimeoutS} overrides it (to see the failures without E6 sooner).
     */
    private static final long CHILD_TIMEOUT_S = Long.getLong("spindle.firstUse.childTimeoutS", 60);

    /**
     * How many children a case may start while each comes back inconclusive (the join case's steal or sleep did not
     * happen in time, which a loaded machine can cause): an inconclusive child tested nothing, so it neither passes
     * nor fails the case.
     */
    private static final int MAX_CHILDREN = 3;

    /**
     * Every strategy with every case, or with those named in {@code -Dspindle.firstUse.cases} (comma-separated): the
     * pom's join-mode executions run only {@code join}, the one case a join mode changes.
     */
    static Stream<Arguments> strategiesAndCases() {
        String only = System.getProperty("spindle.firstUse.cases", "");
        List<String> cases = only.isBlank() ? FirstUseChild.CASES : List.of(only.trim().split("\\s*,\\s*"));
        return Stream.of(SleepStrategy.values()).flatMap(s -> cases.stream().map(c -> Arguments.of(s, c)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("strategiesAndCases")
    void firstUseWithTheHeapFullEnds(SleepStrategy strategy, String useCase) {
        List<String> command = ChildJvm.java("-Xmx64m");
        for (String property : new String[] {"spindle.joinStrategy", "spindle.heartbeatMicros"}) {
            String value = System.getProperty(property); // the pom's extra executions: the child runs them too
            if (value != null) {
                command.add("-D" + property + "=" + value);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(FirstUseChild.class.getName());
        command.add(strategy.name());
        command.add(useCase); // one case per JVM: an earlier case would link some of this one's paths
        ChildJvm.Result child = ChildJvm.run(command, CHILD_TIMEOUT_S).assertExited();
        for (int run = 2; run <= MAX_CHILDREN && child.exitValue() == FirstUseChild.EXIT_INCONCLUSIVE; run++) {
            System.out.println("[FirstUseUnderFullHeapTest] " + strategy + " " + useCase + ": inconclusive, child "
                    + run + " of at most " + MAX_CHILDREN + "\n" + child.output());
            child = ChildJvm.run(command, CHILD_TIMEOUT_S).assertExited();
        }
        assertEquals(0, child.exitValue(), strategy + " " + useCase + ": a first use with the heap full failed"
                + (child.exitValue() == FirstUseChild.EXIT_INCONCLUSIVE ? " to test anything " + MAX_CHILDREN
                        + " times (inconclusive)" : "") + "\n" + child.report());
        assertTrue(child.output().contains(FirstUseChild.OK_LINE), "the child did not finish: " + child.report());
    }
}
