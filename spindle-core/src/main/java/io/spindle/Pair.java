package io.spindle;

/**
 * The two results of {@link ThreadPool#join(java.util.function.Supplier, java.util.function.Supplier)}.
 *
 * <pre>{@code
 * Pair<Integer, String> r = Spindle.join(() -> countWords(text), () -> longestLine(text));
 * int words = r.first();
 * String longest = r.second();
 * }</pre>
 *
 * @param first  the result of the first closure
 * @param second the result of the second closure
 * @param <A>    type of the first result
 * @param <B>    type of the second result
 */
public record Pair<A, B>(A first, B second) {}
