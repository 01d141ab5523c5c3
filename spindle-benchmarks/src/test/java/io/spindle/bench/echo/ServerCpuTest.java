package io.spindle.bench.echo;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server CPU reading never goes back (issue 32: an idle window read -13.6 ms per 2 s on JDK 25): consecutive
 * readings on one thread, with the rest of the process quiet, while threads start, spin and end.
 */
class ServerCpuTest {
    @Test
    void consecutiveReadingsNeverFallWhileTheProcessIsQuiet() {
        long before = ServerCpu.besidesCallerNanos();
        for (int i = 0; i < 2_000; i++) {
            // the caller's own work between readings (the reading itself included) is not the server's
            long after = ServerCpu.besidesCallerNanos();
            assertTrue(after >= before, "reading " + i + " fell by " + (before - after) + " ns");
            before = after;
        }
    }

    @Test
    void readingsNeverFallWhileThreadsStartAndEnd() throws InterruptedException {
        long before = ServerCpu.besidesCallerNanos();
        for (int round = 0; round < 50; round++) {
            List<Thread> threads = new ArrayList<>();
            CountDownLatch started = new CountDownLatch(4);
            for (int t = 0; t < 4; t++) {
                Thread thread = new Thread(() -> {
                    started.countDown();
                    long x = 0;
                    for (int k = 0; k < 200_000; k++) x += k * 31L ^ x;
                    if (x == 42) System.out.print(""); // keeps the loop
                });
                threads.add(thread);
                thread.start();
            }
            started.await();
            long during = ServerCpu.besidesCallerNanos();
            assertTrue(during >= before, "round " + round + ": fell by " + (before - during) + " ns while threads ran");
            for (Thread thread : threads) thread.join();
            long after = ServerCpu.besidesCallerNanos();
            assertTrue(after >= during, "round " + round + ": fell by " + (during - after) + " ns as threads ended");
            before = after;
        }
    }
}
