package io.spindle.examples;

import io.spindle.Pair;
import io.spindle.Spindle;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Parallel word count: divide and conquer with {@link Spindle#join}.
 *
 * <p>The file's bytes are split in half, each half again, until a piece is small enough to count on one thread; each
 * {@code join} lets an idle worker steal the second half while this one counts the first. Splits are moved forward
 * to the next ASCII whitespace byte, so no word is cut in two: in UTF-8 such a byte never occurs inside a multi-byte
 * character, so each piece also decodes on its own. The two halves' maps are merged on the way back up.
 *
 * <p>Called from {@code main}, which is not a Spindle worker, {@code Spindle.join} runs on the global pool (sized by
 * {@code -Dspindle.threads}, {@code SPINDLE_THREADS} or the number of processors).
 *
 * <pre>
 * bin/spindle-examples wordcount FILE [TOP]
 * </pre>
 */
public final class WordCount {
    /** Below this many bytes a piece is counted sequentially: forking costs more than counting ~64 KiB. */
    static final int SEQUENTIAL_BYTES = 64 * 1024;

    private WordCount() {}

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** The whole program, with its streams passed in so that a test can read what it prints; returns the exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length < 1 || args.length > 2) {
            return usage(err, "expected a file and an optional count");
        }
        Path file = Path.of(args[0]);
        int top = 10;
        if (args.length == 2) {
            try {
                top = Integer.parseInt(args[1]);
            } catch (NumberFormatException e) {
                return usage(err, "TOP must be a number, got '" + args[1] + "'");
            }
            if (top < 1) {
                return usage(err, "TOP must be at least 1, got " + top);
            }
        }
        byte[] text;
        try {
            text = Files.readAllBytes(file);
        } catch (IOException e) {
            err.println("wordcount: cannot read " + file + ": " + e);
            return 1;
        }

        Map<String, Long> counts = countWords(text);
        long total = counts.values().stream().mapToLong(Long::longValue).sum();
        out.printf("%s: %,d words, %,d distinct%n", file, total, counts.size());
        for (Map.Entry<String, Long> e : top(counts, top)) {
            out.printf("%10d  %s%n", e.getValue(), e.getKey());
        }
        return 0;
    }

    /** Counts the words of UTF-8 {@code text} in parallel: word to number of occurrences, words lower-cased. */
    static Map<String, Long> countWords(byte[] text) {
        return countWords(text, 0, text.length);
    }

    private static Map<String, Long> countWords(byte[] text, int from, int to) {
        if (to - from <= SEQUENTIAL_BYTES) {
            return countSequentially(new String(text, from, to - from, StandardCharsets.UTF_8));
        }
        int mid = nextWhitespace(text, (from + to) >>> 1, to);
        if (mid == to) { // one giant word: nothing to split
            return countSequentially(new String(text, from, to - from, StandardCharsets.UTF_8));
        }
        Pair<Map<String, Long>, Map<String, Long>> halves =
                Spindle.join(() -> countWords(text, from, mid), () -> countWords(text, mid, to));
        return merge(halves.first(), halves.second());
    }

    private static int nextWhitespace(byte[] text, int i, int to) {
        while (i < to && !isAsciiWhitespace(text[i])) {
            i++;
        }
        return i;
    }

    private static boolean isAsciiWhitespace(byte b) {
        return b == ' ' || b == '\n' || b == '\r' || b == '\t' || b == '\f';
    }

    /** A word is a run of letters and digits (apostrophes inside it kept: "don't"); everything else separates. */
    private static Map<String, Long> countSequentially(String piece) {
        Map<String, Long> counts = new HashMap<>();
        int i = 0;
        int n = piece.length();
        while (i < n) {
            while (i < n && !Character.isLetterOrDigit(piece.codePointAt(i))) {
                i += Character.charCount(piece.codePointAt(i));
            }
            int start = i;
            while (i < n && isWordChar(piece, i)) {
                i += Character.charCount(piece.codePointAt(i));
            }
            if (i > start) {
                counts.merge(piece.substring(start, i).toLowerCase(Locale.ROOT), 1L, Long::sum);
            }
        }
        return counts;
    }

    private static boolean isWordChar(String s, int i) {
        int c = s.codePointAt(i);
        if (Character.isLetterOrDigit(c)) {
            return true;
        }
        // An apostrophe belongs to the word only between two letters, so quotes around a word are dropped.
        return c == '\'' && i > 0 && i + 1 < s.length()
                && Character.isLetter(s.charAt(i - 1)) && Character.isLetter(s.charAt(i + 1));
    }

    /** Adds the smaller map into the larger one: the merge costs the size of the smaller. */
    private static Map<String, Long> merge(Map<String, Long> a, Map<String, Long> b) {
        Map<String, Long> big = a.size() >= b.size() ? a : b;
        Map<String, Long> small = big == a ? b : a;
        small.forEach((word, n) -> big.merge(word, n, Long::sum));
        return big;
    }

    /** The {@code n} most frequent words, most frequent first; ties in alphabetical order so the output is stable. */
    static List<Map.Entry<String, Long>> top(Map<String, Long> counts, int n) {
        return counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed()
                        .thenComparing(Map.Entry.comparingByKey(Comparator.naturalOrder())))
                .limit(n)
                .collect(Collectors.toList());
    }

    private static int usage(PrintStream err, String problem) {
        err.println("wordcount: " + problem);
        err.println("usage: bin/spindle-examples wordcount FILE [TOP]");
        err.println("  counts the words of the UTF-8 text FILE in parallel and prints the TOP (default 10) most frequent");
        return 2;
    }
}
