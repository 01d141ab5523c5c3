package io.spindle.internal.event;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.util.List;

import jdk.jfr.Recording;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The hooks' cost model (package-info, "Cost when nothing records"): they allocate nothing while their events are
 * disabled, whether no recording runs or a recording runs without them. Measured with the thread's allocation counter
 * (com.sun.management), over enough calls that a single allocation per call would show as megabytes.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PoolEventsTest {
    private static final List<String> EVENTS = List.of("io.spindle.WorkerSleep", "io.spindle.WorkerWoken",
            "io.spindle.StealBatch", "io.spindle.Injection");
    private static final int CALLS = 100_000;
    /** Far below one 16-byte object per call (5 hooks x CALLS calls = 8 MB), far above the measurement's own boxing. */
    private static final long TOLERANCE_BYTES = 64 * 1024;

    @Test
    void noneNeverRecords() {
        assertFalse(PoolEvents.NONE.canRecord());
        assertNull(PoolEvents.NONE.sleepBegin(0));
    }

    @Test
    void hooksAllocateNothingWhileNoRecordingRuns() throws Exception {
        PoolEvents events = new PoolEvents("alloc-test", "JOBS_EVENT_COUNTER", t -> PoolEvents.NOT_A_WORKER);
        assumeTrue(events.canRecord(), "jdk.jfr readable");
        assumeTrue(jdk.jfr.FlightRecorder.getFlightRecorder().getRecordings().isEmpty(),
                "the JVM runs a recording already (-XX:StartFlightRecording?)");
        assertAllocatesNothing(events);
    }

    @Test
    void hooksAllocateNothingWhileARecordingRunsWithoutTheirEvents() throws Exception {
        PoolEvents events = new PoolEvents("alloc-test", "JOBS_EVENT_COUNTER", t -> PoolEvents.NOT_A_WORKER);
        assumeTrue(events.canRecord(), "jdk.jfr readable");
        try (Recording r = new Recording()) {
            r.enable("jdk.ThreadSleep"); // some recording is on, so the event classes are instrumented...
            for (String e : EVENTS) {
                r.disable(e);               // ...but ours are off
            }
            r.start();
            assumeTrue(!WorkerSleepEvent.enabled() && !WorkerWokenEvent.enabled() && !StealBatchEvent.enabled()
                    && !InjectionEvent.enabled(), "another recording enables Spindle's events");
            assertAllocatesNothing(events);
            r.stop();
        }
    }

    private static void assertAllocatesNothing(PoolEvents events) throws Exception {
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        // com.sun.management.ThreadMXBean by reflection: the tests are not compiled against jdk.management.
        Method allocated = Class.forName("com.sun.management.ThreadMXBean")
                .getMethod("getCurrentThreadAllocatedBytes");
        long probe = (long) allocated.invoke(bean);
        assumeTrue(probe >= 0, "thread allocation measurement unsupported");
        callHooks(events, CALLS); // warm-up: class loading and initialization allocate, once
        long before = (long) allocated.invoke(bean);
        callHooks(events, CALLS);
        long bytes = (long) allocated.invoke(bean) - before;
        assertTrue(bytes < TOLERANCE_BYTES, "hooks allocated " + bytes + " bytes in " + CALLS + " rounds");
    }

    private static void callHooks(PoolEvents events, int rounds) {
        Thread me = Thread.currentThread();
        for (int i = 0; i < rounds; i++) {
            Object sleep = events.sleepBegin(1);
            events.sleepEnded(sleep, 1, WakeReason.LATCH_SET, me);
            events.sleepEnded(sleep, 1, WakeReason.HINT_PIPE_DEQUE, 0);
            events.stealBatch(1, 3, 0b101L, false);
            events.injected("spawn", 1);
        }
    }
}
