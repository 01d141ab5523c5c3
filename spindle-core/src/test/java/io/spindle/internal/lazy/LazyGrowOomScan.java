package io.spindle.internal.lazy;

import io.spindle.JoinStrategy;
import io.spindle.ThreadPool;
import io.spindle.internal.registry.WorkerThread;

import java.util.concurrent.TimeUnit;

/**
 * Review of issue 14: a child JVM ({@code -XX:+UseSerialGC -XX:-UseTLAB -Xmx24m}) that runs a join at frame depth 64,
 * where {@link LazyWorker#push} grows its four frame arrays one after the other, with the heap full but for a reserve
 * of R bytes, for R in a range: some R lets the first copy succeed and a later one fail. Then, with the heap freed,
 * it checks the arrays still have one length, and that a join at that depth works again.
 *
 * <p>Prints per R where it differs, and {@code RESULT hang=none mismatches=<n> brokenAfter=<n> oomInJoin=<n>
 * escaped=<n> firstBroken=<message>}; {@code hang=R<r>} (and exit 1) if the job at reserve r did not finish in 60 s.
 */
public final class LazyGrowOomScan {
    static Object[] hoard = new Object[1 << 20];
    static int hoarded;
    static byte[] reserve;
    static ThreadPool pool;
    static final Runnable NOOP = () -> { };
    static volatile boolean done;
    static volatile Throwable escaped;
    static int escapedCount;
    static String outcome;
    static String afterwards;
    static String lengths;

    static void fill() {
        for (int size = 1 << 20; size >= 1; size >>= 1) {
            while (true) {
                try {
                    hoard[hoarded] = new byte[size];
                    hoarded++;
                } catch (OutOfMemoryError e) {
                    break;
                }
            }
        }
    }

    static void release() {
        for (int i = 0; i < hoarded; i++) {
            hoard[i] = null;
        }
        hoarded = 0;
    }

    static void nest(int k, int r) {
        if (k > 0) {
            pool.join(() -> nest(k - 1, r), NOOP);
            return;
        }
        reserve = new byte[r];
        fill();
        reserve = null;
        String o;
        try {
            pool.join(NOOP, NOOP); // frame 64: push grows the arrays
            o = "ok";
        } catch (OutOfMemoryError e) {
            o = "oom";
        } catch (Throwable t) {
            o = "other";
        }
        release();
        System.gc();
        outcome = o;
        lengths = lengthsOf(WorkerThread.current().lazy());
        try {
            pool.join(NOOP, NOOP); // the same depth again, memory back
            afterwards = "ok";
        } catch (Throwable t) {
            afterwards = t.toString();
        }
    }

    /**
     * One round's steps with the heap free, so that every class they use is initialized before a worker holds the
     * heap: an initializer that runs out of memory leaves its class unusable for good (a main thread whose first
     * {@code close()} initialized {@code java.time.Duration} then died of NoClassDefFoundError, 1 run in 100).
     */
    static void warmUp() {
        ThreadPool warm = ThreadPool.builder().threads(1).joinStrategy(JoinStrategy.LAZY).build();
        warm.spawn(() -> warm.join(NOOP, NOOP));
        warm.install(() -> {
            warm.join(NOOP, NOOP);
            return lengthsOf(WorkerThread.current().lazy());
        });
        warm.close();
    }

    static String lengthsOf(LazyWorker lz) {
        return lz.closures.length + "/" + lz.kinds.length + "/" + lz.promoted.length + "/" + lz.slotOf.length;
    }

    public static void main(String[] args) throws Exception {
        int mismatches = 0;
        int broken = 0;
        int oomInJoin = 0; // reserves at which the join at the growing depth ran out of memory: the scan's point
        String firstBroken = "none";
        warmUp();
        for (int r = Integer.getInteger("from", 0); r <= Integer.getInteger("to", 2000); r += 8) {
            pool = ThreadPool.builder().threads(1).joinStrategy(JoinStrategy.LAZY).build();
            final int rr = r;
            outcome = null;
            afterwards = null;
            done = false;
            pool.spawn(() -> {
                try {
                    nest(64, rr);
                } catch (Throwable t) {
                    escaped = t; // a join that should not have thrown: reported below, instead of a hang
                } finally {
                    done = true;
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!done) {
                if (System.nanoTime() - deadline > 0) {
                    System.out.println("RESULT hang=R" + r + " mismatches=" + mismatches + " brokenAfter=" + broken
                            + " oomInJoin=" + oomInJoin); // the test fails on the hang; the harness dumps threads
                    System.exit(1);
                }
                try {
                    Thread.sleep(1);
                } catch (Throwable e) {
                    // out of memory while the worker holds the heap: wait on
                }
            }
            pool.close();
            if (escaped != null) {
                System.out.println("R=" + r + " a join threw out of nest: " + escaped);
                escapedCount++;
                escaped = null;
            }
            String[] l = lengths.split("/");
            boolean mismatch = !(l[0].equals(l[1]) && l[1].equals(l[2]) && l[2].equals(l[3]));
            if (mismatch || !"ok".equals(afterwards)) {
                System.out.println("R=" + r + " join=" + outcome + " lengths(closures/kinds/promoted/slotOf)=" + lengths
                        + " joinAfterwards=" + afterwards);
            }
            if (mismatch) {
                mismatches++;
            }
            if ("oom".equals(outcome)) {
                oomInJoin++;
            }
            if (!"ok".equals(afterwards)) {
                broken++;
                if (firstBroken.equals("none")) {
                    firstBroken = afterwards.replace(' ', '_');
                }
            }
        }
        System.out.println("RESULT hang=none mismatches=" + mismatches + " brokenAfter=" + broken + " oomInJoin="
                + oomInJoin + " escaped=" + escapedCount + " firstBroken=" + firstBroken);
    }
}
