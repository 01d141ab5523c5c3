package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindle.smoke.PoolSmokeMain;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code jdk.jfr} is optional ({@code requires static}): the library must run, on the module path and on the class
 * path, in a JVM whose only module is java.base, and its events must still be recorded when the library is a named
 * module on the module path and JFR is on. Each case runs {@link PoolSmokeMain} in a child JVM, the same java binary
 * as this one, with spindle-core's compiled classes.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JfrOptionalTest {
    private static Path work;
    private static Path smokeClasses;

    @BeforeAll
    static void copySmokeMain() throws IOException {
        work = Files.createTempDirectory("spindle-jfr-optional-");
        // Only the smoke main goes on the child's class path: the test classes directory also holds classes in the
        // io.spindle packages, which the named module would shadow, and JUnit, which java.base alone cannot load.
        Path from = classesRoot(PoolSmokeMain.class).resolve("io/spindle/smoke");
        smokeClasses = work.resolve("smoke-classes");
        Path to = Files.createDirectories(smokeClasses.resolve("io/spindle/smoke"));
        try (DirectoryStream<Path> classes = Files.newDirectoryStream(from, "PoolSmokeMain*.class")) {
            for (Path c : classes) {
                Files.copy(c, to.resolve(c.getFileName()));
            }
        }
    }

    @AfterAll
    static void deleteWork() throws IOException {
        if (work != null) {
            try (Stream<Path> all = Files.walk(work)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void runsAsANamedModuleWithOnlyJavaBase() {
        String out = runSmoke(List.of("--limit-modules", "java.base", "--module-path", spindleClasses().toString(),
                "--add-modules", "io.spindle", "-cp", smokeClasses.toString()), "jfr=absent");
        assertTrue(out.contains("spindle module: module io.spindle"), "not run as the named module:\n" + out);
    }

    @Test
    void runsOnTheClassPathWithOnlyJavaBase() {
        String cp = spindleClasses() + java.io.File.pathSeparator + smokeClasses;
        String out = runSmoke(List.of("--limit-modules", "java.base", "-cp", cp), "jfr=absent");
        assertTrue(out.contains("spindle module: unnamed module"), "not run on the class path:\n" + out);
    }

    @Test
    void namedModuleRecordsItsEventsWhenFlightRecorderIsOn() throws IOException {
        Path jfr = work.resolve("smoke.jfr");
        // -XX:StartFlightRecording puts jdk.jfr into the boot layer; the module reads it through requires static.
        runSmoke(List.of("-XX:StartFlightRecording:filename=" + jfr, "--module-path", spindleClasses().toString(),
                "--add-modules", "io.spindle", "-cp", smokeClasses.toString()), "jfr=present");
        Map<String, Set<String>> poolsByEvent = new TreeMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            String type = e.getEventType().getName();
            if (type.startsWith("io.spindle.")) {
                poolsByEvent.computeIfAbsent(type, k -> new TreeSet<>()).add(e.getString("pool"));
            }
        }
        // Every strategy's pool slept and was woken (the smoke run waits for both), and injected work.
        for (String type : List.of("io.spindle.WorkerSleep", "io.spindle.WorkerWoken", "io.spindle.Injection")) {
            Set<String> pools = poolsByEvent.getOrDefault(type, Set.of());
            assertEquals(SleepStrategy.values().length, pools.size(), type + " pools: " + poolsByEvent);
        }
    }

    /** Runs the smoke main in a child JVM and returns its output; fails unless it printed SMOKE OK and exited 0. */
    private static String runSmoke(List<String> jvmArgs, String expectation) {
        List<String> command = ChildJvm.java("-Xss4m");
        command.addAll(jvmArgs);
        command.add(PoolSmokeMain.class.getName());
        command.add(expectation);
        ChildJvm.Result child = ChildJvm.run(command, 150).assertExited();
        assertEquals(0, child.exitValue(), "child JVM failed: " + child.report());
        assertTrue(child.output().contains("SMOKE OK"), "child JVM did not finish: " + child.report());
        assertFalse(child.output().contains("NoClassDefFoundError"), child.report());
        return child.output();
    }

    /** spindle-core's main classes: a directory with module-info.class (the build's output). */
    private static Path spindleClasses() {
        Path p = classesRoot(ThreadPool.class);
        assertTrue(Files.isRegularFile(p.resolve("module-info.class")) || p.toString().endsWith(".jar"),
                "spindle-core classes without module-info: " + p);
        return p;
    }

    private static Path classesRoot(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new AssertionError(e);
        }
    }
}
