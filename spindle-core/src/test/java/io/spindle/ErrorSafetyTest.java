package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Errors in the middle of the pool's bookkeeping (SPEC §1: errors are rethrown as they are, the workers and the pool
 * carry on; issue 11 §2): each case runs {@link ErrorSafetyChild} in a child JVM, the same java binary as this one,
 * with this JVM's test class path, which drives an {@code OutOfMemoryError} (in a 64 MiB heap) or a
 * {@code StackOverflowError} (on small worker stacks) through spawn, scope, join, install or the sleep path, and then
 * checks that the caller got the error, that no accepted task was lost, that the pool still runs work on every worker,
 * that the sleep counters return to rest and that {@code close()} returns. The child bounds every wait itself; if it
 * still runs after {@link #CHILD_TIMEOUT_S} s, its threads are dumped with {@code jcmd} (or {@code jstack}) into the
 * failure message before it is killed.
 *
 * <p>{@code -Dspindle.errorSafety.rounds=N} overrides the child's rounds (default: 4 per OOM scenario, alternately
 * holding the exhausted heap after the error and dropping it at once; 2 for {@code sleep-path-oom}; 20 for
 * {@code join-soe}).
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ErrorSafetyTest {
    /** How long a child may run; {@code -Dspindle.errorSafety.childTimeoutS} overrides it (to try the dump path). */
    private static final long CHILD_TIMEOUT_S = Long.getLong("spindle.errorSafety.childTimeoutS", 90);

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String scenario : ErrorSafetyChild.SCENARIOS) {
            for (SleepStrategy s : TestPools.IMPLEMENTED) {
                out.add(Arguments.of(scenario, s));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("cases")
    void poolSurvivesTheError(String scenario, SleepStrategy strategy) {
        List<String> command = new ArrayList<>();
        Path javaHome = Path.of(System.getProperty("java.home"));
        command.add(javaHome.resolve("bin").resolve("java").toString());
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
        String described = String.join(" ", command.subList(0, 2)) + " -cp <test class path> "
                + String.join(" ", command.subList(command.indexOf("-cp") + 2, command.size()));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getOutputStream().close();
            FutureTask<String> output = new FutureTask<>(() -> readAll(p.getInputStream()));
            Thread reader = new Thread(output, "error-safety-output"); // drains the pipe: the child never blocks
            reader.setDaemon(true);
            reader.start();
            boolean exited = p.waitFor(CHILD_TIMEOUT_S, TimeUnit.SECONDS);
            String dump = "";
            if (!exited) {
                dump = threadDump(javaHome, p.pid());
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            String text;
            try {
                text = output.get(10, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                text = "(output not read: " + e + ")";
            }
            String report = described + "\n--- child output ---\n" + text + "--- end of child output ---";
            assertTrue(exited, "HANG: the child JVM did not exit within " + CHILD_TIMEOUT_S + " s; its threads:\n"
                    + dump + "\n" + report);
            assertEquals(0, p.exitValue(), scenario + " on " + strategy + ": the pool did not survive the error\n"
                    + report);
            assertTrue(text.contains(ErrorSafetyChild.OK_LINE), "the child did not finish: " + report);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The child's threads, by {@code jcmd <pid> Thread.print}, else {@code jstack <pid>}. */
    private static String threadDump(Path javaHome, long pid) {
        StringBuilder tried = new StringBuilder();
        for (List<String> tool : List.of(List.of("jcmd", String.valueOf(pid), "Thread.print"),
                List.of("jstack", String.valueOf(pid)))) {
            Path exe = javaHome.resolve("bin").resolve(tool.get(0));
            if (!Files.isExecutable(exe)) {
                tried.append(exe).append(": not found\n");
                continue;
            }
            List<String> cmd = new ArrayList<>(tool);
            cmd.set(0, exe.toString());
            try {
                Process d = new ProcessBuilder(cmd).redirectErrorStream(true).start();
                d.getOutputStream().close();
                FutureTask<String> out = new FutureTask<>(() -> readAll(d.getInputStream()));
                Thread reader = new Thread(out, "error-safety-dump");
                reader.setDaemon(true);
                reader.start();
                if (!d.waitFor(30, TimeUnit.SECONDS)) {
                    d.destroyForcibly();
                    tried.append(String.join(" ", cmd)).append(": no answer within 30 s\n");
                    continue;
                }
                String text = out.get(10, TimeUnit.SECONDS);
                if (d.exitValue() == 0) {
                    return text;
                }
                tried.append(String.join(" ", cmd)).append(": exit ").append(d.exitValue()).append('\n')
                        .append(text).append('\n');
            } catch (IOException | ExecutionException | TimeoutException e) {
                tried.append(String.join(" ", cmd)).append(": ").append(e).append('\n');
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                tried.append("interrupted\n");
                break;
            }
        }
        return "(no thread dump)\n" + tried;
    }

    private static String readAll(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(output unreadable: " + e + ")";
        }
    }
}
