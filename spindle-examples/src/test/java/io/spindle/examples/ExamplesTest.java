package io.spindle.examples;

import io.spindle.ThreadPool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.imageio.ImageIO;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs each example's {@code run} (what its {@code main} does) on a small input and checks what it prints. */
class ExamplesTest {
    private static ThreadPool pool;

    @BeforeAll
    static void startPool() {
        pool = ThreadPool.builder().threads(3).build();
    }

    @AfterAll
    static void closePool() {
        pool.close();
    }

    /** What one {@code run} call printed, and its exit code. */
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

    // ---- fibsort (prints to System.out itself: a timing comparison meant for a terminal)

    @Test
    void fibsortChecksBothPoolsResultsAndPrintsBothTimes() {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.out;
        try (PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
            System.setOut(out);
            // Small sizes; FibAndSort itself fails (IllegalStateException) if a pool's fib or sort result is wrong.
            FibAndSort.main(new String[] {"--threads", "2", "--runs", "1", "--warmup", "0", "--fib", "15"});
        } finally {
            System.setOut(original);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("fib(15), a join at every level"), text);
        assertTrue(text.contains("merge sort of 5,000,000 random ints"), text);
        assertEquals(2, text.split("Spindle/FJP", -1).length - 1, text);
    }

    // ---- wordcount

    @Test
    void wordCountPrintsTheMostFrequentWordsFirst(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("text.txt");
        Files.writeString(file, "the cat and the dog\nThe end, the END.\n");
        Outcome r = run(WordCount::run, file.toString(), "3");
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(0).endsWith("9 words, 5 distinct"), lines.get(0));
        assertEquals(List.of("4  the", "2  end", "1  and"), lines.subList(1, 4).stream().map(String::strip).toList());
    }

    @Test
    void wordCountSplitAcrossWorkersMatchesOneThread() {
        // Large enough to be split many times; every split point lands inside this repeated text.
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 40_000; i++) {
            text.append("alpha beta\tgamma don't café ").append(i % 7).append('\n');
        }
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        assertTrue(bytes.length > 8 * WordCount.SEQUENTIAL_BYTES);
        Map<String, Long> counts = pool.install(() -> WordCount.countWords(bytes));
        assertEquals(40_000L, counts.get("alpha"));
        assertEquals(40_000L, counts.get("don't"));
        assertEquals(40_000L, counts.get("café"));
        assertEquals(40_000L / 7 + 1, counts.get("0"));
        assertEquals(5 + 7, counts.size());
    }

    @Test
    void wordCountRejectsBadArguments(@TempDir Path dir) throws Exception {
        Outcome none = run(WordCount::run);
        assertEquals(2, none.code());
        assertTrue(none.err().contains("usage: bin/spindle-examples wordcount FILE [TOP]"), none.err());
        assertEquals(2, run(WordCount::run, "file", "ten").code());
        assertEquals(1, run(WordCount::run, dir.resolve("missing.txt").toString()).code());
    }

    // ---- mandelbrot

    @Test
    void mandelbrotWritesAPngOfTheRequestedSize(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("m.png");
        Outcome r = run(Mandelbrot::run, png.toString(), "64", "40", "200");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("wrote " + png + ": 64x40"), r.out());
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(64, image.getWidth());
        assertEquals(40, image.getHeight());
    }

    @Test
    void mandelbrotPixelsMatchASequentialRender() {
        int w = 90;
        int h = 60;
        BufferedImage image = Mandelbrot.render(pool, w, h, 300);
        // The centre of the view, c = -0.6, is inside the set (black); the top-left corner, c = -2.2 + 1.07i, escapes.
        assertEquals(0x000000, image.getRGB(w / 2, h / 2) & 0xFFFFFF);
        assertTrue((image.getRGB(0, 0) & 0xFFFFFF) != 0);
        assertEquals(300, Mandelbrot.escapeTime(-0.6, 0, 300));
        assertEquals(1, Mandelbrot.escapeTime(2.5, 0, 300));
        // A row lost or written twice by the parallel render would differ from the render on a single worker.
        BufferedImage sequential;
        try (ThreadPool one = ThreadPool.builder().threads(1).build()) {
            sequential = Mandelbrot.render(one, w, h, 300);
        }
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                assertEquals(sequential.getRGB(x, y), image.getRGB(x, y), "pixel " + x + "," + y);
            }
        }
    }

    @Test
    void mandelbrotRejectsBadArguments() throws Exception {
        assertEquals(2, run(Mandelbrot::run, "out.png", "64").code());
        assertEquals(2, run(Mandelbrot::run, "out.png", "wide", "40").code());
        Outcome zero = run(Mandelbrot::run, "out.png", "0", "40");
        assertEquals(2, zero.code());
        assertTrue(zero.err().contains("usage: bin/spindle-examples mandelbrot"), zero.err());
    }

    // ---- dirsize

    @Test
    void dirSizeSumsATreeAndListsTheLargestSubdirectory(@TempDir Path root) throws Exception {
        Path big = Files.createDirectories(root.resolve("big/deeper/deepest"));
        Files.write(root.resolve("big/a.bin"), new byte[3000]);
        Files.write(big.resolve("b.bin"), new byte[5000]);
        Path small = Files.createDirectories(root.resolve("small"));
        Files.write(small.resolve("c.txt"), new byte[10]);
        Files.write(root.resolve("top.txt"), new byte[1]);
        for (int i = 0; i < 20; i++) { // siblings, so that join splits the subdirectory list
            Files.write(Files.createDirectories(root.resolve("small/s" + i)).resolve("f"), new byte[2]);
        }
        boolean linked = tryCreateSymlink(root.resolve("loop"), root); // a cycle, if followed

        DirSize.Report report = DirSize.measure(pool, root);
        DirSize.Totals t = report.total();
        assertEquals(3000 + 5000 + 10 + 1 + 20 * 2, t.bytes());
        assertEquals(4 + 20, t.files());
        assertEquals(1 + 3 + 1 + 20, t.dirs()); // root; big, deeper, deepest; small; small/s0..s19
        assertEquals(linked ? 1 : 0, t.symlinks());
        assertEquals(0, t.unreadable());

        Outcome r = run(DirSize::run, root.toString());
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(0).contains("7.9 KiB in 24 files, 25 directories"), lines.get(0));
        assertTrue(lines.get(1).strip().endsWith("big"), lines.get(1));
        assertTrue(lines.get(2).strip().endsWith("small"), lines.get(2));
    }

    @Test
    void dirSizeCountsAnUnreadableDirectoryAndGoesOn(@TempDir Path root) throws Exception {
        Path locked = Files.createDirectories(root.resolve("locked"));
        Files.write(locked.resolve("secret"), new byte[100]);
        Files.write(root.resolve("open.txt"), new byte[7]);
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
        try {
            boolean enforced = !Files.isReadable(locked); // root may read anything: then there is nothing to test
            DirSize.Report report = DirSize.measure(pool, root);
            if (enforced) {
                assertEquals(7, report.total().bytes());
                assertEquals(1, report.total().unreadable());
                assertEquals(1, report.problems().size());
                assertTrue(report.problems().get(0).startsWith(locked.toString()), report.problems().toString());
            } else {
                assertEquals(107, report.total().bytes());
            }
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void dirSizeRejectsAFile(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("f.txt"), "x");
        Outcome r = run(DirSize::run, file.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("is not a directory"), r.err());
        assertEquals("1.5 KiB", DirSize.human(1536));
        assertEquals("999 B", DirSize.human(999));
    }

    private static boolean tryCreateSymlink(Path link, Path target) {
        try {
            Files.createSymbolicLink(link, target);
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    // ---- service

    @Test
    void serviceAnswersEveryRequestWithWorkDoneOnThePool() throws Exception {
        Outcome r = run(PrimeService::run, "4", "50000");
        assertEquals(0, r.code(), r.err());
        List<String> answers = r.out().lines().skip(1).toList();
        assertEquals(4, answers.size(), r.out());
        // pi(50000) = 5133, and none of 50000..50002 is prime, so every request's answer is the same count.
        for (String answer : answers) {
            assertTrue(answer.startsWith("5133 primes below 5000"), answer);
            assertTrue(answer.contains("served by request-"), answer);
            assertTrue(answer.matches(".*counted by \\[cpu-\\d+.*"), answer);
        }
    }

    @Test
    void primeCountSplitAcrossWorkersIsExact() {
        Set<String> workers = ConcurrentHashMap.newKeySet();
        long count = pool.install(() -> PrimeService.countPrimes(2, 200_000, workers));
        assertEquals(17_984, count); // pi(200000)
        assertTrue(workers.stream().allMatch(name -> name.matches("spindle-\\d+-worker-\\d+")), workers.toString());
    }

    @Test
    void serviceRejectsBadArguments() throws Exception {
        assertEquals(2, run(PrimeService::run, "many").code());
        assertEquals(2, run(PrimeService::run, "--serve", "port").code());
        Outcome r = run(PrimeService::run, "1", "2", "3");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("usage: bin/spindle-examples service"), r.err());
    }
}
