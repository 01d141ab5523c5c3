package io.spindle.bench.echo;

import io.spindle.ThreadPool;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * io-starvation's measurement (docs/DESIGN.md §6, "Busy owners"): one connection to the Spindle
 * echo server; once its next read is pending, the worker that issued that read (its owner, whose poller holds it)
 * runs a long task, a broadcast copy that only that worker's index spins in; a tenth into the task the client sends
 * a request and times its round trip. Without a hand-off to another worker the answer waits for the task's end.
 */
public final class Starvation {
    private Starvation() {}

    /**
     * @param busyNanos how long the owner stays busy
     * @return the round trip of the request sent while the owner was busy, ns
     */
    public static long delayNanos(ThreadPool pool, long busyNanos) throws IOException, InterruptedException {
        try (SpindleEchoServer server = SpindleEchoServer.start(pool, null);
             EchoClient client = EchoClient.connect(server.address(), 1)) {
            for (int i = 0; i < 10; i++) client.roundTrip(0);
            // the answer's write completes before its stage issues the next read: wait for that read
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (server.readsIssued() < 11) {
                if (System.nanoTime() - deadline > 0) throw new IOException("the server issued no next read in 5 s");
                Thread.onSpinWait();
            }
            int owner = server.lastReadWorker();
            if (owner < 0) throw new IllegalStateException("the pending read was issued off the pool");
            CountDownLatch busy = new CountDownLatch(1);
            Thread occupier = new Thread(() -> pool.broadcast(ctx -> {
                if (ctx.index() == owner) {
                    busy.countDown();
                    long end = System.nanoTime() + busyNanos;
                    while (System.nanoTime() - end < 0) Thread.onSpinWait();
                }
                return null;
            }), "io-starvation-occupier");
            occupier.start();
            if (!busy.await(5, TimeUnit.SECONDS)) throw new IllegalStateException("the owner never started its task");
            long sendAt = System.nanoTime() + busyNanos / 10;
            for (long left; (left = sendAt - System.nanoTime()) > 0; ) LockSupport.parkNanos(left);
            long delay = client.roundTrip(0);
            occupier.join();
            return delay;
        }
    }
}
