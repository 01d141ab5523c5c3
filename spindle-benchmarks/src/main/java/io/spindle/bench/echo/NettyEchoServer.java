package io.spindle.bench.echo;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * The {@code netty} server: Netty 4.2's NIO transport, one event-loop group of as many loops as the run has workers
 * (the listening channel on one of them, each connection on one), written as Netty's own echo example is, but
 * answering whole 64-byte messages like every other server here. echo-compute's computation goes to the
 * ForkJoinPool (an event loop must not run 100 µs of work, and Netty has no fork-join of its own); the pool's worker
 * then hands the answer back with {@code writeAndFlush}, which Netty runs on the connection's event loop.
 *
 * <p>Only this class names Netty, so the runner works without Netty on its class path (the
 * {@code netty} contender is then skipped with a note).
 */
final class NettyEchoServer implements EchoServer {
    private final EventLoopGroup group;
    private final Channel server;

    private NettyEchoServer(EventLoopGroup group, Channel server) {
        this.group = group;
        this.server = server;
    }

    static NettyEchoServer start(int threads, ForkJoinPool fjp, Compute compute) {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new Handler(fjp, compute));
                        }
                    })
                    .bind(InetAddress.getLoopbackAddress(), 0).syncUninterruptibly().channel();
            return new NettyEchoServer(group, server);
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    @Override
    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        // no quiet period: the run is over, and its connections go with the group
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** One connection's handler: gathers bytes into whole messages and answers each. */
    private static final class Handler extends ChannelInboundHandlerAdapter {
        private final ForkJoinPool fjp;
        private final Compute compute;
        private ByteBuf pending;

        Handler(ForkJoinPool fjp, Compute compute) {
            this.fjp = fjp;
            this.compute = compute;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            pending = ctx.alloc().buffer(MESSAGE_BYTES);
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            pending.release();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            try {
                pending.writeBytes(in);
            } finally {
                in.release();
            }
            while (pending.readableBytes() >= MESSAGE_BYTES) {
                // a copy, not a slice: discardReadBytes below moves what the slice would still point at
                ByteBuf answer = pending.readBytes(MESSAGE_BYTES);
                if (compute == null) {
                    ctx.write(answer); // flushed once per read burst, in channelReadComplete
                } else {
                    fjp.execute(() -> {
                        try {
                            compute.check(compute.onFjp(fjp));
                            ctx.writeAndFlush(answer);
                        } catch (RuntimeException e) {
                            answer.release();
                            ctx.close(); // the client sees the end of stream
                        }
                    });
                }
            }
            pending.discardReadBytes();
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
