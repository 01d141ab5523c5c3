package io.spindle.bench.echo;

import io.spindle.bench.PoolKind;
import io.spindle.bench.Target;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The load generator process (issue 29) counts what its clients were answered and refuses wrong answers: a paced
 * phase answers exactly connections x requests, a ping-pong phase at least one request per connection, and a server
 * that changes one byte of one answer fails the phase with the connection named. The process is reused across
 * servers, as the runner reuses it. No timing is asserted.
 */
class LoadGeneratorTest {
    @Test
    void countsEveryAnswerOfEveryClient() throws Exception {
        try (LoadGeneratorProcess generator = LoadGeneratorProcess.start()) {
            for (PoolKind kind : new PoolKind[] {PoolKind.PLATFORM_THREADS, PoolKind.SPINDLE_JEC}) {
                if (kind.isSpindle() && EchoServer.spindleUnavailableReason().isPresent()) continue;
                try (Target t = Target.open(kind, 2); EchoServer server = EchoServer.start(t, null)) {
                    generator.connect(server.address(), 3);
                    LoadGeneratorProcess.Outcome paced = generator.paced(TimeUnit.MILLISECONDS.toNanos(1), 4);
                    assertEquals(12, paced.requests(), kind.id());
                    assertTrue(paced.p50Nanos() > 0 && paced.p99Nanos() >= paced.p50Nanos(), paced.toString());
                    LoadGeneratorProcess.Outcome busy = generator.pingPong(TimeUnit.MILLISECONDS.toNanos(30));
                    assertTrue(busy.requests() >= 3 && busy.wallNanos() > 0, busy.toString());
                    generator.disconnect();
                }
            }
        }
    }

    @Test
    void aWrongAnswerFailsThePhase() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
             LoadGeneratorProcess generator = LoadGeneratorProcess.start()) {
            Thread server = new Thread(() -> echoCorruptingTheThird(listener));
            server.setDaemon(true);
            server.start();
            generator.connect(new InetSocketAddress(listener.getInetAddress(), listener.getLocalPort()), 1);
            IOException failure = assertThrows(IOException.class,
                    () -> generator.paced(TimeUnit.MILLISECONDS.toNanos(1), 5));
            assertTrue(failure.getMessage().contains("connection 0: the answer differs from request 3"),
                    failure.getMessage());
        }
    }

    /** Echoes 64-byte messages on one connection, with one byte of the third changed. */
    private static void echoCorruptingTheThird(ServerSocket listener) {
        try (Socket s = listener.accept()) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            byte[] message = new byte[EchoServer.MESSAGE_BYTES];
            for (int k = 1; in.readNBytes(message, 0, message.length) == message.length; k++) {
                if (k == 3) message[7] ^= 1;
                out.write(message);
            }
        } catch (IOException closed) {
            // the generator closed the connection
        }
    }
}
