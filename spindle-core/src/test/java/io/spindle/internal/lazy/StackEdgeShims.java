package io.spindle.internal.lazy;

/**
 * The stack-edge scans' padding (LazyStackOverflowScan, LazyStaleFrameScan, LazyEdgeWaitScan): {@link #pad} recurses
 * {@code k} frames, then calls the leaf through one of 24 shims whose frames differ by one local each, so that
 * attempt {@code n = 24 k + j} starts the leaf a few bytes deeper than attempt {@code n - 1} and a scan over
 * {@code n} meets a stack overflow at every call of the code under test. Meant for {@code -Xint} child JVMs, where
 * frame sizes follow the bytecode.
 */
final class StackEdgeShims {
    /** The code under test, entered at the depth the padding reached; {@code n} names the attempt. */
    interface Leaf {
        void at(int n);
    }

    /**
     * How long an attempt may take before a scan calls it a hang: a passing attempt takes well under a second on a
     * quiet machine, and its spins (up to about 2.6 s) under {@code -Xint} on a loaded CI machine take longer. A hang
     * never ends, so a generous bound costs only the time to report one. (The CI failure that raised it from 10 s
     * was a real hang, not a slow attempt: it failed again at 60 s, and E4 at the stack's edge fixed it.)
     */
    static final long HANG_MILLIS = 60_000;

    private StackEdgeShims() {}

    /**
     * Waits for attempt {@code n}'s thread; true if it ended within {@link #HANG_MILLIS}. An attempt slower than 5 s
     * is printed, so a scan that nears the bound says so.
     */
    static boolean endsInTime(Thread t, int n) throws InterruptedException {
        long start = System.nanoTime();
        t.join(HANG_MILLIS);
        long millis = (System.nanoTime() - start) / 1_000_000;
        if (millis > 5_000) {
            System.out.println("attempt " + n + " took " + millis + " ms" + (t.isAlive() ? ": a hang" : ""));
        }
        return !t.isAlive();
    }

    static void pad(int k, int j, int n, Leaf leaf) {
        if (k > 0) {
            pad(k - 1, j, n, leaf);
            return;
        }
        switch (j) {
            case 0: shim0(0, n, leaf); return;
            case 1: shim1(0, n, leaf); return;
            case 2: shim2(0, n, leaf); return;
            case 3: shim3(0, n, leaf); return;
            case 4: shim4(0, n, leaf); return;
            case 5: shim5(0, n, leaf); return;
            case 6: shim6(0, n, leaf); return;
            case 7: shim7(0, n, leaf); return;
            case 8: shim8(0, n, leaf); return;
            case 9: shim9(0, n, leaf); return;
            case 10: shim10(0, n, leaf); return;
            case 11: shim11(0, n, leaf); return;
            case 12: shim12(0, n, leaf); return;
            case 13: shim13(0, n, leaf); return;
            case 14: shim14(0, n, leaf); return;
            case 15: shim15(0, n, leaf); return;
            case 16: shim16(0, n, leaf); return;
            case 17: shim17(0, n, leaf); return;
            case 18: shim18(0, n, leaf); return;
            case 19: shim19(0, n, leaf); return;
            case 20: shim20(0, n, leaf); return;
            case 21: shim21(0, n, leaf); return;
            case 22: shim22(0, n, leaf); return;
            case 23: shim23(0, n, leaf); return;
            default: throw new AssertionError();
        }
    }

    static void shim0(int x, int n, Leaf leaf) {
        if (x == 12345 && (0) == 7) {
            return;
        }
        leaf.at(n);
    }

    static void shim1(int x, int n, Leaf leaf) {
        int v0 = x + 0;
        if (x == 12345 && (v0) == 7) {
            return;
        }
        leaf.at(n);
    }

    static void shim2(int x, int n, Leaf leaf) {
        int v0 = x + 0;
        int v1 = x + 1;
        if (x == 12345 && (v0 + v1) == 7) {
            return;
        }
        leaf.at(n);
    }

    static void shim3(int x, int n, Leaf leaf) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        if (x == 12345 && (v0 + v1 + v2) == 7) {
            return;
        }
        leaf.at(n);
    }

    static void shim4(int x, int n, Leaf leaf) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        if (x == 12345 && (v0 + v1 + v2 + v3) == 7) {
            return;
        }
        leaf.at(n);
    }

    static void shim5(int x, int n, Leaf leaf) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4) == 7) {
            return;
        }
        leaf.at(n);
    }

    static void shim6(int x, int n, Leaf leaf) {
        int v0 = x + 0;
        int v1 = x + 1;
        int v2 = x + 2;
        int v3 = x + 3;
        int v4 = x + 4;
        int v5 = x + 5;
        if (x == 12345 && (v0 + v1 + v2 + v3 + v4 + v5) == 7) {
            return;
        }
        leaf.at(n);
    }

    static void shim7(int x, int n, Leaf leaf) {
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
        leaf.at(n);
    }

    static void shim8(int x, int n, Leaf leaf) {
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
        leaf.at(n);
    }

    static void shim9(int x, int n, Leaf leaf) {
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
        leaf.at(n);
    }

    static void shim10(int x, int n, Leaf leaf) {
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
        leaf.at(n);
    }

    static void shim11(int x, int n, Leaf leaf) {
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
        leaf.at(n);
    }

    static void shim12(int x, int n, Leaf leaf) {
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
        leaf.at(n);
    }

    static void shim13(int x, int n, Leaf leaf) {
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
        leaf.at(n);
    }

    static void shim14(int x, int n, Leaf leaf) {
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
        leaf.at(n);
    }

    static void shim15(int x, int n, Leaf leaf) {
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
        leaf.at(n);
    }

    static void shim16(int x, int n, Leaf leaf) {
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
        leaf.at(n);
    }

    static void shim17(int x, int n, Leaf leaf) {
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
        leaf.at(n);
    }

    static void shim18(int x, int n, Leaf leaf) {
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
        leaf.at(n);
    }

    static void shim19(int x, int n, Leaf leaf) {
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
        leaf.at(n);
    }

    static void shim20(int x, int n, Leaf leaf) {
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
        leaf.at(n);
    }

    static void shim21(int x, int n, Leaf leaf) {
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
        leaf.at(n);
    }

    static void shim22(int x, int n, Leaf leaf) {
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
        leaf.at(n);
    }

    static void shim23(int x, int n, Leaf leaf) {
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
        leaf.at(n);
    }
}
