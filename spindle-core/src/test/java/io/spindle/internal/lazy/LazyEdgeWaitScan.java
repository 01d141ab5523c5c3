package io.spindle.internal.lazy;

import io.spindle.JoinStrategy;
import io.spindle.ThreadPool;

import java.time.Duration;

/**
 * Review of issue 14: a child JVM ({@code -Xint}, small worker stacks) in which worker W, inside a lazy join's first
 * half, calls another pool's {@code install} at every stack depth near the edge (a cross-pool install waits through
 * W's own worker loop, where W may take worker T's promoted half b1). Meant to look for a job taken and then dropped
 * by an overflow before it runs; what it found instead (pre-existing, not lazy-specific): the install's injection
 * overflows in {@code newInjectedJobs}, its withdrawal overflows too, and {@code Registry.notifyInjectionUntilDone}
 * retries {@code newInjectedJobs} at the same depth for ever (E4 retries exhaustion "until done"; a stack overflow at a
 * fixed depth is never done): the install never returns.
 *
 * <p>RESULT: {@code hang=true} at the first attempt that hangs.
 */
public final class LazyEdgeWaitScan {
    /** Made at class initialization, not at the first (deep) call: linking a method reference there could overflow. */
    static final StackEdgeShims.Leaf LEAF = LazyEdgeWaitScan::leaf;
    static final int MAX = 20_000;
    static ThreadPool pool;
    static ThreadPool other;
    static final byte[] outcome = new byte[MAX]; // 1 install returned, 3 install threw SOE, 4 pad overflow
    static volatile boolean b1Promoted;
    static volatile boolean b1Started;

    static void leaf(int n) {
        try {
            other.install(() -> {
                spinUntil(() -> b1Started, 200_000_000L);
                return null;
            });
            outcome[n] = 1;
        } catch (StackOverflowError e) {
            outcome[n] = 3;
        }
    }

    static void spinUntil(java.util.function.BooleanSupplier c, long nanos) {
        long end = System.nanoTime() + nanos;
        while (!c.getAsBoolean() && System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    static void attempt(int k, int j, int n) {
        b1Promoted = false;
        b1Started = false;
        pool.join(() -> {
            spinUntil(() -> b1Promoted, 2_000_000_000L);
            try {
                StackEdgeShims.pad(k, j, n, LEAF);
            } catch (StackOverflowError e) {
                outcome[n] = 4;
            }
        }, () -> {
            // on T, a stolen half: a job start, so J1's push promotes its own frame at once (LZ8)
            pool.join(() -> {
                b1Promoted = true;
                spinUntil(() -> b1Started, 400_000_000L);
            }, () -> {
                b1Started = true;
            });
        });
    }

    public static void main(String[] args) throws Exception {
        pool = ThreadPool.builder().threads(2).stackSize(256 * 1024).joinStrategy(JoinStrategy.LAZY)
                .heartbeatInterval(Duration.ofSeconds(1)).build();
        other = ThreadPool.builder().threads(1).build();
        for (int w = 0; w < 200; w++) {
            final int ww = w;
            pool.install(() -> {
                attempt(0, ww % 24, MAX - 1);
                return null;
            });
        }
        int k0 = Integer.getInteger("k0", 1000);
        int n;
        int hangAt = -1;
        for (n = 0; n < MAX - 1; n++) {
            final int nn = n;
            Thread t = new Thread(() -> pool.install(() -> {
                attempt(k0 + nn / 24, nn % 24, nn);
                return null;
            }));
            t.setDaemon(true);
            t.start();
            t.join(10_000);
            if (t.isAlive()) {
                hangAt = n;
                break;
            }
            if (outcome[n] == 4) {
                break;
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int i = Math.max(0, n - 300); i <= n; i++) {
            sb.append(outcome[i]);
        }
        System.out.println("outcomes up to the edge: " + sb);
        if (hangAt >= 0) {
            for (Thread th : Thread.getAllStackTraces().keySet()) {
                if (th.getName().startsWith("spindle")) {
                    StackTraceElement[] st = th.getStackTrace();
                    System.out.println(th.getName() + ":");
                    for (int i = 0; i < Math.min(10, st.length); i++) {
                        System.out.println("    " + st[i]);
                    }
                }
            }
        }
        System.out.println("RESULT scanned=" + n + " hang=" + (hangAt >= 0) + " hangAt=" + hangAt
                + " reachedEdge=" + (n < MAX - 1 && outcome[n] == 4));
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
