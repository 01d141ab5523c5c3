package io.spindle.internal.event;

import io.spindle.ThreadPool;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Child JVM of {@link EventClassInitTest}, run with {@code -Xlog:class+init=info:file=<log>}: reads from that log which
 * event classes were initialized before a pool was built and right after, then uses the pool (outside submissions,
 * sleeps, wake-ups) and prints {@code RESULT beforeBuild=<names> afterBuild=<names> afterUse=<names>}.
 */
public final class EventInitChild {
    /** HotSpot logs the class's internal name: {@code Initializing 'io/spindle/internal/event/WorkerSleepEvent'}. */
    private static final String PREFIX =
            "Initializing '" + EventInitChild.class.getPackageName().replace('.', '/') + "/";

    public static void main(String[] args) throws Exception {
        Path log = Path.of(args[0]);
        String beforeBuild = initialized(log);
        String afterBuild;
        try (ThreadPool pool = ThreadPool.builder().threads(2).build()) {
            afterBuild = initialized(log);
            for (int i = 0; i < 100; i++) {
                pool.install(() -> {
                    pool.join(() -> { }, () -> { });
                    return null;
                });
                Thread.sleep(1); // the workers sleep between installs, and are woken
            }
        }
        System.out.println("RESULT beforeBuild=" + beforeBuild + " afterBuild=" + afterBuild + " afterUse="
                + initialized(log));
    }

    /** The simple names of this package's event classes that the log says were initialized, or {@code none}. */
    private static String initialized(Path log) throws IOException {
        TreeSet<String> names = new TreeSet<>();
        try (Stream<String> lines = Files.lines(log)) {
            lines.forEach(line -> {
                int at = line.indexOf(PREFIX);
                if (at >= 0) {
                    int from = at + PREFIX.length();
                    String name = line.substring(from, line.indexOf('\'', from));
                    if (name.endsWith("Event")) {
                        names.add(name);
                    }
                }
            });
        }
        return names.isEmpty() ? "none" : String.join(",", names);
    }
}
