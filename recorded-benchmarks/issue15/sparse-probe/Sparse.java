import io.spindle.*;
import java.net.*;
import java.nio.*;
import java.nio.channels.*;
import java.util.*;
import java.util.concurrent.*;

/** Sparse echo probe. server <strategy|platform> <port> | client <port> <requests> <intervalMicros> */
public class Sparse {
    public static void main(String[] a) throws Exception {
        if (a[0].equals("server")) server(a[1], Integer.parseInt(a[2]));
        else client(Integer.parseInt(a[1]), Integer.parseInt(a[2]), Integer.parseInt(a[3]));
    }

    static void server(String kind, int port) throws Exception {
        ServerSocketChannel ss = ServerSocketChannel.open();
        ss.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        if (kind.equals("platform")) {
            while (true) {
                SocketChannel c = ss.accept();
                new Thread(() -> {
                    ByteBuffer b = ByteBuffer.allocate(64);
                    try { while (true) { b.clear(); if (c.read(b) < 0) return; b.flip(); while (b.hasRemaining()) c.write(b); } }
                    catch (Exception e) { }
                }).start();
            }
        }
        ThreadPool pool = ThreadPool.builder().sleepStrategy(SleepStrategy.valueOf(kind)).threads(2).build();
        PoolIO io = pool.io();
        ss.configureBlocking(false);
        acceptLoop(io, ss);
        Thread.sleep(Long.MAX_VALUE);
    }

    static void acceptLoop(PoolIO io, ServerSocketChannel ss) {
        io.accept(ss).thenAccept(c -> {
            try { c.configureBlocking(false); c.setOption(StandardSocketOptions.TCP_NODELAY, true); } catch (Exception e) { }
            echo(io, c, ByteBuffer.allocate(64));
            acceptLoop(io, ss);
        });
    }

    static void echo(PoolIO io, SocketChannel c, ByteBuffer b) {
        b.clear();
        io.read(c, b).thenCompose(n -> { if (n < 0) return CompletableFuture.failedFuture(new ClosedChannelException()); b.flip(); return io.write(c, b); })
          .thenAccept(w -> echo(io, c, b));
    }

    static void client(int port, int n, int intervalMicros) throws Exception {
        SocketChannel c = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        c.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ByteBuffer out = ByteBuffer.allocate(64), in = ByteBuffer.allocate(64);
        long[] rtt = new long[n];
        long next = System.nanoTime();
        for (int i = 0; i < n; i++) {
            next += intervalMicros * 1000L;
            while (System.nanoTime() < next) LockSupportPark.parkUntil(next);
            long t0 = System.nanoTime();
            out.clear(); c.write(out);
            in.clear(); while (in.hasRemaining()) c.read(in);
            rtt[i] = System.nanoTime() - t0;
        }
        Arrays.sort(rtt);
        System.out.printf("p50 %.1f us p99 %.1f us%n", rtt[n / 2] / 1e3, rtt[n * 99 / 100] / 1e3);
        c.close();
    }

    static final class LockSupportPark {
        static void parkUntil(long deadline) {
            long d = deadline - System.nanoTime();
            if (d > 50_000) java.util.concurrent.locks.LockSupport.parkNanos(d - 50_000);
        }
    }
}
