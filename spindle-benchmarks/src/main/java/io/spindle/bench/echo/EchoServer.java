package io.spindle.bench.echo;

import io.spindle.bench.PoolKind;
import io.spindle.bench.Target;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadFactory;

/**
 * A loopback echo server of the IO workloads (issue 15): answers each {@link #MESSAGE_BYTES}-byte message on a
 * connection with the same bytes, after running echo-compute's {@link Compute} when it has one. One per contender:
 * Spindle's pool with {@code ThreadPool.io()}, and the designs Java users have today ({@link PoolKind#isIoServer()}).
 * Every server handles a message only once all its bytes are in, and answers with one write: the same work per
 * request everywhere, so that the numbers compare the designs, not the handlers.
 */
public interface EchoServer extends AutoCloseable {
    /** The size of a request and of its answer: 64 bytes (issue 15). */
    int MESSAGE_BYTES = 64;

    /** @return the loopback address the server listens on */
    InetSocketAddress address();

    /** Stops accepting, closes every connection and ends the server's own threads; idempotent. */
    @Override
    void close();

    /**
     * Starts the server of {@code t}'s kind: Spindle's on {@code t}'s pool; a baseline with {@code t}'s ForkJoinPool
     * for the computation, and (Netty) {@code t.threads()} event loops.
     *
     * @param compute the work each request runs before it is answered, or null for a plain echo
     */
    static EchoServer start(Target t, Compute compute) throws IOException {
        PoolKind kind = t.kind();
        ForkJoinPool fjp = kind.isSpindle() ? null : t.fjp();
        return switch (kind) {
            case PLATFORM_THREADS -> ThreadPerConnectionEchoServer.start(platformThreads(), fjp, compute);
            case VIRTUAL_THREADS -> ThreadPerConnectionEchoServer.start(VirtualThreads.factory(), fjp, compute);
            case SELECTOR_FJP -> SelectorFjpEchoServer.start(fjp, compute);
            case NETTY -> NettyEchoServer.start(t.threads(), fjp, compute);
            default -> {
                if (!kind.isSpindle()) throw new IllegalArgumentException(kind.id() + " has no echo server");
                yield SpindleEchoServer.start(t.spindle(), compute);
            }
        };
    }

    /**
     * @return why this build's Spindle pools cannot serve the IO workloads ({@code ThreadPool.io()} throws {@code
     *         UnsupportedOperationException} until the engine lands), or empty when they can; asked once
     */
    static Optional<String> spindleUnavailableReason() {
        return SpindleEchoServer.UNAVAILABLE_REASON;
    }

    private static ThreadFactory platformThreads() {
        return r -> {
            Thread t = new Thread(r, "echo-platform");
            t.setDaemon(true); // a server left open by a failed run must not keep the runner's JVM alive
            return t;
        };
    }
}
