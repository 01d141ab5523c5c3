package io.spindle.internal.lazy;

import io.spindle.JoinStrategy;
import io.spindle.ThreadPool;

import java.time.Duration;

/**
 * Review of issue 14: a child JVM ({@code -Xint}, small worker stacks). An outer join J0 whose b0 is stolen at once
 * (LZ8); inside its a0, at every stack depth near the edge, an inner join I whose bookkeeping may overflow. b0 spawns a
 * job X that the owner steals while it waits for b0 (finishPromoted); X's first join promotes at once (LZ8).
 *
 * <p>Where I's {@code push} overflows calling {@code heartbeat()} (after {@code depth} moved), I throws without running
 * either closure and leaves its frame pushed and latent. The enclosing join repairs the depth only after its wait, so
 * X, run inside that wait, starts above the dead frame and promotes it: I's b then runs after I threw, on whichever
 * worker takes it. RESULT counts such attempts ({@code bRanAfterJoinThrew}).
 */
public final class LazyStaleFrameScan {
    /** Made at class initialization, not at the first (deep) call: linking a method reference there could overflow. */
    static final StackEdgeShims.Leaf LEAF = LazyStaleFrameScan::leaf;
    static final int MAX = 20_000;
    static ThreadPool pool;
    static final byte[] outcome = new byte[MAX]; // 1 ok, 2 I threw after its b ran, 3 I threw without its b, 4 pad overflow
    static final boolean[] bIRan = new boolean[MAX];
    static volatile boolean b0Started;
    static volatile boolean xDone;
    static volatile int current;
    static final Runnable A_I = () -> { };

    static final class BI implements Runnable {
        final int n;

        BI(int n) {
            this.n = n;
        }

        @Override
        public void run() {
            bIRan[n] = true;
        }
    }

    static BI[] bis = new BI[MAX];

    static void leaf(int n) {
        try {
            pool.join(A_I, bis[n]);
            outcome[n] = 1;
        } catch (StackOverflowError e) {
            outcome[n] = bIRan[n] ? (byte) 2 : (byte) 3;
        }
    }

    static void spinUntil(java.util.function.BooleanSupplier c) {
        long end = System.nanoTime() + 3_000_000_000L;
        while (!c.getAsBoolean() && System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    static void attempt(int k, int j, int n) {
        b0Started = false;
        xDone = false;
        pool.join(() -> {
            spinUntil(() -> b0Started);
            try {
                StackEdgeShims.pad(k, j, n, LEAF);
            } catch (StackOverflowError e) {
                outcome[n] = 4;
            }
        }, () -> {
            b0Started = true;
            pool.spawn(() -> {
                pool.join(() -> { }, () -> { });
                xDone = true;
            });
            spinUntil(() -> xDone);
        });
    }

    public static void main(String[] args) throws Exception {
        pool = ThreadPool.builder().threads(2).stackSize(256 * 1024).joinStrategy(JoinStrategy.LAZY)
                .heartbeatInterval(Duration.ZERO).build();
        for (int i = 0; i < MAX; i++) {
            bis[i] = new BI(i);
        }
        for (int w = 0; w < 300; w++) {
            final int ww = w;
            pool.install(() -> {
                attempt(0, ww % 24, MAX - 1);
                return null;
            });
        }
        int k0 = Integer.getInteger("k0", 1000);
        int n;
        for (n = 0; n < MAX - 1; n++) {
            final int nn = n;
            pool.install(() -> {
                attempt(k0 + nn / 24, nn % 24, nn);
                return null;
            });
            if (outcome[n] == 4) {
                break;
            }
        }
        Thread.sleep(500);
        StringBuilder sb = new StringBuilder();
        int late = 0;
        int threwWithout = 0;
        for (int i = 0; i < n; i++) {
            if (i > n - 500) {
                sb.append(outcome[i]);
            }
            if (outcome[i] == 3) {
                threwWithout++;
                if (bIRan[i]) {
                    late++;
                    System.out.println("attempt " + i + ": I threw without running its b, which ran later");
                }
            }
        }
        System.out.println("outcomes up to the edge: " + sb);
        System.out.println("promotions=" + pool.stats().promotions());
        System.out.println("RESULT scanned=" + n + " reachedEdge=" + (outcome[n] == 4) + " threwWithoutB=" + threwWithout
                + " bRanAfterJoinThrew=" + late);
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
