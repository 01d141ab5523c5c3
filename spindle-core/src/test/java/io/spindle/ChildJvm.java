package io.spindle;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tests' child JVMs (failure injection needs a heap or a stack of its own): runs one with a bound on its time, so a
 * child that hangs fails its test with the child's threads in the message instead of hanging the build. A reader
 * thread drains the child's output as it comes (a child never blocks on a full pipe) and keeps at most its first and
 * last {@link #KEPT_BYTES} bytes (a child that loops printing stack traces cannot exhaust this JVM's heap). The thread
 * dump comes from {@code jcmd <pid> Thread.print}, else {@code jstack <pid>}.
 *
 * <p>A blocking {@code readAllBytes()} before {@code waitFor(timeout)} bounds nothing: the read returns only when the
 * child exits, and JUnit's same-thread timeout cannot interrupt it. A CI run ran out of its 5400 s inside such a wait.
 */
public final class ChildJvm {
    /** Bytes of output kept from each end of a child's output. */
    static final int KEPT_BYTES = 2 << 20;

    private ChildJvm() {
    }

    /** What a child did: whether it exited in time, how, what it printed and, if it had to be killed, its threads. */
    public record Result(List<String> command, boolean exited, int exitValue, String output, String threadDump) {
        /** The command, the output and any thread dump, for a failure message. */
        public String report() {
            List<String> shown = new ArrayList<>(command);
            for (int i = 1; i < shown.size(); i++) {
                if (shown.get(i - 1).startsWith("-") && shown.get(i).length() > 200) {
                    shown.set(i, "<" + shown.get(i).length() + " characters: a path>"); // a class or module path
                }
            }
            return String.join(" ", shown) + "\n--- child output ---\n" + output + "--- end of child output ---"
                    + (threadDump.isEmpty() ? "" : "\n--- its threads before it was killed ---\n" + threadDump);
        }

        /** Fails unless the child exited in time; returns this. */
        public Result assertExited() {
            assertTrue(exited, () -> "HANG: the child JVM did not exit in time\n" + report());
            return this;
        }

        /**
         * The key=value pairs of the last line that starts with {@code RESULT }; fails if the child did not exit in
         * time or printed no such line.
         */
        public Map<String, String> resultLine() {
            assertExited();
            String line = output.lines().filter(l -> l.startsWith("RESULT ")).reduce((a, b) -> b).orElse(null);
            assertNotNull(line, () -> "no RESULT line\n" + report());
            Map<String, String> r = new HashMap<>();
            for (String kv : line.substring("RESULT ".length()).split(" ")) {
                int eq = kv.indexOf('=');
                r.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
            return r;
        }
    }

    /** This JVM's java binary followed by {@code jvmArgs}: the start of a child's command. */
    public static List<String> java(String... jvmArgs) {
        List<String> command = new ArrayList<>();
        command.add(javaHome().resolve("bin").resolve("java").toString());
        command.addAll(Arrays.asList(jvmArgs));
        return command;
    }

    /**
     * Runs {@code command}, waiting at most {@code timeoutSeconds} for it to exit; a child still running then is
     * dumped and killed, and the result says it did not exit.
     */
    public static Result run(List<String> command, long timeoutSeconds) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getOutputStream().close();
            FutureTask<String> output = drain(p.getInputStream(), "child-jvm-output");
            boolean exited = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            String dump = "";
            if (!exited) {
                dump = threadDump(p.pid());
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            String text;
            try {
                text = output.get(10, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                text = "(output not read: " + e + ")\n";
            }
            return new Result(List.copyOf(command), exited, exited ? p.exitValue() : -1, text, dump);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + command, e);
        }
    }

    private static Path javaHome() {
        return Path.of(System.getProperty("java.home"));
    }

    private static FutureTask<String> drain(InputStream in, String threadName) {
        FutureTask<String> output = new FutureTask<>(() -> readBounded(in));
        Thread reader = new Thread(output, threadName);
        reader.setDaemon(true); // a child that never closes its output must not keep this JVM alive
        reader.start();
        return output;
    }

    /** The stream's first and last {@link #KEPT_BYTES} bytes, and how many were left out between them. */
    private static String readBounded(InputStream in) {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        byte[] tail = new byte[KEPT_BYTES]; // a ring once the head is full
        long tailWritten = 0;
        byte[] buf = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buf)) > 0) {
                int off = 0;
                if (head.size() < KEPT_BYTES) {
                    int h = Math.min(n, KEPT_BYTES - head.size());
                    head.write(buf, 0, h);
                    off = h;
                }
                for (int i = off; i < n; i++) {
                    tail[(int) (tailWritten++ % KEPT_BYTES)] = buf[i];
                }
            }
        } catch (IOException e) {
            return head.toString(StandardCharsets.UTF_8) + "(output unreadable: " + e + ")\n";
        }
        if (tailWritten == 0) {
            return head.toString(StandardCharsets.UTF_8);
        }
        int kept = (int) Math.min(tailWritten, KEPT_BYTES);
        byte[] last = new byte[kept];
        for (int i = 0; i < kept; i++) {
            last[i] = tail[(int) ((tailWritten - kept + i) % KEPT_BYTES)];
        }
        String skipped = tailWritten > kept ? "\n... (" + (tailWritten - kept) + " bytes left out) ...\n" : "";
        return head.toString(StandardCharsets.UTF_8) + skipped + new String(last, StandardCharsets.UTF_8);
    }

    /** The child's threads, by {@code jcmd <pid> Thread.print}, else {@code jstack <pid>}. */
    private static String threadDump(long pid) {
        StringBuilder tried = new StringBuilder();
        for (List<String> tool : List.of(List.of("jcmd", String.valueOf(pid), "Thread.print"),
                List.of("jstack", String.valueOf(pid)))) {
            Path exe = javaHome().resolve("bin").resolve(tool.get(0));
            if (!Files.isExecutable(exe)) {
                tried.append(exe).append(": not found\n");
                continue;
            }
            List<String> cmd = new ArrayList<>(tool);
            cmd.set(0, exe.toString());
            try {
                Process d = new ProcessBuilder(cmd).redirectErrorStream(true).start();
                d.getOutputStream().close();
                FutureTask<String> out = drain(d.getInputStream(), "child-jvm-dump");
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
}
