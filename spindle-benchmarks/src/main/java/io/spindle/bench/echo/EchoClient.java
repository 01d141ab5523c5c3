package io.spindle.bench.echo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * The in-process client of the IO workloads ({@code echo-mux-16conn}, {@code echo-idle-50conn}, io-starvation and the
 * tests; the other echo rows use a {@link LoadGenerator} process), on the calling thread alone, driving any server the
 * same way: N loopback connections multiplexed by one selector, one 64-byte request in flight per connection
 * (ping-pong), each answer checked byte for byte against its request, each round trip timed from just before the
 * request's write to just after the last byte of its answer was read. Requests differ by connection and sequence
 * number, so an answer from the wrong connection or a stale one fails the run.
 *
 * <p>The client is closed-loop (the next request waits for the answer), so a slow answer delays the ones after it
 * instead of piling up; paced runs send on a fixed schedule and are far from saturation. One thread multiplexing every
 * connection sends the next requests of all the answers one select returned in a burst, which a selector server then
 * reads in one wake-up: it flatters such servers against a thread per connection (BENCHMARKS.md, issue 29).
 */
public final class EchoClient implements AutoCloseable {
    /** A server that has not answered for this long has lost a wake-up: fail rather than hang. */
    static final long REPLY_TIMEOUT_MILLIS = 10_000;

    private final Selector selector;
    private final SocketChannel[] channels;
    private final byte[][] sent;
    private final byte[][] received;
    private final ByteBuffer[] out;
    private final ByteBuffer[] in;
    private final long[] sequence;
    private final long[] sentAt;
    private long[] latencies = new long[1 << 12];
    private int count;
    private int inFlight;

    /**
     * The times of one run.
     *
     * @param latencies round trip of each answered request, ns, in order of arrival
     * @param wallNanos from the first request to the last answer
     */
    public record Outcome(long[] latencies, long wallNanos) {
        public int requests() {
            return latencies.length;
        }
    }

    private EchoClient(Selector selector, SocketChannel[] channels) {
        int n = channels.length;
        this.selector = selector;
        this.channels = channels;
        this.sent = new byte[n][EchoServer.MESSAGE_BYTES];
        this.received = new byte[n][EchoServer.MESSAGE_BYTES];
        this.out = new ByteBuffer[n];
        this.in = new ByteBuffer[n];
        this.sequence = new long[n];
        this.sentAt = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = ByteBuffer.wrap(sent[i]);
            in[i] = ByteBuffer.wrap(received[i]);
        }
    }

    /** Opens {@code connections} connections to {@code server}, each connected before the next is opened. */
    public static EchoClient connect(InetSocketAddress server, int connections) throws IOException {
        Selector selector = Selector.open();
        SocketChannel[] channels = new SocketChannel[connections];
        try {
            for (int i = 0; i < connections; i++) {
                SocketChannel ch = SocketChannel.open();
                channels[i] = ch;
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.connect(server);
                ch.configureBlocking(false);
                ch.register(selector, SelectionKey.OP_READ, i);
            }
        } catch (IOException | RuntimeException e) {
            for (SocketChannel ch : channels) {
                if (ch != null) ch.close();
            }
            selector.close();
            throw e;
        }
        return new EchoClient(selector, channels);
    }

    /** @return the number of connections */
    public int connections() {
        return channels.length;
    }

    /** Ping-pong on every connection until {@code windowNanos} have passed; then waits for the last answers. */
    public Outcome pingPong(long windowNanos) throws IOException {
        count = 0;
        long start = System.nanoTime();
        long end = start + windowNanos;
        for (int i = 0; i < channels.length; i++) send(i);
        while (inFlight > 0) awaitAnswers(true, end);
        return new Outcome(Arrays.copyOf(latencies, count), System.nanoTime() - start);
    }

    /**
     * One request on connection 0 every {@code periodNanos}, {@code requests} times, each sent on schedule (or at once
     * if the answer before it came late) and answered before the next.
     */
    public Outcome paced(long periodNanos, int requests) throws IOException {
        count = 0;
        long start = System.nanoTime();
        for (int k = 0; k < requests; k++) {
            for (long left; (left = start + k * periodNanos - System.nanoTime()) > 0; ) {
                LockSupport.parkNanos(left);
            }
            send(0);
            while (inFlight > 0) awaitAnswers(false, 0);
        }
        return new Outcome(Arrays.copyOf(latencies, count), System.nanoTime() - start);
    }

    /** @return the round trip of one request on connection {@code i}, ns */
    public long roundTrip(int i) throws IOException {
        count = 0;
        send(i);
        while (inFlight > 0) awaitAnswers(false, 0);
        return latencies[0];
    }

    private void send(int i) throws IOException {
        long seq = ++sequence[i];
        byte[] b = sent[i];
        for (int k = 0; k < b.length; k++) {
            b[k] = (byte) (seq * 31 + i * 131 + k); // distinct per connection and request
        }
        ByteBuffer buf = out[i];
        buf.clear();
        inFlight++;
        sentAt[i] = System.nanoTime();
        while (buf.hasRemaining()) {
            // 64 bytes always fit an empty send buffer; a zero write would mean the server stopped reading
            if (channels[i].write(buf) == 0) Thread.onSpinWait();
        }
    }

    /**
     * Reads what is ready; with {@code resend}, sends the next request on each connection whose answer is in, until
     * {@code end}.
     */
    private void awaitAnswers(boolean resend, long end) throws IOException {
        int ready;
        try {
            ready = selector.select(key -> {
                try {
                    readFrom((Integer) key.attachment(), resend, end);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, REPLY_TIMEOUT_MILLIS);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        if (ready == 0) {
            throw new IOException("no answer within " + REPLY_TIMEOUT_MILLIS + " ms (" + inFlight
                    + " requests in flight): a lost wake-up in the server?");
        }
    }

    private void readFrom(int i, boolean resend, long end) throws IOException {
        ByteBuffer buf = in[i];
        int n = channels[i].read(buf);
        if (n < 0) throw new IOException("the server closed connection " + i);
        if (buf.hasRemaining()) return;
        long now = System.nanoTime();
        if (!Arrays.equals(received[i], sent[i])) {
            throw new IOException("connection " + i + ": the answer differs from request " + sequence[i]);
        }
        buf.clear();
        inFlight--;
        if (count == latencies.length) latencies = Arrays.copyOf(latencies, count * 2);
        latencies[count++] = now - sentAt[i];
        if (resend && now - end < 0) send(i);
    }

    @Override
    public void close() throws IOException {
        for (SocketChannel ch : channels) ch.close();
        selector.close();
    }
}
