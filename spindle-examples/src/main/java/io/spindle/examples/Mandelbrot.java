package io.spindle.examples;

import io.spindle.Scope;
import io.spindle.ThreadPool;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/**
 * Renders the Mandelbrot set to a PNG, one {@link Scope#spawn(Runnable) spawned} task per row.
 *
 * <p>Rows cost very different amounts (those crossing the set run every iteration, those outside escape at once), so
 * a static split into one block per thread would leave threads idle while one finishes the expensive middle. With a
 * task per row, a worker that is done steals the next row from a busy one. {@code pool.scope} returns only after
 * every row's task ended, and that end is also what makes the tasks' writes to {@code pixels} visible to the caller.
 *
 * <pre>
 * bin/spindle-examples mandelbrot [OUT.png] [WIDTH HEIGHT] [MAX_ITERATIONS]
 * </pre>
 */
public final class Mandelbrot {
    /** The region of the complex plane drawn: the whole set, with the image's aspect ratio kept around its centre. */
    private static final double CENTER_RE = -0.6;
    private static final double CENTER_IM = 0.0;
    private static final double SPAN_RE = 3.2;

    private Mandelbrot() {}

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** The whole program, with its streams passed in so that a test can read what it prints; returns the exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length > 4 || args.length == 2) {
            return usage(err, "expected [OUT.png] [WIDTH HEIGHT] [MAX_ITERATIONS]");
        }
        Path output = Path.of(args.length >= 1 ? args[0] : "mandelbrot.png");
        int width = 1200;
        int height = 800;
        int maxIterations = 1000;
        try {
            if (args.length >= 3) {
                width = Integer.parseInt(args[1]);
                height = Integer.parseInt(args[2]);
            }
            if (args.length == 4) {
                maxIterations = Integer.parseInt(args[3]);
            }
        } catch (NumberFormatException e) {
            return usage(err, "WIDTH, HEIGHT and MAX_ITERATIONS must be numbers (" + e.getMessage() + ")");
        }
        if (width < 1 || height < 1 || (long) width * height > 100_000_000L) {
            return usage(err, "WIDTH and HEIGHT must be at least 1 and make at most 100 million pixels");
        }
        if (maxIterations < 1) {
            return usage(err, "MAX_ITERATIONS must be at least 1");
        }

        long start = System.nanoTime();
        BufferedImage image;
        int threads;
        try (ThreadPool pool = ThreadPool.builder().build()) {
            threads = pool.threadCount();
            image = render(pool, width, height, maxIterations);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        try {
            if (!ImageIO.write(image, "png", output.toFile())) {
                err.println("mandelbrot: this JDK has no PNG writer");
                return 1;
            }
        } catch (IOException e) {
            err.println("mandelbrot: cannot write " + output + ": " + e);
            return 1;
        }
        out.printf("wrote %s: %dx%d, at most %d iterations per pixel, rendered in %d ms on %d threads%n",
                output, width, height, maxIterations, millis, threads);
        return 0;
    }

    /** Renders the set on {@code pool}, one task per row. */
    static BufferedImage render(ThreadPool pool, int width, int height, int maxIterations) {
        int[] pixels = new int[width * height];
        double scale = SPAN_RE / width;
        pool.scope(s -> {
            for (int y = 0; y < height; y++) {
                int row = y;
                // Each task writes only its own row: no two tasks touch the same element of pixels.
                s.spawn(() -> renderRow(pixels, row, width, height, scale, maxIterations));
            }
        });
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        image.setRGB(0, 0, width, height, pixels, 0, width);
        return image;
    }

    private static void renderRow(int[] pixels, int y, int width, int height, double scale, int maxIterations) {
        double im = CENTER_IM + (height / 2.0 - y) * scale;
        for (int x = 0; x < width; x++) {
            double re = CENTER_RE + (x - width / 2.0) * scale;
            pixels[y * width + x] = color(escapeTime(re, im, maxIterations), maxIterations);
        }
    }

    /** How many iterations of z = z² + c the point c = re + i·im survives with |z| ≤ 2; {@code max} if all. */
    static int escapeTime(double re, double im, int max) {
        double zr = 0;
        double zi = 0;
        int n = 0;
        while (n < max && zr * zr + zi * zi <= 4.0) {
            double t = zr * zr - zi * zi + re;
            zi = 2 * zr * zi + im;
            zr = t;
            n++;
        }
        return n;
    }

    /** Black inside the set; outside, violet to pale pink on a log scale, so that the slow-escaping edge stands out. */
    private static int color(int iterations, int max) {
        if (iterations >= max) {
            return 0x000000;
        }
        double t = Math.log1p(iterations) / Math.log1p(max);
        return channel(2.2 * t) << 16 | channel(1.6 * t * t + 0.1 * t) << 8 | channel(0.35 + 1.6 * t * (1 - t));
    }

    private static int channel(double v) {
        return (int) (255 * Math.max(0, Math.min(1, v)));
    }

    private static int usage(PrintStream err, String problem) {
        err.println("mandelbrot: " + problem);
        err.println("usage: bin/spindle-examples mandelbrot [OUT.png] [WIDTH HEIGHT] [MAX_ITERATIONS]");
        err.println("  renders the Mandelbrot set in parallel, one task per row; defaults: mandelbrot.png 1200 800 1000");
        return 2;
    }
}
