package io.spindle.examples;

import io.spindle.PoolIO;
import io.spindle.ThreadPool;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectableChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * {@link PrimeService} served entirely by the pool: the same {@code GET /primes?below=N}, but accepting, reading,
 * parsing, counting and writing all run on the pool's workers through {@link ThreadPool#io()}. There are no request
 * threads to hand work over from, and no hand-off: the worker that parsed a request counts the primes itself with
 * {@code join} (the other workers steal halves of the count) and writes the answer. An open connection that waits for
 * its next request is a channel and a buffer, not a parked thread.
 *
 * <p>Plain HTTP/1.1, enough for curl and {@link java.net.http.HttpClient}: persistent connections (keep-alive, the
 * default in HTTP/1.1; {@code Connection: close} ends one after its answer; HTTP/1.0 closes unless it asks for
 * keep-alive), pipelined requests, and no request bodies (a request with one is answered 400 and its connection
 * closed).
 *
 * <pre>
 * bin/spindle-examples service-io [REQUESTS [BELOW]]   as bin/spindle-examples service: starts the service on a free
 *                                                     local port, sends it REQUESTS concurrent requests, prints the
 *                                                     answers and stops
 * bin/spindle-examples service-io --serve PORT         serves on 127.0.0.1:PORT until interrupted (try curl)
 * </pre>
 */
public final class OnPoolPrimeService implements AutoCloseable {
    /** A request's line and headers must fit in a connection's buffer; a longer head is answered 431. */
    static final int MAX_HEAD_BYTES = 8192;
    private static final byte[] HEAD_END = {'\r', '\n', '\r', '\n'};

    private final ThreadPool pool;
    private final PoolIO io;
    private final ServerSocketChannel server;
    private final Set<SocketChannel> connections = ConcurrentHashMap.newKeySet();

    /** Serves on 127.0.0.1:{@code port} (0: any free port) with {@code pool}'s workers, until {@link #close}. */
    OnPoolPrimeService(ThreadPool pool, int port) throws IOException {
        this.pool = pool;
        this.io = pool.io();
        // Loopback only: an example has no business listening on the network.
        server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", port));
        server.configureBlocking(false);
        acceptNext();
    }

    int port() throws IOException {
        return ((InetSocketAddress) server.getLocalAddress()).getPort();
    }

    private void acceptNext() {
        io.accept(server).whenComplete((connection, failure) -> {
            if (failure != null) {
                return; // close() closed the server channel, or the pool shut down: accept no more
            }
            acceptNext();
            connections.add(connection);
            serve(connection, ByteBuffer.allocate(MAX_HEAD_BYTES));
        });
    }

    /**
     * Answers the request at the start of {@code in} (which holds the bytes read and not yet answered, in write mode)
     * if all of its head is there, else reads more first; then comes back for the next request on the connection.
     * Runs on a worker.
     */
    private void serve(SocketChannel connection, ByteBuffer in) {
        int headLength = headLength(in);
        if (headLength < 0) {
            if (!in.hasRemaining()) {
                answerAndClose(connection, 431, "request head over " + MAX_HEAD_BYTES + " bytes\n");
                return;
            }
            // Async on the pool: data already waiting may complete the read at once, and nested callbacks would
            // grow the stack with every request of a long keep-alive connection.
            io.read(connection, in).whenCompleteAsync((n, failure) -> {
                if (failure == null && n >= 0) {
                    serve(connection, in);
                } else { // the client closed between requests (-1), or the connection failed
                    close(connection);
                }
            }, pool);
            return;
        }
        String head = new String(in.array(), 0, headLength, StandardCharsets.ISO_8859_1); // HTTP heads are bytes
        in.flip().position(headLength);
        in.compact(); // a pipelined next request, if any, moves to the front
        Request request;
        try {
            request = Request.parse(head);
        } catch (IllegalArgumentException e) {
            answerAndClose(connection, 400, "bad request: " + e.getMessage() + "\n");
            return;
        }
        Response response = answer(request);
        boolean keepAlive = request.keepAlive() && response.status() != 400;
        io.write(connection, response.bytes(keepAlive)).whenCompleteAsync((n, failure) -> {
            if (failure == null && keepAlive) {
                serve(connection, in);
            } else {
                close(connection);
            }
        }, pool);
    }

    /** Where the work is: on a worker, so {@code countPrimes}'s {@code join} splits the count over this pool. */
    private static Response answer(Request request) {
        if (request.hasBody()) {
            return new Response(400, "bad request: request bodies are not supported\n");
        }
        if (!request.method().equals("GET")) {
            return new Response(405, "only GET\n");
        }
        String target = request.target();
        int question = target.indexOf('?');
        if (!(question < 0 ? target : target.substring(0, question)).equals("/primes")) {
            return new Response(404, "not found: try /primes?below=N\n");
        }
        int below;
        try {
            below = PrimeService.parseBelow(question < 0 ? null : target.substring(question + 1));
        } catch (NumberFormatException e) {
            return new Response(400, "bad request: " + e.getMessage() + "\n");
        }
        Set<String> workers = ConcurrentHashMap.newKeySet();
        long count = PrimeService.countPrimes(2, below, workers);
        return new Response(200, String.format("%d primes below %d; served by %s, counted by %s%n",
                count, below, Thread.currentThread().getName(), new TreeSet<>(workers)));
    }

    private void answerAndClose(SocketChannel connection, int status, String body) {
        io.write(connection, new Response(status, body).bytes(false))
                .whenComplete((n, failure) -> close(connection));
    }

    /** The length of the head at the start of {@code in} (up to and including its empty line), or -1 if incomplete. */
    private static int headLength(ByteBuffer in) {
        byte[] bytes = in.array();
        for (int i = 0; i + HEAD_END.length <= in.position(); i++) {
            if (bytes[i] == '\r' && bytes[i + 1] == '\n' && bytes[i + 2] == '\r' && bytes[i + 3] == '\n') {
                return i + HEAD_END.length;
            }
        }
        return -1;
    }

    /** A parsed request line and the two headers this service looks at. */
    record Request(String method, String target, boolean keepAlive, boolean hasBody) {
        static Request parse(String head) {
            String[] lines = head.split("\r\n");
            String[] requestLine = lines[0].split(" ");
            if (requestLine.length != 3 || !requestLine[2].startsWith("HTTP/1.")) {
                throw new IllegalArgumentException("not an HTTP/1.x request line: '" + lines[0] + "'");
            }
            boolean http10 = requestLine[2].equals("HTTP/1.0");
            String connection = "";
            boolean hasBody = false;
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon <= 0) {
                    throw new IllegalArgumentException("not a header: '" + lines[i] + "'");
                }
                String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = lines[i].substring(colon + 1).trim().toLowerCase(Locale.ROOT);
                if (name.equals("connection")) {
                    connection = value;
                } else if (name.equals("content-length")) {
                    hasBody |= !value.equals("0");
                } else if (name.equals("transfer-encoding")) {
                    hasBody = true;
                }
            }
            boolean keepAlive = http10 ? connection.equals("keep-alive") : !connection.equals("close");
            return new Request(requestLine[0], requestLine[1], keepAlive, hasBody);
        }
    }

    record Response(int status, String body) {
        ByteBuffer bytes(boolean keepAlive) {
            byte[] content = body.getBytes(StandardCharsets.UTF_8);
            String reason = switch (status) {
                case 200 -> "OK";
                case 400 -> "Bad Request";
                case 404 -> "Not Found";
                case 405 -> "Method Not Allowed";
                default -> "Request Header Fields Too Large";
            };
            String head = "HTTP/1.1 " + status + " " + reason + "\r\n"
                    + "Content-Type: text/plain; charset=utf-8\r\n"
                    + "Content-Length: " + content.length + "\r\n"
                    + (keepAlive ? "" : "Connection: close\r\n")
                    + "\r\n";
            byte[] headBytes = head.getBytes(StandardCharsets.ISO_8859_1);
            return ByteBuffer.allocate(headBytes.length + content.length).put(headBytes).put(content).flip();
        }
    }

    /** Stops accepting and closes every open connection; their pending reads and writes fail at once. */
    @Override
    public void close() {
        close(server);
        connections.forEach(this::close);
    }

    private void close(SelectableChannel channel) {
        connections.remove(channel);
        try {
            io.close(channel); // not channel.close(): io.close fails the channel's pending operations at once
        } catch (IOException e) {
            // Nothing is left to tell the peer; the channel is closed all the same.
        }
    }

    public static void main(String[] args) throws Exception {
        int code = run(args, System.out, System.err);
        if (code != 0) {
            System.exit(code);
        }
    }

    /**
     * Serves on 127.0.0.1:{@code port} (0: any free port) until {@code pool} is closed, and only then returns. The
     * pool's workers are daemon threads, as a pool's are by default: a {@code main} that returned after starting the
     * service would end the JVM at once, so the thread that started it waits here.
     */
    static void serve(ThreadPool pool, int port, PrintStream out) throws IOException, InterruptedException {
        try (OnPoolPrimeService service = new OnPoolPrimeService(pool, port)) {
            out.printf("serving on http://127.0.0.1:%d/primes?below=N, Ctrl-C to stop; try%n"
                    + "  curl 'http://127.0.0.1:%d/primes?below=5000000'%n", service.port(), service.port());
            while (!pool.awaitTermination(1, TimeUnit.DAYS)) {
                // serving: the workers do everything
            }
        }
    }

    /** The whole program, with its streams passed in so that a test can read what it prints; returns the exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        if (args.length >= 1 && args[0].equals("--serve")) {
            int port = args.length == 2 && args[1].matches("\\d{1,5}") ? Integer.parseInt(args[1]) : 0;
            if (port < 1 || port > 65535) {
                return usage(err, "PORT must be in 1..65535");
            }
            ThreadPool pool = ThreadPool.builder().threadName(i -> "pool-" + i).build();
            Runtime.getRuntime().addShutdownHook(new Thread(pool::close)); // Ctrl-C: serve() returns, the JVM exits
            serve(pool, port, out);
            return 0;
        }
        int requests;
        int below;
        try {
            if (args.length > 2) {
                throw new NumberFormatException("too many arguments");
            }
            requests = args.length >= 1 ? Integer.parseInt(args[0]) : 12;
            below = args.length == 2 ? Integer.parseInt(args[1]) : 2_000_000;
        } catch (NumberFormatException e) {
            return usage(err, "expected [REQUESTS [BELOW]] or --serve PORT (" + e.getMessage() + ")");
        }
        if (requests < 1 || requests > 1000 || below < 0 || below > PrimeService.MAX_BELOW) {
            return usage(err, "REQUESTS must be in 1..1000 and BELOW in 0.." + PrimeService.MAX_BELOW);
        }
        try (ThreadPool pool = ThreadPool.builder().threadName(i -> "pool-" + i).build();
             OnPoolPrimeService service = new OnPoolPrimeService(pool, 0)) {
            out.printf("service on port %d, served and counted by a pool of %d workers; sending %d requests%n",
                    service.port(), pool.threadCount(), requests);
            return PrimeService.askConcurrently(service.port(), requests, below, out, err);
        }
    }

    private static int usage(PrintStream err, String problem) {
        err.println("service-io: " + problem);
        err.println("usage: bin/spindle-examples service-io [REQUESTS [BELOW]]");
        err.println("         sends REQUESTS (default 12) concurrent requests counting the primes below BELOW"
                + " (default 2000000) to the on-pool service on a free local port, prints the answers and stops");
        err.println("       bin/spindle-examples service-io --serve PORT");
        err.println("         serves GET /primes?below=N on 127.0.0.1:PORT until interrupted");
        return 2;
    }
}
