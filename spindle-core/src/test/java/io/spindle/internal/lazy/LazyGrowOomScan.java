package io.spindle.internal.lazy;

import io.spindle.JoinStrategy;
import io.spindle.ThreadPool;
import io.spindle.internal.registry.WorkerThread;

/**
 * Review of issue 14: a child JVM ({@code -XX:+UseSerialGC -XX:-UseTLAB -Xmx24m}) that runs a join at frame depth 64,
 * where {@link LazyWorker#push} grows its four frame arrays one after the other, with the heap full but for a reserve
 * of R bytes, for R in a range: some R lets the first copy succeed and a later one fail. Then, with the heap freed,
 * it checks the arrays still have one length, and that a join at that depth works again.
 *
 * <p>Prints per R where it differs, and {@code RESULT mismatches=<n> brokenAfter=<n> oomInJoin=<n>
 * firstBroken=<message>}.
 */
public final class LazyGrowOomScan {
    static Object[] hoard = new Object[1 << 20];
    static int hoarded;
    static byte[] reserve;
    static ThreadPool pool;
    static final Runnable NOOP = () -> { };
    static volatile boolean done;
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
        LazyWorker lz = WorkerThread.current().lazy();
        lengths = lz.closures.length + "/" + lz.kinds.length + "/" + lz.promoted.length + "/" + lz.slotOf.length;
        try {
            pool.join(NOOP, NOOP); // the same depth again, memory back
            afterwards = "ok";
        } catch (Throwable t) {
            afterwards = t.toString();
        }
    }

    public static void main(String[] args) throws Exception {
        int mismatches = 0;
        int broken = 0;
        int oomInJoin = 0; // reserves at which the join at the growing depth ran out of memory: the scan's point
        String firstBroken = "none";
        for (int r = Integer.getInteger("from", 0); r <= Integer.getInteger("to", 2000); r += 8) {
            pool = ThreadPool.builder().threads(1).joinStrategy(JoinStrategy.LAZY).build();
            final int rr = r;
            outcome = null;
            afterwards = null;
            done = false;
            pool.spawn(() -> {
                nest(64, rr);
                done = true;
            });
            while (!done) {
                try {
                    Thread.sleep(1);
                } catch (Throwable e) {
                    // out of memory while the worker holds the heap: wait on
                }
            }
            pool.close();
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
        System.out.println("RESULT mismatches=" + mismatches + " brokenAfter=" + broken + " oomInJoin=" + oomInJoin
                + " firstBroken=" + firstBroken);
    }
}
