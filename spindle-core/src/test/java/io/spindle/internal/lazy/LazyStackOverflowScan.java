package io.spindle.internal.lazy;

import io.spindle.JoinStrategy;
import io.spindle.ThreadPool;
import io.spindle.internal.join.JoinJob;
import io.spindle.internal.registry.WorkerThread;

import java.time.Duration;

/**
 * Review of issue 14: a child JVM ({@code -Xint}, small worker stacks) that runs one lazy join at every stack depth
 * near the edge, so that a StackOverflowError lands at every call of push / heartbeat / promote / finishPromoted.
 * Worker 2 is kept busy spinning, so nobody steals the promoted half: whatever happens to it is the owner's doing.
 * Each attempt is its own install, so its first join is a job's first join (LZ8: promoted at once).
 *
 * <p>Prints one line per anomaly and a final RESULT line:
 * <ul>
 *   <li>{@code hang}: an attempt's join never returned (LZ5: a promotion that overflowed half-way left the frame
 *       counted as promoted while its job was never published: the owner waits for a latch nobody will set);</li>
 *   <li>{@code leftInSlot}: the join threw, and its promoted job is still in the owner's slot, not ABANDONED;</li>
 *   <li>{@code bRanLate}: a b whose join had thrown without running it ran later (after the busy worker was let go).</li>
 * </ul>
 */
public final class LazyStackOverflowScan {
    /** Made at class initialization, not at the first (deep) call: linking a method reference there could overflow. */
    static final StackEdgeShims.Leaf LEAF = LazyStackOverflowScan::leafOfAttempt;
    static volatile boolean release;
    static volatile Thread busy;
    static final int MAX = 20_000;
    static final boolean[] bRan = new boolean[MAX];
    static final byte[] outcome = new byte[MAX]; // 1 ok, 2 threw with b run, 3 threw without b, 4 pad overflow
    static volatile int hangAt = -1;

    static final boolean STEAL = Boolean.getBoolean("steal");
    static volatile boolean bStarted;

    static final class A implements Runnable {
        @Override
        public void run() {
            if (STEAL) { // let the idle worker take b, so that the join waits for it at the edge
                long end = System.nanoTime() + 200_000_000L;
                while (!bStarted && System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
            }
        }
    }

    static final class B implements Runnable {
        final int n;

        B(int n) {
            this.n = n;
        }

        @Override
        public void run() {
            bStarted = true;
            if (STEAL) {
                long end = System.nanoTime() + 2_000_000L;
                while (System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
            }
            bRan[n] = true;
        }
    }

    static ThreadPool pool;
    static final String SKIP = "," + System.getProperty("skip", "") + ",";
    static int K0 = Integer.getInteger("k0", 1000);

    /** This attempt's closures, for {@link #leafOfAttempt} (attempts run one at a time). */
    static Runnable attemptA;
    static Runnable attemptB;

    static void leafOfAttempt(int n) {
        leaf(n, attemptA, attemptB);
    }

    static void leaf(int n, Runnable a, Runnable b) {
        try {
            pool.join(a, b);
            outcome[n] = 1;
        } catch (StackOverflowError e) {
            outcome[n] = bRan[n] ? (byte) 2 : (byte) 3;
        }
    }

    public static void main(String[] args) throws Exception {
        pool = ThreadPool.builder().threads(2).stackSize(256 * 1024).joinStrategy(JoinStrategy.LAZY)
                .heartbeatInterval(Duration.ofSeconds(1)).build();
        for (int w = 0; w < 2000; w++) { // warm up: link and initialize every class and call site at room
            pool.install(() -> {
                pool.join(new A(), new B(MAX - 1));
                for (int i = 0; i < 20; i++) {
                    pool.join(() -> pool.join(new A(), new B(MAX - 1)), new B(MAX - 1));
                }
                return null;
            });
        }
        System.out.println("warm-up promotions=" + pool.stats().promotions());
        if (STEAL) {
            busy = new Thread(() -> { });
            release = true;
        }
        pool.spawn(() -> {
            if (STEAL) {
                return;
            }
            busy = Thread.currentThread();
            while (!release) {
                Thread.onSpinWait();
            }
        });
        while (busy == null) {
            Thread.sleep(1);
        }
        int leftInSlot = 0;
        int first = -1;
        int n;
        for (n = 0; n < MAX; n++) {
            if (SKIP.contains("," + n + ",")) {
                outcome[n] = 1;
                continue;
            }
            final int nn = n;
            final int kk = K0 + n / 24;
            final int jj = n % 24;
            Thread t = new Thread(() -> pool.install(() -> {
                A a = new A();
                B b = new B(nn);
                bStarted = false;
                try {
                    attemptA = a;
                    attemptB = b;
                    StackEdgeShims.pad(kk, jj, nn, LEAF);
                } catch (StackOverflowError e) {
                    outcome[nn] = 4;
                }
                return null;
            }));
            t.setDaemon(true);
            t.start();
            if (!StackEdgeShims.endsInTime(t, n)) {
                hangAt = n;
                break;
            }
            if (outcome[n] == 4) {
                break;
            }
            if (outcome[n] == 3) {
                if (first < 0) {
                    first = n;
                }
            }
        }
        // inspect the owner's slots (it is idle now, but cannot run: look before releasing the busy worker)
        WorkerThread owner = null;
        for (Thread th : Thread.getAllStackTraces().keySet()) {
            if (th instanceof WorkerThread && th != busy) {
                if (hangAt >= 0 || STEAL) {
                    StackTraceElement[] st = th.getStackTrace();
                    System.out.println(th.getName() + " " + th.getState() + ":");
                    for (int i = 0; i < Math.min(8, st.length); i++) {
                        System.out.println("    " + st[i]);
                    }
                }
                owner = (WorkerThread) th;
            }
        }
        int slotsFull = owner.lazy().slots().sizeEstimate();
        System.out.println("scanned to n=" + n + " hangAt=" + hangAt + " slotsFullAfterScan=" + slotsFull
                + " ownerLo=" + owner.lazy().lo + " ownerDepth=" + owner.lazy().depth);
        if (hangAt >= 0) {
            System.out.println("  hang: bRan=" + bRan[hangAt] + " promotions=" + pool.stats().promotions());
            StackTraceElement[] st = owner.getStackTrace();
            for (int i = 0; i < Math.min(12, st.length); i++) {
                System.out.println("  owner at " + st[i]);
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int i = Math.max(0, n - 400); i <= n; i++) {
            sb.append(outcome[i]);
        }
        System.out.println("outcomes up to the edge: " + sb);
        int threwWithoutB = 0;
        for (int i = 0; i < n; i++) {
            if (outcome[i] == 3) {
                threwWithoutB++;
            }
        }
        release = true;
        Thread.sleep(500);
        int bRanLate = 0;
        for (int i = 0; i < n; i++) {
            if (outcome[i] == 3 && bRan[i]) {
                bRanLate++;
                System.out.println("b of attempt " + i + " ran after its join threw");
            }
        }
        System.out.println("promotions=" + pool.stats().promotions());
        System.out.println("RESULT hang=" + (hangAt >= 0) + " reachedEdge=" + (n < MAX && outcome[n] == 4)
                + " threwWithoutB=" + threwWithoutB + " bRanLate=" + bRanLate + " slotsLeft=" + slotsFull);
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
