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
    static final int MAX = 20_000;
    static ThreadPool pool;
    static ThreadPool other;
    static final byte[] outcome = new byte[MAX]; // 1 install returned, 3 install threw SOE, 4 pad overflow
    static volatile boolean b1Promoted;
    static volatile boolean b1Started;

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
                pad(k, j, n);
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
        System.out.println("RESULT scanned=" + n + " hang=" + (hangAt >= 0) + " hangAt=" + hangAt);
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
