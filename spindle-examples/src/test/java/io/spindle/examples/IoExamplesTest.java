package io.spindle.examples;

import io.spindle.ThreadPool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The examples served by the pool's IO ({@link EchoServer}, {@link OnPoolPrimeService}), each on an ephemeral port,
 * driven by plain blocking clients. No timing is asserted: socket timeouts are generous and only turn a hang into a
 * failure.
 */
class IoExamplesTest {
    /** How long a client waits for one read before the test fails instead of hanging. */
    private static final int CLIENT_TIMEOUT_MILLIS = 60_000;
    private static ThreadPool pool;

    @BeforeAll
    static void startPool() {
        pool = ThreadPool.builder().threads(2).threadName(i -> "io-test-" + i).build();
    }

    @AfterAll
    static void closePool() {
        pool.close();
    }

    private record Outcome(int code, String out, String err) {}

    private interface Program {
        int run(String[] args, PrintStream out, PrintStream err) throws Exception;
    }

    private static Outcome run(Program program, String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = program.run(args, o, e);
        }
        return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Socket connect(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(CLIENT_TIMEOUT_MILLIS);
        return socket;
    }

    // ---- echo

    @Test
    void echoReturnsEveryByteOnManyConnectionsAtOnce() throws Exception {
        int connections = 8;
        ExecutorService clients = Executors.newCachedThreadPool();
        try (EchoServer echo = new EchoServer(pool, 0)) {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < connections; c++) {
                // Sizes from one byte to far more than a socket buffer holds, so that the server's reads and writes
                // come in pieces; the client writes on one thread and reads on another, or both sides could block.
                byte[] sent = new byte[c == 0 ? 1 : 40_000 * c];
                new Random(c).nextBytes(sent);
                done.add(clients.submit(() -> {
                    try (Socket socket = connect(echo.port())) {
                        Future<?> writer = clients.submit(() -> {
                            OutputStream out = socket.getOutputStream();
                            for (int from = 0; from < sent.length; from += 7_000) {
                                out.write(sent, from, Math.min(7_000, sent.length - from));
                            }
                            socket.shutdownOutput(); // end of stream: the server closes its side in answer
                            return null;
                        });
                        byte[] back = socket.getInputStream().readAllBytes(); // up to the server's close
                        writer.get();
                        assertArrayEquals(sent, back, "echo of " + sent.length + " bytes");
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            clients.shutdownNow();
        }
    }

    @Test
    void echoCloseEndsOpenConnections() throws Exception {
        EchoServer echo = new EchoServer(pool, 0);
        try (Socket socket = connect(echo.port())) {
            socket.getOutputStream().write('x');
            assertEquals('x', socket.getInputStream().read());
            echo.close(); // through io.close: the connection's pending read fails at once and the socket closes
            assertEquals(-1, socket.getInputStream().read());
        } finally {
            echo.close();
        }
    }

    @Test
    void echoRunPrintsWhatCameBack() throws Exception {
        Outcome r = run(EchoServer::run, "hello", "pool");
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(0).startsWith("echo server on port "), lines.get(0));
        assertEquals(List.of("sent 'hello', got back 'hello'", "sent 'pool', got back 'pool'"), lines.subList(1, 3));
        assertEquals(2, run(EchoServer::run, "--serve", "port").code());
    }

    /** A server's {@code serve} on its own pool, in a thread of its own: the pool's workers are daemons. */
    private static final class Serving implements AutoCloseable {
        final ThreadPool servingPool = ThreadPool.builder().threads(2).build();
        final ByteArrayOutputStream printed = new ByteArrayOutputStream();
        final Future<?> served;
        final ExecutorService thread = Executors.newSingleThreadExecutor();
        private static final Pattern PORT = Pattern.compile("127\\.0\\.0\\.1:(\\d+)");

        interface Serve {
            void serve(ThreadPool pool, int port, PrintStream out) throws Exception;
        }

        Serving(Serve serve) {
            PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
            served = thread.submit(() -> {
                serve.serve(servingPool, 0, out);
                return null;
            });
        }

        /** The port its first line names, once printed. */
        int port() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // turns a hang into a failure
            while (System.nanoTime() < deadline) {
                String text = printed.toString(StandardCharsets.UTF_8); // ByteArrayOutputStream: synchronized
                Matcher m = PORT.matcher(text);
                if (m.find()) {
                    return Integer.parseInt(m.group(1));
                }
                assertTrue(!served.isDone(), "serve returned before it printed its port: " + text);
                Thread.sleep(10);
            }
            throw new AssertionError("serve printed no port in 60 s");
        }

        /** Closing the pool is what ends serve: it must then return, without failure. */
        @Override
        public void close() throws Exception {
            servingPool.close();
            served.get(60, TimeUnit.SECONDS);
            thread.shutdown();
        }
    }

    @Test
    void echoServeServesUntilThePoolIsClosed() throws Exception {
        try (Serving serving = new Serving(EchoServer::serve)) {
            try (Socket socket = connect(serving.port())) {
                socket.getOutputStream().write("still here".getBytes(StandardCharsets.UTF_8));
                assertEquals("still here",
                        new String(socket.getInputStream().readNBytes(10), StandardCharsets.UTF_8));
            }
            // --serve used to return right after printing: a main on daemon workers then ended the JVM at once
            assertTrue(!serving.served.isDone(), "serve returned while its pool was open");
        }
    }

    @Test
    void onPoolServiceServeServesUntilThePoolIsClosed() throws Exception {
        try (Serving serving = new Serving(OnPoolPrimeService::serve)) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            URI uri = URI.create("http://127.0.0.1:" + serving.port() + "/primes?below=100");
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(r.body().startsWith("25 primes below 100;"), r.body());
            assertTrue(!serving.served.isDone(), "serve returned while its pool was open");
        }
    }

    // ---- service-io

    @Test
    void onPoolServiceAnswersEveryRequestWithWorkDoneOnThePool() throws Exception {
        Outcome r = run(OnPoolPrimeService::run, "4", "50000");
        assertEquals(0, r.code(), r.err());
        List<String> answers = r.out().lines().skip(1).toList();
        assertEquals(4, answers.size(), r.out());
        // pi(50000) = 5133, and none of 50000..50002 is prime, so every request's answer is the same count.
        for (String answer : answers) {
            assertTrue(answer.startsWith("5133 primes below 5000"), answer);
            // Served and counted by the same pool: there are no request threads.
            assertTrue(answer.matches(".*served by pool-\\d+, counted by \\[pool-\\d+.*"), answer);
        }
    }

    @Test
    void onPoolServiceKeepsAConnectionForManyRequests() throws Exception {
        try (OnPoolPrimeService service = new OnPoolPrimeService(pool, 0)) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            // One after another on the same client: each answer comes back on a kept-alive connection.
            for (int below : new int[] {0, 3, 100, 1000, 200_000}) {
                URI uri = URI.create("http://127.0.0.1:" + service.port() + "/primes?below=" + below);
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), r.body());
                long expected = switch (below) {
                    case 0 -> 0;
                    case 3 -> 1;
                    case 100 -> 25;
                    case 1000 -> 168;
                    default -> 17_984;
                };
                assertTrue(r.body().startsWith(expected + " primes below " + below + "; served by io-test-"),
                        r.body());
            }
        }
    }

    @Test
    void onPoolServiceAnswersPipelinedRequestsInOrderAndHonoursConnectionClose() throws Exception {
        try (OnPoolPrimeService service = new OnPoolPrimeService(pool, 0);
             Socket socket = connect(service.port())) {
            // Three requests in one write (the second with an empty body), the last asking to close.
            String requests = "GET /primes?below=100 HTTP/1.1\r\nHost: test\r\n\r\n"
                    + "GET /primes?below=1000 HTTP/1.1\r\nHost: test\r\nContent-Length: 0\r\n\r\n"
                    + "GET /primes?below=10 HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n";
            socket.getOutputStream().write(requests.getBytes(StandardCharsets.US_ASCII));
            String answers = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8); // to EOF
            String[] responses = answers.split("(?=HTTP/1\\.1 )");
            assertEquals(3, responses.length, answers);
            assertTrue(responses[0].startsWith("HTTP/1.1 200 OK\r\n"), responses[0]);
            assertTrue(responses[0].contains("\r\n\r\n25 primes below 100;"), responses[0]);
            assertTrue(responses[1].contains("\r\n\r\n168 primes below 1000;"), responses[1]);
            assertTrue(responses[2].contains("Connection: close\r\n"), responses[2]);
            assertTrue(responses[2].contains("\r\n\r\n4 primes below 10;"), responses[2]);
            int length = Integer.parseInt(responses[0].replaceAll("(?s).*Content-Length: (\\d+)\r\n.*", "$1"));
            assertEquals(length, responses[0].substring(responses[0].indexOf("\r\n\r\n") + 4).length());
        }
    }

    @Test
    void onPoolServiceAnswersHeadsSentByteByByte() throws Exception {
        try (OnPoolPrimeService service = new OnPoolPrimeService(pool, 0);
             Socket socket = connect(service.port())) {
            socket.setTcpNoDelay(true); // each byte its own segment, so the server reads the head in many pieces
            OutputStream out = socket.getOutputStream();
            for (byte b : "GET /primes?below=30 HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)) {
                out.write(b);
                out.flush();
            }
            // HTTP/1.0 without keep-alive: the server closes after the answer.
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer);
            assertTrue(answer.contains("\r\n\r\n10 primes below 30; served by io-test-"), answer);
        }
    }

    @Test
    void onPoolServiceRejectsWhatItDoesNotServe() throws Exception {
        try (OnPoolPrimeService service = new OnPoolPrimeService(pool, 0)) {
            int port = service.port();
            // Kept-alive errors: the connection answers the next request after them.
            String answers = exchange(port, "GET /nope HTTP/1.1\r\n\r\n"
                    + "DELETE /primes?below=5 HTTP/1.1\r\n\r\n"
                    + "GET /primes?below=-1 HTTP/1.1\r\n\r\n");
            assertTrue(answers.startsWith("HTTP/1.1 404 Not Found\r\n"), answers);
            assertTrue(answers.contains("HTTP/1.1 405 Method Not Allowed\r\n"), answers);
            assertTrue(answers.contains("HTTP/1.1 400 Bad Request\r\n"), answers);
            assertTrue(answers.contains("below must be in 0.."), answers);
            // A body, or no HTTP at all: answered 400 and closed, whatever follows.
            String body = exchange(port, "POST /primes?below=5 HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"
                    + "GET /primes?below=5 HTTP/1.1\r\n\r\n");
            assertTrue(body.startsWith("HTTP/1.1 400 Bad Request\r\n"), body);
            assertTrue(body.contains("request bodies are not supported"), body);
            assertEquals(1, body.split("HTTP/1\\.1 ", -1).length - 1, body);
            String garbage = exchange(port, "hello\r\n\r\n");
            assertTrue(garbage.startsWith("HTTP/1.1 400 Bad Request\r\n"), garbage);
            // A buffer's worth with no end of head: all of it read (so the close sends no reset), none of it answered.
            byte[] huge = new byte[OnPoolPrimeService.MAX_HEAD_BYTES];
            Arrays.fill(huge, (byte) 'a');
            String tooLong = exchange(port, new String(huge, StandardCharsets.US_ASCII));
            assertTrue(tooLong.startsWith("HTTP/1.1 431 "), tooLong);
        }
    }

    @Test
    void onPoolServiceRejectsBadArguments() throws Exception {
        assertEquals(2, run(OnPoolPrimeService::run, "many").code());
        assertEquals(2, run(OnPoolPrimeService::run, "--serve", "port").code());
        Outcome r = run(OnPoolPrimeService::run, "1", "2", "3");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("usage: bin/spindle-examples service-io"), r.err());
    }

    /**
     * Sends {@code requests} on a new connection, half-closes it (no more requests) and returns everything the server
     * wrote up to its close.
     */
    private static String exchange(int port, String requests) throws IOException {
        try (Socket socket = connect(port)) {
            socket.getOutputStream().write(requests.getBytes(StandardCharsets.US_ASCII));
            socket.shutdownOutput();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
