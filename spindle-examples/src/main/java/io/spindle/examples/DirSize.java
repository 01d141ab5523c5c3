package io.spindle.examples;

import io.spindle.Pair;
import io.spindle.Scope;
import io.spindle.Spindle;
import io.spindle.ThreadPool;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Recursive directory size, like {@code du -s} plus the largest subdirectories: a {@link Scope} at the top, and
 * {@link Spindle#join} over subdirectories below it.
 *
 * <p>A file tree is irregular: one subdirectory may hold a million files and its sibling three. The top level spawns
 * one task per subdirectory into a scope and waits for all of them; below that, each directory splits its list of
 * subdirectories in half with {@code join}, so the halves of a big subtree get stolen by idle workers while small
 * ones finish inline. Listing a directory blocks on the file system, which is exactly when other workers steal.
 *
 * <p>Symbolic links are counted but not followed: a link may point back up the tree (a cycle) or into another tree
 * whose bytes would be counted twice. Entries that cannot be read are counted, listed on stderr and skipped, so one
 * unreadable directory does not lose the total.
 *
 * <pre>
 * bin/spindle-examples dirsize [DIR]
 * </pre>
 */
public final class DirSize {
    private DirSize() {}

    /** What a walk found: bytes in regular files, and counts of what it met. */
    record Totals(long bytes, long files, long dirs, long symlinks, long unreadable) {
        static final Totals NONE = new Totals(0, 0, 0, 0, 0);

        Totals plus(Totals o) {
            return new Totals(bytes + o.bytes, files + o.files, dirs + o.dirs, symlinks + o.symlinks,
                    unreadable + o.unreadable);
        }
    }

    /** The result for a root directory: its whole totals, one entry per immediate subdirectory, the problems met. */
    record Report(Totals total, List<Pair<Path, Totals>> subdirs, List<String> problems) {}

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** The whole program, with its streams passed in so that a test can read what it prints; returns the exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length > 1) {
            return usage(err, "expected at most one directory");
        }
        Path root = Path.of(args.length == 1 ? args[0] : ".");
        if (!Files.isDirectory(root)) {
            return usage(err, root + " is not a directory");
        }

        Report report;
        try (ThreadPool pool = ThreadPool.builder().build()) {
            report = measure(pool, root);
        }
        for (String problem : report.problems()) {
            err.println("dirsize: skipped " + problem);
        }
        Totals t = report.total();
        out.printf("%s: %s in %,d files, %,d directories (%,d symbolic links not followed, %,d unreadable)%n",
                root, human(t.bytes()), t.files(), t.dirs(), t.symlinks(), t.unreadable());
        report.subdirs().stream()
                .sorted(Comparator.comparingLong((Pair<Path, Totals> p) -> p.second().bytes()).reversed())
                .limit(10)
                .forEach(p -> out.printf("%12s  %s%n", human(p.second().bytes()), p.first().getFileName()));
        return 0;
    }

    /** Measures the tree under {@code root} on {@code pool}. */
    static Report measure(ThreadPool pool, Path root) {
        Queue<String> problems = new ConcurrentLinkedQueue<>();
        Listing top = list(root, problems);
        List<Path> subdirs = top.subdirs();
        Totals[] subTotals = new Totals[subdirs.size()];
        pool.scope(s -> {
            for (int i = 0; i < subdirs.size(); i++) {
                int slot = i;
                s.spawn(() -> subTotals[slot] = walk(subdirs.get(slot), problems));
            }
        });
        // The scope has ended, so every task's write to subTotals is visible here.
        Totals total = top.here();
        List<Pair<Path, Totals>> perSubdir = new ArrayList<>();
        for (int i = 0; i < subTotals.length; i++) {
            total = total.plus(subTotals[i]);
            perSubdir.add(new Pair<>(subdirs.get(i), subTotals[i]));
        }
        return new Report(total, perSubdir, List.copyOf(problems));
    }

    /** Totals of {@code dir} and everything under it; runs on a worker, so {@code Spindle.join} uses its pool. */
    private static Totals walk(Path dir, Queue<String> problems) {
        Listing listing = list(dir, problems);
        return listing.here().plus(walkAll(listing.subdirs(), 0, listing.subdirs().size(), problems));
    }

    private static Totals walkAll(List<Path> dirs, int from, int to, Queue<String> problems) {
        if (from == to) {
            return Totals.NONE;
        }
        if (to - from == 1) {
            return walk(dirs.get(from), problems);
        }
        int mid = (from + to) >>> 1;
        Pair<Totals, Totals> halves = Spindle.join(
                () -> walkAll(dirs, from, mid, problems),
                () -> walkAll(dirs, mid, to, problems));
        return halves.first().plus(halves.second());
    }

    /** One directory's own entries: its files and links counted, its subdirectories left for the caller. */
    private record Listing(Totals here, List<Path> subdirs) {}

    private static Listing list(Path dir, Queue<String> problems) {
        long bytes = 0;
        long files = 0;
        long symlinks = 0;
        long unreadable = 0;
        List<Path> subdirs = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                BasicFileAttributes a;
                try {
                    a = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (IOException e) {
                    problems.add(entry + " (" + e.getMessage() + ")");
                    unreadable++;
                    continue;
                }
                if (a.isSymbolicLink()) {
                    symlinks++;
                } else if (a.isDirectory()) {
                    subdirs.add(entry);
                } else {
                    files++;
                    bytes += a.size();
                }
            }
        } catch (IOException | DirectoryIteratorException e) {
            // Unreadable (no permission) or vanished while we walked: count it and keep what was read so far.
            problems.add(dir + " (" + e.getMessage() + ")");
            unreadable++;
        }
        return new Listing(new Totals(bytes, files, 1, symlinks, unreadable), subdirs);
    }

    /** 1536 → "1.5 KiB". */
    static String human(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String units = "KMGTPE";
        double v = bytes;
        int u = -1;
        while (v >= 1024 && u < units.length() - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %ciB", v, units.charAt(u));
    }

    private static int usage(PrintStream err, String problem) {
        err.println("dirsize: " + problem);
        err.println("usage: bin/spindle-examples dirsize [DIR]");
        err.println("  sums the sizes of the files under DIR (default: the current directory) in parallel");
        return 2;
    }
}
