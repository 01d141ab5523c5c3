package io.spindle.internal.lazy;

import io.spindle.JoinStrategy;
import io.spindle.PoolStats;
import io.spindle.ThreadPool;
import io.spindle.internal.registry.Registry;

import io.spindle.internal.job.InjectedJob;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.TimeUnit;

/**
 * Review of issue 14: a child JVM ({@code -Xint}, small worker stacks) in which worker W, inside a lazy join's first
 * half, calls another pool's {@code install} at every stack depth near the edge (a cross-pool install waits through
 * W's own worker loop, where W may take worker T's promoted half b1). Meant to look for a job taken and then dropped
 * by an overflow before it runs; what it found instead (older than lazy joins): the install's injection overflowed in
 * {@code newInjectedJobs}, its withdrawal ({@code injector.remove}, a call) overflowed too, and the registry then
 * retried the wake-up at that depth for ever: the install never returned. The take-back is a monitor now, taken
 * without a call (E1 in the registry package, {@code InjectedJob}).
 *
 * <p>RESULT: {@code hang=true} at the first attempt that hangs; else the accounts of {@link #accounts()}.
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
    /**
     * {@code -DholdMs}: how long b1 runs after it started (0 by default). With a hold, T stops waiting for b1 to start
     * and falls asleep on b1's latch while W runs it, so W's wake-up of T is made at every depth of W's stack near the
     * edge: the wake-up that overflowed there was retried in the same frame for ever (E4 at the stack's edge, found
     * by this scan in CI under load, where W took b1 late by chance; a hold makes it happen in every run).
     */
    static final long HOLD_NANOS = Long.getLong("holdMs", 0) * 1_000_000L;

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
                spinUntil(() -> b1Started, HOLD_NANOS > 0 ? 2_000_000_000L : 400_000_000L);
            }, () -> {
                b1Started = true;
                long start = System.nanoTime();
                while (System.nanoTime() - start < HOLD_NANOS) {
                    Thread.onSpinWait(); // T falls asleep on b1's latch meanwhile
                }
            });
        });
    }

    /**
     * E1's accounts, once {@code other} is quiet: how many injections were taken back, how many jobs still in its
     * injector nobody claimed (must be 0: a visible job its sleeping worker was never told about), {@code injected}
     * against {@code executed} (equal: every accepted job ran, no job taken back did), and whether the pool terminates
     * once shut down (every failed install gave its count back, though the give-back's call would overflow there).
     */
    static String accounts() throws Exception {
        Field f = ThreadPool.class.getDeclaredField("registry");
        f.setAccessible(true);
        Registry registry = (Registry) f.get(other);
        Field q = Registry.class.getDeclaredField("injector");
        q.setAccessible(true);
        long end = System.nanoTime() + 10_000_000_000L;
        PoolStats s = other.stats();
        while (s.injected() != s.jobsExecuted() && System.nanoTime() < end) {
            Thread.sleep(10);
            s = other.stats();
        }
        int unclaimed = 0;
        for (Object job : (Collection<?>) q.get(registry)) {
            unclaimed += ((InjectedJob) job).claimed ? 0 : 1;
        }
        other.shutdown();
        boolean terminated = other.awaitTermination(10, TimeUnit.SECONDS);
        return " withdrawn=" + registry.withdrawnInjections() + " unclaimed=" + unclaimed + " injected=" + s.injected()
                + " executed=" + s.jobsExecuted() + " terminated=" + terminated;
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
            if (!StackEdgeShims.endsInTime(t, n)) {
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
        String accounts = "";
        if (hangAt < 0) {
            accounts = accounts();
        }
        System.out.println("RESULT scanned=" + n + " hang=" + (hangAt >= 0) + " hangAt=" + hangAt
                + " reachedEdge=" + (n < MAX - 1 && outcome[n] == 4) + accounts);
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
