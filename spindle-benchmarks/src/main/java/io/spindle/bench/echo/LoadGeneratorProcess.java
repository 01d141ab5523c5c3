package io.spindle.bench.echo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The runner's handle on a {@link LoadGenerator} in a JVM of its own: the same java and class path as the runner,
 * started once per workload and reused by every server of it, so the clients' code is compiled once for all of them.
 * The child runs with the serial collector and small stacks: a client process should take from the shared cores what
 * its requests cost, not a concurrent collector's threads. The runner's warm-up runs warm the child's code too (with
 * {@code --warmup 0 --warmup-ms 0} the first server's first measured run meets a client still being compiled).
 *
 * <p>The calling thread waits for each answer in a blocking read of the child's output, so it spends next to no CPU
 * while the clients run: {@link ServerCpu#besidesCallerNanos()}, read on this thread, is the server's process alone.
 */
public final class LoadGeneratorProcess implements AutoCloseable {
    private final Process process;
    private final PrintStream commands;
    private final BufferedReader answers;

    /**
     * One measured phase of the clients.
     *
     * @param requests  requests answered
     * @param wallNanos from the clients' common start to the last one's end
     */
    public record Outcome(int requests, long wallNanos, long p50Nanos, long p99Nanos) {}

    private LoadGeneratorProcess(Process process) {
        this.process = process;
        this.commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.US_ASCII);
        this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
    }

    /** Starts a load generator JVM. */
    public static LoadGeneratorProcess start() throws IOException {
        // The JVM's own messages (warnings print to standard output by default) go to standard error: standard output
        // carries only the generator's answers, one per command.
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-Xss256k", "-Xlog:disable", "-Xlog:all=warning:stderr", "-cp",
                System.getProperty("java.class.path"), LoadGenerator.class.getName());
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        return new LoadGeneratorProcess(p);
    }

    /** Opens {@code connections} client connections to {@code server}, each served once. */
    public void connect(InetSocketAddress server, int connections) throws IOException {
        expect(ask("connect " + server.getPort() + " " + connections), "connected");
    }

    /** Every client in a closed loop for {@code windowNanos}. */
    public Outcome pingPong(long windowNanos) throws IOException {
        return outcome(ask("pingpong " + Math.max(1, TimeUnit.NANOSECONDS.toMillis(windowNanos))));
    }

    /** Every client sends {@code requests} requests, one every {@code periodNanos}. */
    public Outcome paced(long periodNanos, int requests) throws IOException {
        return outcome(ask("paced " + TimeUnit.NANOSECONDS.toMicros(periodNanos) + " " + requests));
    }

    /** Closes the clients' connections (the process stays, for the next server). */
    public void disconnect() throws IOException {
        expect(ask("close"), "closed");
    }

    private String ask(String command) throws IOException {
        commands.println(command);
        String answer = answers.readLine();
        if (answer == null) {
            throw new IOException("the load generator exited (" + command + ")");
        }
        if (answer.startsWith("error ")) {
            throw new IOException("load generator, " + command + ": " + answer.substring(6));
        }
        return answer;
    }

    private static void expect(String answer, String wanted) throws IOException {
        if (!answer.equals(wanted)) throw new IOException("load generator: '" + answer + "', not '" + wanted + "'");
    }

    private static Outcome outcome(String answer) throws IOException {
        String[] w = answer.split(" ");
        if (w.length != 5 || !w[0].equals("done")) throw new IOException("load generator: '" + answer + "'");
        return new Outcome(Integer.parseInt(w[1]), Long.parseLong(w[2]), Long.parseLong(w[3]), Long.parseLong(w[4]));
    }

    @Override
    public void close() throws IOException {
        commands.close(); // end of input: the generator closes its connections and exits
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            answers.close();
        }
    }
}
