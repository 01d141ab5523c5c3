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

    static void pad(int k, int j, int n) {
        if (k > 0) {
            pad(k - 1, j, n);
            return;
        }
        switch (j) {
            case 0: shim0(0, n); return;
            case 1: shim1(0, n); return;
            case 2: shim2(0, n); return;
            case 3: shim3(0, n); return;
            case 4: shim4(0, n); return;
            case 5: shim5(0, n); return;
            case 6: shim6(0, n); return;
            case 7: shim7(0, n); return;
            case 8: shim8(0, n); return;
            case 9: shim9(0, n); return;
            case 10: shim10(0, n); return;
            case 11: shim11(0, n); return;
            case 12: shim12(0, n); return;
            case 13: shim13(0, n); return;
            case 14: shim14(0, n); return;
            case 15: shim15(0, n); return;
            case 16: shim16(0, n); return;
            case 17: shim17(0, n); return;
            case 18: shim18(0, n); return;
            case 19: shim19(0, n); return;
            case 20: shim20(0, n); return;
            case 21: shim21(0, n); return;
            case 22: shim22(0, n); return;
            case 23: shim23(0, n); return;
            default: throw new AssertionError();
        }
    }

    static void shim0(int x, int n) {
        if (x == 12345 && (0) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim1(int x, int n) {
        int v0 = x + 0;
        if (x == 12345 && (v0) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim2(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        if (x == 12345 && (v0 + v1) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim3(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        if (x == 12345 && (v0 + v1 + v2) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim4(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        if (x == 12345 && (v0 + v1 + v2 + v3) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim5(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim6(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        int v5 = x + 5;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4 + v5) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim7(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        int v5 = x + 5;
        int v6 = x + 6;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4 + v5 + v6) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim8(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        int v5 = x + 5;
        int v6 = x + 6;
        int v7 = x + 7;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim9(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        int v5 = x + 5;
        int v6 = x + 6;
        int v7 = x + 7;
        int v8 = x + 8;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim10(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        int v5 = x + 5;
        int v6 = x + 6;
        int v7 = x + 7;
        int v8 = x + 8;
        int v9 = x + 9;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim11(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        int v5 = x + 5;
        int v6 = x + 6;
        int v7 = x + 7;
        int v8 = x + 8;
        int v9 = x + 9;
        int v10 = x + 10;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim12(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        int v5 = x + 5;
        int v6 = x + 6;
        int v7 = x + 7;
        int v8 = x + 8;
        int v9 = x + 9;
        int v10 = x + 10;
        int v11 = x + 11;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim13(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        int v5 = x + 5;
        int v6 = x + 6;
        int v7 = x + 7;
        int v8 = x + 8;
        int v9 = x + 9;
        int v10 = x + 10;
        int v11 = x + 11;
        int v12 = x + 12;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11 + v12) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim14(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        int v5 = x + 5;
        int v6 = x + 6;
        int v7 = x + 7;
        int v8 = x + 8;
        int v9 = x + 9;
        int v10 = x + 10;
        int v11 = x + 11;
        int v12 = x + 12;
        int v13 = x + 13;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11 + v12 + v13) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim15(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        int v5 = x + 5;
        int v6 = x + 6;
        int v7 = x + 7;
        int v8 = x + 8;
        int v9 = x + 9;
        int v10 = x + 10;
        int v11 = x + 11;
        int v12 = x + 12;
        int v13 = x + 13;
        int v14 = x + 14;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11 + v12 + v13 + v14) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim16(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        int v5 = x + 5;
        int v6 = x + 6;
        int v7 = x + 7;
        int v8 = x + 8;
        int v9 = x + 9;
        int v10 = x + 10;
        int v11 = x + 11;
        int v12 = x + 12;
        int v13 = x + 13;
        int v14 = x + 14;
        int v15 = x + 15;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11 + v12 + v13 + v14 + v15) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim17(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        int v5 = x + 5;
        int v6 = x + 6;
        int v7 = x + 7;
        int v8 = x + 8;
        int v9 = x + 9;
        int v10 = x + 10;
        int v11 = x + 11;
        int v12 = x + 12;
        int v13 = x + 13;
        int v14 = x + 14;
        int v15 = x + 15;
        int v16 = x + 16;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11 + v12 + v13 + v14 + v15 + v16) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim18(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        int v5 = x + 5;
        int v6 = x + 6;
        int v7 = x + 7;
        int v8 = x + 8;
        int v9 = x + 9;
        int v10 = x + 10;
        int v11 = x + 11;
        int v12 = x + 12;
        int v13 = x + 13;
        int v14 = x + 14;
        int v15 = x + 15;
        int v16 = x + 16;
        int v17 = x + 17;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11 + v12 + v13 + v14 + v15 + v16 + v17) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim19(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        int v5 = x + 5;
        int v6 = x + 6;
        int v7 = x + 7;
        int v8 = x + 8;
        int v9 = x + 9;
        int v10 = x + 10;
        int v11 = x + 11;
        int v12 = x + 12;
        int v13 = x + 13;
        int v14 = x + 14;
        int v15 = x + 15;
        int v16 = x + 16;
        int v17 = x + 17;
        int v18 = x + 18;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11 + v12 + v13 + v14 + v15 + v16 + v17 + v18) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim20(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        int v5 = x + 5;
        int v6 = x + 6;
        int v7 = x + 7;
        int v8 = x + 8;
        int v9 = x + 9;
        int v10 = x + 10;
        int v11 = x + 11;
        int v12 = x + 12;
        int v13 = x + 13;
        int v14 = x + 14;
        int v15 = x + 15;
        int v16 = x + 16;
        int v17 = x + 17;
        int v18 = x + 18;
        int v19 = x + 19;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11 + v12 + v13 + v14 + v15 + v16 + v17 + v18 + v19) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim21(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        int v5 = x + 5;
        int v6 = x + 6;
        int v7 = x + 7;
        int v8 = x + 8;
        int v9 = x + 9;
        int v10 = x + 10;
        int v11 = x + 11;
        int v12 = x + 12;
        int v13 = x + 13;
        int v14 = x + 14;
        int v15 = x + 15;
        int v16 = x + 16;
        int v17 = x + 17;
        int v18 = x + 18;
        int v19 = x + 19;
        int v20 = x + 20;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11 + v12 + v13 + v14 + v15 + v16 + v17 + v18 + v19 + v20) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim22(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        int v5 = x + 5;
        int v6 = x + 6;
        int v7 = x + 7;
        int v8 = x + 8;
        int v9 = x + 9;
        int v10 = x + 10;
        int v11 = x + 11;
        int v12 = x + 12;
        int v13 = x + 13;
        int v14 = x + 14;
        int v15 = x + 15;
        int v16 = x + 16;
        int v17 = x + 17;
        int v18 = x + 18;
        int v19 = x + 19;
        int v20 = x + 20;
        int v21 = x + 21;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11 + v12 + v13 + v14 + v15 + v16 + v17 + v18 + v19 + v20 + v21) == 7) {
            return;
        }
        leaf(n);
    }

    static void shim23(int x, int n) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        int v5 = x + 5;
        int v6 = x + 6;
        int v7 = x + 7;
        int v8 = x + 8;
        int v9 = x + 9;
        int v10 = x + 10;
        int v11 = x + 11;
        int v12 = x + 12;
        int v13 = x + 13;
        int v14 = x + 14;
        int v15 = x + 15;
        int v16 = x + 16;
        int v17 = x + 17;
        int v18 = x + 18;
        int v19 = x + 19;
        int v20 = x + 20;
        int v21 = x + 21;
        int v22 = x + 22;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11 + v12 + v13 + v14 + v15 + v16 + v17 + v18 + v19 + v20 + v21 + v22) == 7) {
            return;
        }
        leaf(n);
    }

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
                pad(k, j, n);
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
        System.out.println("RESULT scanned=" + n + " threwWithoutB=" + threwWithout + " bRanAfterJoinThrew=" + late);
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
