package io.spindle.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The runner in a fresh JVM (same java, JVM flags and class path): for the order check, and for
 * {@code --jvm-per-pool}, which measures each pool in a JVM of its own so that no pool's JIT profile shapes another's
 * compiled code (the Spindle pools share the join and wait-loop code, whose calls into the sleep protocol see one
 * receiver class per strategy in a shared JVM).
 */
final class ChildRun {
    private ChildRun() {}

    /** Runs every pool in its own JVM, one after the other, and returns all their rows. */
    static List<Row> eachPoolInItsOwnJvm(String[] args, List<PoolKind> pools, Path out, Progress progress)
            throws IOException, InterruptedException {
        List<Row> rows = new ArrayList<>();
        for (PoolKind k : pools) {
            progress.note("spindle-bench: " + k.id() + " in a JVM of its own");
            List<String> childArgs = argsWithout(args, "--jvm-per-pool", "--order-check");
            childArgs.addAll(List.of("--pools", k.id()));
            rows.addAll(run(childArgs, out.resolve("pool-" + k.id())).results());
        }
        return rows;
    }

    /** Runs the runner with {@code runnerArgs} plus {@code --out dir} in a new JVM and reads its results.json. */
    static Results run(List<String> runnerArgs, Path dir) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(Runner.class.getName());
        cmd.addAll(runnerArgs);
        cmd.addAll(List.of("--out", dir.toString()));
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD) // its table is in its own report.md
                .redirectError(ProcessBuilder.Redirect.INHERIT)  // its progress shows as ours
                .start();
        int rc = p.waitFor();
        if (rc != 0) throw new IOException("child run failed with exit code " + rc + ": " + cmd);
        return JsonReader.readResults(Files.readString(dir.resolve("results.json"), StandardCharsets.UTF_8));
    }

    /** The original arguments without {@code --pools} and {@code --out} (with their values) and the given flags. */
    static List<String> argsWithout(String[] args, String... flags) {
        Set<String> dropped = Set.of(flags);
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--pools") || args[i].equals("--out")) {
                i++; // and its value
            } else if (!dropped.contains(args[i])) {
                kept.add(args[i]);
            }
        }
        return kept;
    }
}
