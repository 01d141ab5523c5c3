package io.spindle.examples;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.spindle.Pair;
import io.spindle.Spindle;
import io.spindle.ThreadPool;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tiny HTTP service whose request threads hand their CPU work to a Spindle pool with {@link ThreadPool#install}.
 *
 * <p>A server has many request threads, because most of a request's time is spent waiting on sockets. If each of them
 * also ran a parallel computation itself, ten concurrent requests would fight over the cores with ten times too many
 * threads. Here the request thread calls {@code cpuPool.install(...)}: the computation runs on the pool's workers, one
 * per core, splitting itself with {@link Spindle#join} (which, on a worker, uses that worker's pool), while the request
 * thread just blocks until the result is back. However many requests arrive, CPU work never runs on more threads than
 * the pool has; requests beyond that queue inside the pool instead of oversubscribing the machine.
 *
 * <p>{@code GET /primes?below=N} counts the primes below {@code N}. Each answer says which request thread served it
 * and which pool workers did the counting.
 *
 * <pre>
 * bin/spindle-examples service [REQUESTS [BELOW]]   starts the service on a free local port, sends it REQUESTS concurrent
 *                                                 requests (default 12, counting primes below BELOW, default 2000000),
 *                                                 prints the answers and stops
 * bin/spindle-examples service --serve PORT         serves on 127.0.0.1:PORT until interrupted (try curl)
 * </pre>
 */
public final class PrimeService {
    /** Below this many numbers a range is counted on one thread. */
    static final int SEQUENTIAL_RANGE = 20_000;
    static final int MAX_BELOW = 100_000_000;
    private static final int REQUEST_THREADS = 16;

    private final ThreadPool cpuPool;
    private final ExecutorService requestThreads;
    private final HttpServer server;

    private PrimeService(int port) throws IOException {
        cpuPool = ThreadPool.builder().threadName(i -> "cpu-" + i).build();
        AtomicInteger n = new AtomicInteger();
        requestThreads = Executors.newFixedThreadPool(REQUEST_THREADS,
                r -> new Thread(r, "request-" + n.getAndIncrement()));
        // Loopback only: an example has no business listening on the network.
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.setExecutor(requestThreads);
        server.createContext("/primes", this::handlePrimes);
        server.start();
    }

    /** Starts the service on {@code port} (0: any free port). */
    static PrimeService start(int port) throws IOException {
        return new PrimeService(port);
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** Stops accepting requests, then ends the request threads and the pool. */
    void stop() {
        server.stop(0);
        requestThreads.shutdown();
        cpuPool.close();
    }

    /** Runs on a request thread. */
    private void handlePrimes(HttpExchange exchange) throws IOException {
        int below;
        try {
            below = parseBelow(exchange.getRequestURI().getQuery());
        } catch (NumberFormatException e) {
            respond(exchange, 400, "bad request: " + e.getMessage() + "\n");
            return;
        }
        Set<String> workers = ConcurrentHashMap.newKeySet();
        // The hand-off: this request thread blocks here while the pool's workers count.
        long count = cpuPool.install(() -> countPrimes(2, below, workers));
        respond(exchange, 200, String.format("%d primes below %d; served by %s, counted by %s%n",
                count, below, Thread.currentThread().getName(), new TreeSet<>(workers)));
    }

    /** The N of a {@code below=N} query; also used by {@link OnPoolPrimeService}. */
    static int parseBelow(String query) throws NumberFormatException {
        if (query == null || !query.startsWith("below=")) {
            throw new NumberFormatException("missing ?below=N");
        }
        int below = Integer.parseInt(query.substring("below=".length()));
        if (below < 0 || below > MAX_BELOW) {
            throw new NumberFormatException("below must be in 0.." + MAX_BELOW);
        }
        return below;
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** Primes in {@code [from, to)}, split with {@code join}; adds the name of each thread that counted to {@code workers}. */
    static long countPrimes(int from, int to, Set<String> workers) {
        if (to - from <= SEQUENTIAL_RANGE) {
            workers.add(Thread.currentThread().getName());
            long count = 0;
            for (int n = from; n < to; n++) {
                if (isPrime(n)) {
                    count++;
                }
            }
            return count;
        }
        int mid = (from + to) >>> 1;
        Pair<Long, Long> halves =
                Spindle.join(() -> countPrimes(from, mid, workers), () -> countPrimes(mid, to, workers));
        return halves.first() + halves.second();
    }

    static boolean isPrime(int n) {
        if (n < 2) {
            return false;
        }
        if (n % 2 == 0) {
            return n == 2;
        }
        for (int d = 3; (long) d * d <= n; d += 2) {
            if (n % d == 0) {
                return false;
            }
        }
        return true;
    }

    public static void main(String[] args) throws Exception {
        int code = run(args, System.out, System.err);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** The whole program, with its streams passed in so that a test can read what it prints; returns the exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        if (args.length == 2 && args[0].equals("--serve")) {
            int port;
            try {
                port = Integer.parseInt(args[1]);
            } catch (NumberFormatException e) {
                return usage(err, "PORT must be a number, got '" + args[1] + "'");
            }
            if (port < 1 || port > 65535) {
                return usage(err, "PORT must be in 1..65535");
            }
            PrimeService service = start(port);
            Runtime.getRuntime().addShutdownHook(new Thread(service::stop));
            out.printf("serving on http://127.0.0.1:%d/primes?below=N, Ctrl-C to stop; try%n"
                    + "  curl 'http://127.0.0.1:%d/primes?below=5000000'%n", service.port(), service.port());
            return 0; // the request threads are not daemons: they keep the JVM serving
        }
        if (args.length > 2) {
            return usage(err, "expected [REQUESTS [BELOW]] or --serve PORT");
        }
        int requests;
        int below;
        try {
            requests = args.length >= 1 ? Integer.parseInt(args[0]) : 12;
            below = args.length == 2 ? Integer.parseInt(args[1]) : 2_000_000;
        } catch (NumberFormatException e) {
            return usage(err, "REQUESTS and BELOW must be numbers (" + e.getMessage() + ")");
        }
        if (requests < 1 || requests > 1000 || below < 0 || below > MAX_BELOW) {
            return usage(err, "REQUESTS must be in 1..1000 and BELOW in 0.." + MAX_BELOW);
        }

        PrimeService service = start(0);
        try {
            out.printf("service on port %d: %d request threads, a pool of %d CPU workers; sending %d requests%n",
                    service.port(), REQUEST_THREADS, service.cpuPool.threadCount(), requests);
            return askConcurrently(service.port(), requests, below, out, err);
        } finally {
            service.stop();
        }
    }

    /**
     * Sends {@code requests} concurrent {@code GET /primes?below=...} requests to 127.0.0.1:{@code port} and prints
     * the answers in order; returns 0, or 1 (with the answer on {@code err}) if one was not HTTP 200. Also the client
     * of {@link OnPoolPrimeService}.
     */
    static int askConcurrently(int port, int requests, int below, PrintStream out, PrintStream err) {
        ExecutorService clientThreads = Executors.newFixedThreadPool(4);
        try {
            HttpClient client = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1) // both services speak HTTP/1.1 only
                    .executor(clientThreads)
                    .build();
            List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                // Slightly different limits per request, so the answers are not all the same line.
                URI uri = URI.create("http://127.0.0.1:" + port + "/primes?below=" + (below + i));
                answers.add(client.sendAsync(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()));
            }
            for (CompletableFuture<HttpResponse<String>> answer : answers) {
                HttpResponse<String> response = answer.join();
                if (response.statusCode() != 200) {
                    err.print("service: HTTP " + response.statusCode() + ": " + response.body());
                    return 1;
                }
                out.print(response.body());
            }
            return 0;
        } finally {
            clientThreads.shutdown();
        }
    }

    private static int usage(PrintStream err, String problem) {
        err.println("service: " + problem);
        err.println("usage: bin/spindle-examples service [REQUESTS [BELOW]]");
        err.println("         sends REQUESTS (default 12) concurrent requests counting the primes below BELOW"
                + " (default 2000000) to the service on a free local port, prints the answers and stops");
        err.println("       bin/spindle-examples service --serve PORT");
        err.println("         serves GET /primes?below=N on 127.0.0.1:PORT until interrupted");
        return 2;
    }
}
