package io.spindle.internal.lazy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Paths;
import java.io.StringWriter;
import java.util.spi.ToolProvider;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * LZ3's shape: the heartbeat, which a join calls when its countdown runs out, must stay out of line. C2 inlines a
 * method at a call site it counts as hot when the method has at most {@code FreqInlineSize} bytecodes (325 on JDK 17
 * and 25, x86-64 and AArch64); a join's call is hot while code warms, and an inlined heartbeat made the join's own
 * compiled code too big to be inlined into the user's recursion ("already compiled into a big method"). This reads
 * the compiled class with {@code javap} and fails if an edit brings the method under that size.
 */
class HeartbeatShapeTest {
    /** C2's {@code FreqInlineSize} on the JDKs we support. */
    private static final int FREQ_INLINE_SIZE = 325;

    @Test
    void theHeartbeatIsTooBigForC2ToInlineAtAHotCallSite() {
        ToolProvider javap = ToolProvider.findFirst("javap")
                .orElseThrow(() -> new AssertionError("this test needs a JDK with javap (module jdk.jdeps)"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String classes;
        try {
            classes = Paths.get(LazyWorker.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .toString(); // decoded: a build folder may have a space in its name
        } catch (URISyntaxException e) {
            throw new AssertionError(e);
        }
        int rc = javap.run(new PrintWriter(out), new PrintWriter(err), "-c", "-p", "-cp", classes,
                LazyWorker.class.getName());
        assertEquals(0, rc, () -> "javap failed: " + err);
        int lastOffset = lastInstructionOffset(out.toString(), "private void heartbeat();");
        // the code is longer than the offset of its last instruction
        assertTrue(lastOffset >= FREQ_INLINE_SIZE, "LazyWorker.heartbeat's last instruction is at bytecode "
                + lastOffset + ": at " + FREQ_INLINE_SIZE + " bytecodes or fewer C2 inlines it into every join");
    }

    /** The offset of the last instruction of {@code method} in {@code javap -c} output. */
    static int lastInstructionOffset(String javapOutput, String method) {
        int start = javapOutput.indexOf("  " + method);
        assertTrue(start >= 0, () -> "no " + method + " in javap's output");
        int end = javapOutput.indexOf("\n\n", start);
        String body = javapOutput.substring(start, end < 0 ? javapOutput.length() : end);
        Matcher m = Pattern.compile("(?m)^\\s+(\\d+): ").matcher(body);
        int last = -1;
        while (m.find()) {
            last = Integer.parseInt(m.group(1));
        }
        assertTrue(last >= 0, () -> "no instruction found for " + method);
        return last;
    }
}
