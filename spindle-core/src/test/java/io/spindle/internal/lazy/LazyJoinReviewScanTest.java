package io.spindle.internal.lazy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.spindle.ChildJvm;

import java.io.File;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Review of issue 14 (lazy joins): failure injection by stack depth ({@code -Xint}, as JecStackOverflowScanTest) and by
 * heap exhaustion, each in a child JVM. Each test fails on ba1cfc8; see the scans' javadoc for the interleavings.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class LazyJoinReviewScanTest {

    private static Map<String, String> run(Class<?> main, String... jvmArgs) throws Exception {
        String cp = new File(LazyJoin.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                + File.pathSeparator
                + new File(main.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> cmd = ChildJvm.java(jvmArgs);
        cmd.addAll(List.of("-cp", cp, main.getName()));
        ChildJvm.Result child = ChildJvm.run(cmd, 300);
        System.out.println("--- " + main.getSimpleName() + " (rc " + child.exitValue() + ")\n" + child.output());
        return child.resultLine();
    }

    /**
     * LZ5: a promotion step completes or leaves the frame latent. Found by this scan: promote() moved {@code lo} before
     * {@code slots.publish}, so an overflow entering publish left the frame counted as promoted with its job in no
     * slot, and the join waited for a latch nobody would set. Now lo moves after the call.
     */
    @Test
    void aPromotionThatOverflowsBeforePublishingDoesNotHangItsJoin() throws Exception {
        Map<String, String> r = run(LazyStackOverflowScan.class, "-Xint", "-Xss512k", "-Dk0=1150");
        assertEquals("false", r.get("hang"), "a join waits for a promoted half that was never published: " + r);
        assertEquals("true", r.get("reachedEdge"), "the scan never reached the stack's edge (tune -Dk0): " + r);
        assertTrue(Integer.parseInt(r.get("threwWithoutB")) > 0, "no join overflowed inside the scan: " + r);
    }

    /**
     * LZ9: once a join's frame is pushed, the join reaches its end. Found by this scan: push() moved depth and then
     * called heartbeat(); when that call overflowed, the join threw with its frame left pushed and latent, a job run
     * during the enclosing join's wait started above it, and its first join promoted the dead frame: b ran after its
     * join had thrown. Now push skips the beat instead.
     */
    @Test
    void aJoinThatThrewInItsPushNeverRunsItsSecondHalfLater() throws Exception {
        Map<String, String> r = run(LazyStaleFrameScan.class, "-Xint", "-Xss512k", "-Dk0=1250");
        assertEquals("0", r.get("bRanAfterJoinThrew"), "a b ran after its join had thrown: " + r);
        assertEquals("true", r.get("reachedEdge"), "the scan never reached the stack's edge (tune -Dk0): " + r);
        assertTrue(Integer.parseInt(r.get("scanned")) >= 48, "the scan started past the edge (tune -Dk0): " + r);
    }

    /**
     * LZ5: grow() is all or nothing. Found by this scan: it replaced its four arrays one by one, and an
     * OutOfMemoryError part-way left them with different lengths for good (promoted/slotOf at 64: no frame at depth
     * 64..127 of that worker could be promoted again).
     */
    @Test
    void growingTheFrameStackOutOfMemoryKeepsTheArraysConsistent() throws Exception {
        Map<String, String> r = run(LazyGrowOomScan.class, "-XX:+UseSerialGC", "-XX:-UseTLAB", "-Xmx24m",
                "-Dfrom=480", "-Dto=560");
        assertEquals("none", r.get("hang"), "the join at the growing depth never finished: " + r);
        assertEquals("0", r.get("escaped"), "a join outside the reserve's window threw: " + r);
        assertEquals("0", r.get("mismatches"), "frame arrays of different lengths after an OOM in grow(): " + r);
        assertEquals("0", r.get("brokenAfter"), r.toString());
        assertTrue(Integer.parseInt(r.get("oomInJoin")) > 0, "no reserve made the growing join run out of memory: " + r);
    }

    /**
     * E1 at the stack's edge: an install whose injection's notification and withdrawal both overflowed retried the
     * wake-up at that depth for ever (hang=true on the code before InjectedJob); the take-back is a monitor now. And a
     * failed install's give-back of the pool's count overflowed too at some depths (22 times), so that the pool never
     * terminated; it is owed without a call now (Termination.owed).
     */
    @Test
    void aCrossPoolInstallAtTheStackEdgeReturns() throws Exception {
        Map<String, String> r = run(LazyEdgeWaitScan.class, "-Xint", "-Xss512k", "-Dk0=1250");
        assertEquals("false", r.get("hang"), "an install at the stack's edge never returned: " + r);
        assertTrue(Long.parseLong(r.get("withdrawn")) > 0, "no injection was taken back: the scan missed E1: " + r);
        assertEquals("0", r.get("unclaimed"), "a visible job nobody claimed while the worker sleeps: " + r);
        assertEquals(r.get("executed"), r.get("injected"), "a job taken back ran, or was counted as injected: " + r);
        assertEquals("true", r.get("terminated"), "a failed install's count never came back: " + r);
    }

    /**
     * E4 at the stack's edge: the same scan with b1 held for 10 ms, so that T sleeps on b1's latch while W, deep in
     * its cross-pool install's wait, runs b1 and wakes T at every depth near the edge. Found in CI (the scan above,
     * under load, hung 2 of 8 runs with W retrying T's wake-up in the frame where it overflowed); with the hold, the
     * code before OwedLatchWakes hung here in every run (attempt 693 of 1196 on JDK 17; about 17 s a run with it).
     */
    @Test
    void aLatchOwnersWakeUpThatOverflowsIsDeliveredFromAShallowerFrame() throws Exception {
        Map<String, String> r = run(LazyEdgeWaitScan.class, "-Xint", "-Xss512k", "-Dk0=1250", "-DholdMs=10");
        assertEquals("false", r.get("hang"), "a latch's owner was never woken at the stack's edge: " + r);
        assertEquals("true", r.get("reachedEdge"), "the scan never reached the stack's edge (tune -Dk0): " + r);
        assertEquals(r.get("executed"), r.get("injected"), "a job taken back ran, or was counted as injected: " + r);
        assertEquals("true", r.get("terminated"), "a failed install's count never came back: " + r);
    }
}
