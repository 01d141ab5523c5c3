package io.spindle;

import static io.spindle.IoFixtures.get;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Sleeping in the poller (docs/DESIGN.md §6, "Sleeping in the poller"): a worker that owns IO sleeps when idle and
 * wakes on its own IO; connections and data that arrive while every worker sleeps are served; idle workers with idle
 * connections go to sleep (stats().sleeps() grows) and the pool comes to rest; wake-ups are never counted more often
 * than sleeps. No timing assertions: "asleep" is waited for, under {@link IoFixtures#HANG}.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PoolIoSleepTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void connectionsArrivingWhileEveryWorkerSleepsAreAccepted(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            ServerSocketChannel server = p.server();
            for (int i = 0; i < 3; i++) {
                CompletableFuture<SocketChannel> accept = i == 1 ? p.pool.install(() -> p.io.accept(server))
                        : p.io.accept(server);
                p.awaitAllAsleep();
                assertFalse(accept.isDone(), "accept completed with no client");
                p.phase = "connect while asleep #" + i;
                SocketChannel client = p.closing(SocketChannel.open(server.getLocalAddress()));
                SocketChannel accepted = p.closing(get(accept, p.ctx()));
                assertEquals(client.getLocalAddress(), accepted.getRemoteAddress());

                // and data arriving on it while every worker sleeps
                CompletableFuture<byte[]> read = IoFixtures.readExactly(p.io, accepted, 3);
                p.awaitAllAsleep();
                p.phase = "data while asleep #" + i;
                IoFixtures.writeFully(client, new byte[] {1, 2, (byte) i});
                assertArrayEquals(new byte[] {1, 2, (byte) i}, get(read, p.ctx()));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void pipeDataArrivingWhileEveryWorkerSleepsIsRead(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            Pipe pipe = p.pipe();
            for (int i = 0; i < 3; i++) {
                int round = i;
                CompletableFuture<Integer> read = i == 1
                        ? p.pool.install(() -> p.io.read(pipe.source(), ByteBuffer.allocate(8)))
                        : p.io.read(pipe.source(), ByteBuffer.allocate(8));
                p.awaitAllAsleep();
                p.phase = "pipe write while asleep #" + round;
                pipe.sink().write(ByteBuffer.wrap(new byte[] {(byte) round}));
                assertEquals(1, get(read, p.ctx()));
            }
        }
    }

    /**
     * Echo traffic on 16 connections, then silence with every connection's read still pending: the workers go to
     * sleep (sleeps grows past a snapshot taken by a worker that was awake) and the pool comes to rest; then traffic
     * resumes. Repeated, so that sleeps and wake-ups race with IO readiness; wake-ups never outnumber sleeps.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void idleWorkersWithIdleConnectionsGoToSleep(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            ServerSocketChannel server = p.server();
            int n = 16;
            List<CompletableFuture<Void>> sessions = new CopyOnWriteArrayList<>();
            CompletableFuture<Void> accepted = PoolIoTest.acceptLoop(p.io, server, n, sessions);
            List<SocketChannel> clients = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                SocketChannel ch = p.closing(SocketChannel.open(server.getLocalAddress()));
                ch.configureBlocking(false);
                clients.add(ch);
            }
            get(accepted, p.ctx());
            for (int round = 0; round < 4; round++) {
                p.phase = "traffic round " + round;
                AtomicLong sleepsSeenAwake = new AtomicLong(-1);
                List<CompletableFuture<Void>> echoes = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    byte[] msg = IoFixtures.pattern(512, round * 100 + i);
                    SocketChannel ch = clients.get(i);
                    echoes.add(p.io.write(ch, ByteBuffer.wrap(msg))
                            .thenCompose(w -> IoFixtures.readExactly(p.io, ch, msg.length))
                            // async on the pool: a stage attached to an already completed future would run on
                            // this (test) thread, whose read can follow every worker's last sleep
                            .thenAcceptAsync(back -> {
                                if (!java.util.Arrays.equals(msg, back)) {
                                    throw new AssertionError("echo differs");
                                }
                                // on a worker that is awake now: it must sleep again later
                                sleepsSeenAwake.accumulateAndGet(p.pool.stats().sleeps(), Math::max);
                            }, p.pool));
                }
                get(CompletableFuture.allOf(echoes.toArray(CompletableFuture[]::new)), p.ctx());
                p.phase = "silence after round " + round;
                long snapshot = sleepsSeenAwake.get();
                Watchdog.awaitCondition(() -> p.pool.stats().sleeps() > snapshot, IoFixtures.HANG,
                        () -> "idle workers with idle connections never went to sleep (sleeps stuck at "
                                + snapshot + "); " + p.ctx().get());
                p.awaitAllAsleep();
                PoolStats s = p.pool.stats();
                assertTrue(s.wakeups() <= s.sleeps(), "more wake-ups counted than sleeps: " + s);
                for (CompletableFuture<Void> session : sessions) {
                    assertFalse(session.isDone(), "an echo session ended while its connection was idle: " + session);
                }
            }
        }
    }

    /**
     * docs/DESIGN.md §6: "idle workers with idle connections use no CPU". With reads pending on 8 idle connections and
     * every worker asleep, no worker's selector returns for 2.2 s: no poll is counted. (Before IO8's look moved to the
     * watchdog, a worker holding idle reads woke once a second to look for channels closed directly: 2 or 3 polls in
     * this window.) One poll is allowed for a select that an unrelated signal interrupts. Skipped when the watchdog is
     * turned off, as the owners then look themselves.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void idleWorkersWithIdleConnectionsDoNotWakeUp(TestPools.Config config) throws Exception {
        IoFixtures.assumeWatchdogOn("owners wake to look for closed channels themselves");
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            List<CompletableFuture<Integer>> reads = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                IoFixtures.Conn c = p.conn();
                // half placed from a worker (homed there), half from this thread (round robin over the workers)
                reads.add(i % 2 == 0 ? p.pool.install(() -> p.io.read(c.mine(), ByteBuffer.allocate(4)))
                        : p.io.read(c.mine(), ByteBuffer.allocate(4)));
            }
            p.awaitAllAsleep();
            // the reads placed from this thread reach their homes as interest requests that wake them: wait until no
            // poll was counted for 300 ms (a worker waking once a second still shows in the window below)
            long[] last = {p.pool.stats().ioPolls(), System.nanoTime()};
            Watchdog.awaitCondition(() -> {
                long now = p.pool.stats().ioPolls();
                if (now != last[0]) {
                    last[0] = now;
                    last[1] = System.nanoTime();
                }
                return System.nanoTime() - last[1] > 300_000_000L;
            }, IoFixtures.HANG, p.ctx());
            long polls = p.pool.stats().ioPolls();
            p.phase = "idle connections, every worker asleep";
            Thread.sleep(2_200);
            PoolStats s = p.pool.stats();
            assertTrue(s.ioPolls() - polls <= 1, () -> "workers with idle connections woke up: " + (s.ioPolls() - polls)
                    + " polls in 2.2 s; " + s);
            for (CompletableFuture<Integer> read : reads) {
                assertFalse(read.isDone(), "a read completed on an idle connection: " + read);
            }
        }
    }

    /** Many sleep / IO-wake cycles: each wake-up by IO readiness is served, and counted at most once. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void repeatedWakeUpsByIoReadiness(TestPools.Config config) throws Exception {
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            for (int i = 0; i < 12; i++) {
                CompletableFuture<Integer> read = p.io.read(c.mine(), ByteBuffer.allocate(4));
                p.awaitAllAsleep();
                PoolStats s = p.pool.stats();
                assertTrue(s.wakeups() <= s.sleeps(), "more wake-ups counted than sleeps: " + s);
                p.phase = "wake #" + i;
                // every other round a new-work notification races with the IO readiness
                if (i % 2 == 1) {
                    p.pool.spawn(() -> { });
                }
                IoFixtures.writeFully(c.peer(), new byte[] {(byte) i});
                assertEquals(1, get(read, p.ctx()));
            }
            p.awaitAllAsleep();
            PoolStats s = p.pool.stats();
            assertTrue(s.wakeups() <= s.sleeps(), "more wake-ups counted than sleeps: " + s);
        }
    }

    /**
     * IO7: IO that starts jobs holding IO more often than the watchdog ticks keeps it ticking (a tick after which an
     * owner woke by its own IO and a claim found the watchdog awake counts as a busy owner seen), and once such IO
     * stops and nothing is pending the watchdog still parks for good. A completion that places the next read and stays
     * busy for 20 ms makes the watchdog tick; then a chain of reads, each placed by the previous one's completion (a
     * claim while the watchdog is awake), served about every millisecond; then nothing. A watchdog that counted every
     * tick as new IO, or took neither of its two signals, would tick for ever from the chain on (those mutants fail
     * here; {@code IoWatchdogNewIoTest} checks the signals one by one, and whether the watchdog does keep ticking is a
     * cost, measured in BENCHMARKS.md, not asserted). Skipped when the watchdog is off.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.spindle.IoFixtures#configs")
    void theWatchdogParksForGoodOnceJobsWithIoStop(TestPools.Config config) throws Exception {
        IoFixtures.assumeWatchdogOn("no watchdog thread runs, to park or to tick");
        try (IoFixtures.IoPool p = new IoFixtures.IoPool(config)) {
            IoFixtures.Conn c = p.conn();
            BlockingQueue<CompletableFuture<Integer>> placed = new LinkedBlockingQueue<>();
            int chain = 30;
            p.phase = "a completion that places a read and stays busy";
            CompletableFuture<Integer> busyRead = p.io.read(c.mine(), ByteBuffer.allocate(4));
            busyRead.thenRun(() -> {
                placed.add(chainedRead(p.io, c.mine(), chain, placed));
                long end = System.nanoTime() + 20_000_000L;
                while (System.nanoTime() - end < 0) {
                    Thread.onSpinWait();
                }
            });
            IoFixtures.writeFully(c.peer(), new byte[] {1});
            assertEquals(1, get(busyRead, p.ctx()));
            for (int i = 0; i < chain; i++) {
                p.phase = "chained read #" + i;
                CompletableFuture<Integer> read = placed.poll(IoFixtures.HANG.toSeconds(), TimeUnit.SECONDS);
                assertNotNull(read, () -> "the previous completion never placed the next read: " + p.ctx().get());
                Thread.sleep(0, 500_000);
                IoFixtures.writeFully(c.peer(), new byte[] {(byte) i});
                assertEquals(1, get(read, p.ctx()));
            }

            p.phase = "nothing pending: the watchdog parks for good";
            Thread watchdog = IoFixtures.watchdogThread(p.pool, p.ctx());
            Watchdog.awaitCondition(() -> watchdog.getState() == Thread.State.WAITING, IoFixtures.HANG,
                    () -> "the watchdog never parked for good (state " + watchdog.getState() + "): " + p.ctx().get());
        }
    }

    /** A read whose completion (on the worker that completes it) places the next, {@code left} reads in all. */
    private static CompletableFuture<Integer> chainedRead(PoolIO io, SocketChannel channel, int left,
                                                         BlockingQueue<CompletableFuture<Integer>> placed) {
        CompletableFuture<Integer> read = io.read(channel, ByteBuffer.allocate(4));
        read.thenRun(() -> {
            if (left > 1) {
                placed.add(chainedRead(io, channel, left - 1, placed));
            }
        });
        return read;
    }
}
