package io.spindle.internal.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;

/** The five kinds of {@link IoOp}, one non-blocking step each (the operations of docs/DESIGN.md §6). */
final class IoOps {
    private IoOps() {}

    /** {@code read}: at least one byte, or -1 at the end of the stream. */
    static final class Read extends IoOp<Integer> {
        private final ReadableByteChannel source;
        private final ByteBuffer dst;

        Read(ChannelState channel, PoolIoImpl io, ReadableByteChannel source, ByteBuffer dst) {
            super(channel, io);
            this.source = source;
            this.dst = dst;
        }

        @Override
        int interest() {
            return READ;
        }

        @Override
        boolean attempt() throws IOException {
            int n = source.read(dst); // non-blocking: 0 when nothing is there yet
            if (n == 0) {
                return false;
            }
            result = n;
            return true;
        }
    }

    /** {@code write}: all of the buffer's remaining bytes, in as many steps as the channel takes them. */
    static final class Write extends IoOp<Integer> {
        private final WritableByteChannel sink;
        private final ByteBuffer src;
        private int written;

        Write(ChannelState channel, PoolIoImpl io, WritableByteChannel sink, ByteBuffer src) {
            super(channel, io);
            this.sink = sink;
            this.src = src;
        }

        @Override
        int interest() {
            return WRITE;
        }

        @Override
        boolean attempt() throws IOException {
            while (src.hasRemaining()) {
                int n = sink.write(src); // non-blocking: 0 when the channel's buffer is full
                if (n == 0) {
                    return false;
                }
                written += n;
            }
            result = written;
            return true;
        }
    }

    /** {@code accept}: the next connection, switched to non-blocking mode before anyone sees it. */
    static final class Accept extends IoOp<SocketChannel> {
        private final ServerSocketChannel server;

        Accept(ChannelState channel, PoolIoImpl io, ServerSocketChannel server) {
            super(channel, io);
            this.server = server;
        }

        @Override
        int interest() {
            return ACCEPT;
        }

        @Override
        boolean attempt() throws IOException {
            SocketChannel accepted = server.accept(); // non-blocking: null when nobody is waiting
            if (accepted == null) {
                return false;
            }
            try {
                accepted.configureBlocking(false);
            } catch (Throwable failure) {
                closeQuietly(accepted, failure); // never leak a connection the caller will not see
                throw failure;
            }
            result = accepted;
            return true;
        }

        /** IO11: an accepted connection whose future was completed another way is closed, never leaked. */
        @Override
        void discard(SocketChannel undelivered) {
            try {
                undelivered.close();
            } catch (IOException | RuntimeException ignored) {
                // nobody holds it: a failure to close has nobody to go to either
            }
        }

        /** Closes a connection the caller will not see; a failure to close goes with the failure that caused it. */
        private static void closeQuietly(SocketChannel accepted, Throwable cause) {
            try {
                accepted.close();
            } catch (Throwable closing) {
                if (closing != cause) {
                    cause.addSuppressed(closing);
                }
            }
        }
    }

    /** {@code connect}: the connection the call started finishes. */
    static final class Connect extends IoOp<Void> {
        private final SocketChannel socket;

        Connect(ChannelState channel, PoolIoImpl io, SocketChannel socket) {
            super(channel, io);
            this.socket = socket;
        }

        @Override
        int interest() {
            return CONNECT;
        }

        @Override
        boolean attempt() throws IOException {
            return socket.finishConnect(); // throws the connection's failure (ConnectException, ...)
        }
    }

    /** {@code ready}: readiness for any of its bits, no IO. */
    static final class Ready extends IoOp<Void> {
        private final int ops;
        /** Set by the poller before the attempt: the bits the selection reported (0: an attempt at the call). */
        int readyOps;

        Ready(ChannelState channel, PoolIoImpl io, int ops) {
            super(channel, io);
            this.ops = ops;
        }

        @Override
        int interest() {
            return ops;
        }

        @Override
        boolean attempt() {
            return (readyOps & ops) != 0;
        }
    }
}
