package io.spindle.internal.event;

import io.spindle.ThreadPool;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Child JVM of {@link EventClassInitTest}, run with {@code -Xlog:class+init=info:file=<log>}: reads from that log which
 * of the watched classes (the event classes, {@code WakeReason} and the latches with static initializers) were
 * initialized before a pool was built and right after, then uses the pool (outside submissions, scopes, sleeps,
 * wake-ups) and prints {@code RESULT beforeBuild=<names> afterBuild=<names> afterUse=<names>}.
 */
public final class EventInitChild {
    /** HotSpot logs the class's internal name: {@code Initializing 'io/spindle/internal/event/WorkerSleepEvent'}. */
    private static final String PREFIX = "Initializing 'io/spindle/internal/";
    /** Watched besides the event classes: the engine's other classes with static initializers it uses late. */
    private static final Set<String> ALSO = Set.of("event/WakeReason", "latch/BlockingLatch", "latch/CountLatch");

    public static void main(String[] args) throws Exception {
        Path log = Path.of(args[0]);
        String beforeBuild = initialized(log);
        String afterBuild;
        try (ThreadPool pool = ThreadPool.builder().threads(2).build()) {
            afterBuild = initialized(log);
            for (int i = 0; i < 100; i++) {
                pool.install(() -> {
                    pool.join(() -> { }, () -> { });
                    pool.scope(scope -> scope.spawn(() -> { }));
                    return null;
                });
                pool.spawn(() -> { });
                Thread.sleep(1); // the workers sleep between installs, and are woken
            }
        }
        System.out.println("RESULT beforeBuild=" + beforeBuild + " afterBuild=" + afterBuild + " afterUse="
                + initialized(log));
    }

    /** The watched classes (package/Name) that the log says were initialized, or {@code none}. */
    private static String initialized(Path log) throws IOException {
        TreeSet<String> names = new TreeSet<>();
        try (Stream<String> lines = Files.lines(log)) {
            lines.forEach(line -> {
                int at = line.indexOf(PREFIX);
                if (at >= 0) {
                    int from = at + PREFIX.length();
                    String name = line.substring(from, line.indexOf('\'', from));
                    if (name.startsWith("event/") && name.endsWith("Event") || ALSO.contains(name)) {
                        names.add(name);
                    }
                }
            });
        }
        return names.isEmpty() ? "none" : String.join(",", names);
    }
}
