package io.spindle.internal.event;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spindle.ChildJvm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The event classes initialize when a pool is built, never later in a hook (package-info, "When the event classes
 * initialize"). A child JVM logs class initialization ({@code -Xlog:class+init}) and reads its own log before and after
 * building a pool. Before this rule an {@code OutOfMemoryError} in {@code InjectionEvent}'s initializer, met by the
 * JVM's first spawn while a worker held the heap, left JFR's registration broken, and every later sleep of every worker
 * threw {@code NoClassDefFoundError} (the worker could never block again). The same holds for the engine's other
 * classes with static initializers that it uses only later ({@code WakeReason}: a reviewer made the first outside spawn
 * fail its initializer, and every later spawn and install of every pool threw; the latches): Registry runs them too.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EventClassInitTest {
    private static final String ALL = "event/HandOffEvent,event/InjectionEvent,event/PromotionEvent,"
            + "event/StealBatchEvent,event/WakeReason,event/WorkerSleepEvent,event/WorkerWokenEvent,"
            + "latch/BlockingLatch,latch/CountLatch";

    @Test
    void buildingAPoolInitializesEveryEventClass() throws IOException {
        Path log = Files.createTempFile("spindle-class-init-", ".log");
        try {
            List<String> command = ChildJvm.java("-Xlog:class+init=info:file=" + log, "-cp",
                    System.getProperty("java.class.path"), EventInitChild.class.getName(), log.toString());
            ChildJvm.Result child = ChildJvm.run(command, TimeUnit.MINUTES.toSeconds(2)).assertExited();
            Map<String, String> r = child.resultLine();
            assertEquals(0, child.exitValue(), child.report());
            assertEquals("none", r.get("beforeBuild"), "the log shows a watched class before any pool: " + r);
            assertEquals(ALL, r.get("afterBuild"), "a class is left for a later path to initialize: " + r);
            assertEquals(ALL, r.get("afterUse"), r.toString());
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
