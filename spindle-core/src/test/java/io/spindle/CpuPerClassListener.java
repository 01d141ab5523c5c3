package io.spindle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Where the suite's CPU goes, per test class: with {@code -Dspindle.tests.cpuLog=FILE} (surefire hands system
 * properties given to Maven on to its forks), each fork appends one line per test class to FILE: the JDK, the
 * surefire execution, the class, the CPU seconds this JVM and the child JVMs it waited for used while the class ran
 * ({@code /proc/self/stat}'s utime, stime, cutime and cstime), and its wall seconds. Surefire's reports have only wall
 * time, and on a machine whose cores the suite keeps busy (two builds side by side in {@code .ci/run}) a class's wall
 * time says little about what it costs the others: a class that waits is long and cheap. A fork runs its classes one
 * after another, so the difference of the process's CPU between a class's start and end is that class's (and the JUnit
 * machinery's around it). Without the property, or off Linux, it does nothing. Registered through
 * {@code META-INF/services}.
 */
public final class CpuPerClassListener implements TestExecutionListener {
    private static final String LOG = System.getProperty("spindle.tests.cpuLog", "");
    private static final Path STAT = Path.of("/proc/self/stat");
    /** /proc's clock ticks per second (USER_HZ): 100 on every Linux this runs on. */
    private static final double TICKS_PER_SECOND = 100.0;

    /** A test class that started: its name, and this process's CPU ticks and nanoTime then. */
    private static final class Started {
        final String className;
        final long cpuTicks;
        final long nanos;

        Started(String className, long cpuTicks, long nanos) {
            this.className = className;
            this.cpuTicks = cpuTicks;
            this.nanos = nanos;
        }
    }

    private final Map<String, Started> started = new HashMap<>();

    @Override
    public void executionStarted(TestIdentifier id) {
        String name = className(id);
        if (name != null) {
            started.put(id.getUniqueId(), new Started(name, cpuTicks(), System.nanoTime()));
        }
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        Started start = started.remove(id.getUniqueId());
        if (start == null) {
            return;
        }
        double cpu = (cpuTicks() - start.cpuTicks) / TICKS_PER_SECOND;
        double wall = (System.nanoTime() - start.nanos) / 1e9;
        String line = String.format(java.util.Locale.ROOT, "jdk%d %s %s %.2f %.2f%n", Runtime.version().feature(),
                execution(), start.className, cpu, wall);
        try {
            Files.writeString(Path.of(LOG), line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND); // one short write per line: the forks' lines do not interleave
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The surefire execution this fork belongs to, told by the system properties the pom sets for it. */
    private static String execution() {
        if ("eager".equals(System.getProperty("spindle.joinStrategy"))) {
            return "eager-joins";
        } else if ("0".equals(System.getProperty("spindle.heartbeatMicros"))) {
            return "promote-at-every-join";
        } else if ("0".equals(System.getProperty("spindle.io.watchdogMicros"))) {
            return "io-watchdog-off";
        }
        return "default";
    }

    /** The class a class-level container stands for, or null (for methods, engines, or without the property). */
    private static String className(TestIdentifier id) {
        if (LOG.isEmpty() || !id.isContainer() || id.getSource().isEmpty()
                || !(id.getSource().get() instanceof ClassSource) || !Files.isReadable(STAT)) {
            return null;
        }
        String name = ((ClassSource) id.getSource().get()).getClassName();
        return name.contains("$") ? null : name; // a nested class's CPU is its outer class's already
    }

    /** This process's CPU and its waited-for children's, in clock ticks. */
    private static long cpuTicks() {
        try {
            String stat = Files.readString(STAT);
            // the fields after the command's closing parenthesis: state is field 3, utime 14 ... cstime 17
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
