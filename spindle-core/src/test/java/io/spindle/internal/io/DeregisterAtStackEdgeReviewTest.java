package io.spindle.internal.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spindle.ThreadPool;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Review of IO13 under E1/E4: a hand-back at every depth of a stack's edge. deregister sets {@code queued = true}
 * (the terminate count is the Deregistration's from then on) before it allocates and queues its waits; an overflow
 * between the two leaves keysLeft above zero for ever: the count leaks and the pool never terminates.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DeregisterAtStackEdgeReviewTest {
    private static final class DeregisterAtEveryDepth {
        final ThreadPool pool;
        final Pipe[] pipes;
        final List<CompletableFuture<Void>> returned = new ArrayList<>();
        int next;
        int threw;

        DeregisterAtEveryDepth(ThreadPool pool, Pipe[] pipes) {
            this.pool = pool;
            this.pipes = pipes;
        }

        void descend() {
            try {
                descend();
            } catch (StackOverflowError e) {
                // this frame hands back at its depth
            }
            int i = next;
            if (i < pipes.length) {
                next = i + 1;
                try {
                    CompletableFuture<Void> f = pool.io().deregister(pipes[i].source());
                    returned.add(f);
                } catch (Throwable t) {
                    threw++;
                }
            }
        }
    }

    @Test
    void aHandBackThatOverflowsLeaksNoTerminateCount() throws Exception {
        int rounds = Integer.getInteger("review.rounds", 6);
        List<String> bad = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            List<Throwable> handled = new CopyOnWriteArrayList<>();
            ThreadPool p = ThreadPool.builder().threads(1).uncaughtExceptionHandler((t, e) -> handled.add(e)).build();
            int n = 300;
            Pipe keeper = Pipe.open();
            keeper.source().configureBlocking(false);
            CompletableFuture<Integer> keep = p.io().read(keeper.source(), ByteBuffer.allocate(1)); // home holds IO
            Pipe[] pipes = new Pipe[n];
            List<CompletableFuture<Integer>> reads = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                pipes[i] = Pipe.open();
                pipes[i].source().configureBlocking(false);
                reads.add(p.io().read(pipes[i].source(), ByteBuffer.allocate(1)));
            }
            for (Pipe pipe : pipes) {
                pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
            }
            for (CompletableFuture<Integer> r : reads) {
                r.get(30, TimeUnit.SECONDS); // completed by readiness: each key registered, and kept (IO4)
            }
            DeregisterAtEveryDepth d = new DeregisterAtEveryDepth(p, pipes);
            Thread t = new Thread(null, d::descend, "deregister-at-every-depth", 512 * 1024);
            t.start();
            t.join(60_000);
            long incomplete = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            for (CompletableFuture<Void> f : d.returned) {
                try {
                    f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (Exception e) {
                    incomplete++;
                }
            }
            IoPoller poller = ((PoolIoImpl) p.io()).pollers()[0];
            Field lf = IoPoller.class.getDeclaredField("pollLock");
            lf.setAccessible(true);
            Field qf = IoPoller.class.getDeclaredField("deregistrations");
            qf.setAccessible(true);
            boolean lockHeld = ((ReentrantLock) lf.get(poller)).isLocked();
            int waits = ((Queue<?>) qf.get(poller)).size();
            String spin = "";
            java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
            for (Thread th : Thread.getAllStackTraces().keySet()) {
                if (th.getName().startsWith("spindle-worker")) {
                    long c0 = mx.getThreadCpuTime(th.getId());
                    Thread.sleep(1000);
                    long c1 = mx.getThreadCpuTime(th.getId());
                    spin += th.getName() + " cpu ms in 1 s idle: " + (c1 - c0) / 1_000_000 + "; ";
                }
            }
            p.shutdown();
            boolean terminated = p.awaitTermination(10, TimeUnit.SECONDS);
            String line = "round " + round + ": deregister threw " + d.threw + " of " + n + ", returned futures never"
                    + " complete " + incomplete + ", waits still queued " + waits + ", poll lock held " + lockHeld
                    + ", terminated " + terminated + ", " + spin + ", keep " + keep.isDone() + ", handled " + handled;
            System.out.println("REVIEW " + line);
            if (!terminated || incomplete > 0) {
                if (bad.isEmpty() || Boolean.getBoolean("review.dumpAll")) {
                    StringBuilder sb = new StringBuilder();
                    Thread.getAllStackTraces().forEach((th, st) -> {
                        if (th.getName().contains("deregister") || th.getName().startsWith("spindle")
                                || th.getName().contains("-w") || th.getName().contains("watchdog")) {
                            sb.append(th.getName()).append(' ').append(th.getState()).append('\n');
                            for (int k = 0; k < Math.min(st.length, 14); k++) {
                                sb.append("    at ").append(st[k]).append('\n');
                            }
                        }
                    });
                    System.out.println("REVIEW DUMP round " + round + "\n" + sb);
                }
                bad.add(line);
            }
            keeper.source().close();
            keeper.sink().close();
            for (Pipe pipe : pipes) {
                pipe.source().close();
                pipe.sink().close();
            }
        }
        assertEquals(List.of(), bad);
    }
}
