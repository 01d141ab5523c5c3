package io.spindle.bench.echo;

import io.spindle.bench.Stats;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The echo rows' load generator: a JVM of its own that loads a server the way independent clients do, one blocking
 * client thread per connection (issue 29). Each client sends a 64-byte request, reads the whole answer, checks it byte
 * for byte against the request, and only then sends the next (closed loop), or waits for its next slot on a fixed
 * schedule (paced). The clients do not coordinate: each answer wakes only its own client, so the server meets requests
 * as they arrive from many programs, not in the batches one multiplexing client makes (whose single {@code epoll_wait}
 * turns every ready answer into a burst of requests, which a selector server then reads in one wake-up). The server's
 * CPU is then the CPU of the server's process alone.
 *
 * <p>Driven over its standard input by {@link LoadGeneratorProcess}, one command a line, each answered with one line
 * on standard output ({@code error <message>} if it failed):
 * <ul>
 *   <li>{@code connect <port> <n>}: opens {@code n} connections to the loopback address, each served once (so the
 *       server has accepted them all before any measurement); answers {@code connected}.</li>
 *   <li>{@code pingpong <millis>}: every client in a closed loop until the window ends; answers
 *       {@code done <requests> <wall ns> <p50 ns> <p99 ns>}, round trips from just before a request's write to just
 *       after its answer's last byte.</li>
 *   <li>{@code paced <period µs> <requests>}: every client sends {@code requests} requests, one per period, the
 *       clients' schedules spread evenly over the period; answers as {@code pingpong}. A request sent late (its
 *       predecessor's answer came after it was due) is timed from when it was due.</li>
 *   <li>{@code close}: closes every connection; answers {@code closed}.</li>
 * </ul>
 * A server that does not answer a request within {@link #REPLY_TIMEOUT_MILLIS} fails the command: a lost wake-up in a
 * server becomes a failed run, not a hang.
 */
public final class LoadGenerator {
    static final int REPLY_TIMEOUT_MILLIS = 10_000;

    private final List<Client> clients = new ArrayList<>();

    private LoadGenerator() {}

    public static void main(String[] args) throws IOException {
        LoadGenerator generator = new LoadGenerator();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.US_ASCII);
        for (String line; (line = in.readLine()) != null; ) {
            String reply;
            try {
                reply = generator.command(line.trim().split(" +"));
            } catch (Exception | Error failure) {
                generator.closeAll();
                reply = "error " + String.valueOf(failure).replace('\n', ' ');
            }
            out.println(reply);
        }
        generator.closeAll();
    }

    private String command(String[] words) throws Exception {
        switch (words[0]) {
            case "connect" -> {
                connect(Integer.parseInt(words[1]), Integer.parseInt(words[2]));
                return "connected";
            }
            case "pingpong" -> {
                long window = Long.parseLong(words[1]) * 1_000_000L;
                return run((c, start) -> c.pingPong(start + window));
            }
            case "paced" -> {
                long period = Long.parseLong(words[1]) * 1_000L;
                int requests = Integer.parseInt(words[2]);
                if (period <= 0 || requests <= 0) {
                    throw new IllegalArgumentException("paced needs a period and a count above 0, got " + words[1]
                            + " µs and " + words[2]);
                }
                int n = clients.size();
                return run((c, start) -> c.paced(start + period * c.index / n, period, requests));
            }
            case "close" -> {
                closeAll();
                return "closed";
            }
            default -> throw new IllegalArgumentException("unknown command: " + String.join(" ", words));
        }
    }

    private void connect(int port, int n) throws IOException {
        if (!clients.isEmpty()) throw new IllegalStateException("already connected: " + clients.size());
        if (n <= 0) throw new IllegalArgumentException("connections must be above 0, got " + n);
        InetSocketAddress server = new InetSocketAddress("127.0.0.1", port);
        for (int i = 0; i < n; i++) {
            Client c = new Client(i, server);
            clients.add(c);
            c.roundTrip(Long.MAX_VALUE); // served once: accepted and read, before the next is opened
        }
    }

    private void closeAll() {
        for (Client c : clients) c.close();
        clients.clear();
    }

    private interface Phase {
        void run(Client client, long startNanos) throws IOException;
    }

    /** Runs {@code phase} on every client, each on a thread of its own, all from one start; sums up their times. */
    private String run(Phase phase) throws Exception {
        if (clients.isEmpty()) throw new IllegalStateException("not connected");
        CountDownLatch ready = new CountDownLatch(clients.size());
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long[] startAt = new long[1];
        List<Thread> threads = new ArrayList<>(clients.size());
        boolean[] abort = new boolean[1]; // published by go's count-down, as startAt is
        try {
            for (Client c : clients) {
                Thread t = new Thread(null, () -> {
                    try {
                        ready.countDown();
                        go.await();
                        if (!abort[0]) phase.run(c, startAt[0]);
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                        c.close(); // the server sees the client go; the others finish their phase
                    }
                }, "client-" + c.index, 256 * 1024);
                t.setDaemon(true); // a client left behind by a failure must not keep this process alive
                threads.add(t);
                t.start();
            }
            ready.await();
            startAt[0] = System.nanoTime(); // published to the clients by go's count-down
        } catch (Throwable startFailed) {
            abort[0] = true; // a thread did not start: those that did leave at once
            throw startFailed;
        } finally {
            go.countDown();
        }
        for (Thread t : threads) t.join();
        long wall = System.nanoTime() - startAt[0];
        if (failure.get() != null) {
            Throwable f = failure.get();
            throw f instanceof Exception e ? e : new IOException(f);
        }
        int total = 0;
        for (Client c : clients) total += c.count;
        long[] all = new long[total];
        int at = 0;
        for (Client c : clients) {
            System.arraycopy(c.latencies, 0, all, at, c.count);
            at += c.count;
        }
        if (total == 0) throw new IOException("no request was answered in the window");
        return "done " + total + " " + wall + " " + (long) Stats.percentile(all, 50) + " "
                + (long) Stats.percentile(all, 99);
    }

    /** One client: a connection and the thread-confined state of its requests. */
    private static final class Client {
        final int index;
        final Socket socket;
        final InputStream in;
        final OutputStream out;
        final byte[] sent = new byte[EchoServer.MESSAGE_BYTES];
        final byte[] received = new byte[EchoServer.MESSAGE_BYTES];
        long sequence;
        long[] latencies = new long[1 << 10];
        int count;

        Client(int index, InetSocketAddress server) throws IOException {
            this.index = index;
            this.socket = new Socket();
            try {
                socket.setTcpNoDelay(true);
                socket.setSoTimeout(REPLY_TIMEOUT_MILLIS);
                socket.connect(server, REPLY_TIMEOUT_MILLIS);
                this.in = socket.getInputStream();
                this.out = socket.getOutputStream();
            } catch (IOException | RuntimeException e) {
                socket.close();
                throw e;
            }
        }

        void pingPong(long endNanos) throws IOException {
            count = 0;
            while (System.nanoTime() - endNanos < 0) {
                record(roundTrip(Long.MAX_VALUE));
            }
        }

        void paced(long firstNanos, long periodNanos, int requests) throws IOException {
            count = 0;
            for (int k = 0; k < requests; k++) {
                long due = firstNanos + k * periodNanos;
                for (long left; (left = due - System.nanoTime()) > 0; ) {
                    LockSupport.parkNanos(left);
                }
                record(roundTrip(due));
            }
        }

        /**
         * @param dueNanos when the request was due: a request sent late (the answer before it came late) is timed
         *                 from then, so the wait it spent behind its predecessor counts (no coordinated omission)
         * @return the round trip of one request, ns
         */
        long roundTrip(long dueNanos) throws IOException {
            long seq = ++sequence;
            for (int k = 0; k < sent.length; k++) {
                sent[k] = (byte) (seq * 31 + index * 131 + k); // distinct per connection and request
            }
            long start = System.nanoTime();
            out.write(sent);
            int got = 0;
            while (got < received.length) {
                int n;
                try {
                    n = in.read(received, got, received.length - got);
                } catch (java.net.SocketTimeoutException e) {
                    throw new IOException("connection " + index + ": no answer to request " + seq + " within "
                            + REPLY_TIMEOUT_MILLIS + " ms (a lost wake-up in the server?)", e);
                }
                if (n < 0) throw new IOException("the server closed connection " + index);
                got += n;
            }
            long rtt = System.nanoTime() - Math.min(start, dueNanos);
            if (!Arrays.equals(received, sent)) {
                throw new IOException("connection " + index + ": the answer differs from request " + seq);
            }
            return rtt;
        }

        private void record(long rtt) {
            if (count == latencies.length) latencies = Arrays.copyOf(latencies, count * 2);
            latencies[count++] = rtt;
        }

        void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a loopback socket: nothing to do about a failure
            }
        }
    }
}
