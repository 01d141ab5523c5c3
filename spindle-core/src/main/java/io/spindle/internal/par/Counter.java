package io.spindle.internal.par;

import java.util.function.Consumer;
import java.util.function.DoubleConsumer;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;

/**
 * The accumulator of {@code count()}: counts whatever reaches it, for every element type.
 *
 * @param <T> the element type, when counting objects
 */
public final class Counter<T> implements IntConsumer, LongConsumer, DoubleConsumer, Consumer<T> {
    private long count;

    private Counter() {}

    /** @return the terminal that counts the ints reaching it */
    public static Terminal<IntConsumer, Counter<Object>> ints() {
        return Terminal.of(key -> new Counter<>(), Counter::merge);
    }

    /** @return the terminal that counts the longs reaching it */
    public static Terminal<LongConsumer, Counter<Object>> longs() {
        return Terminal.of(key -> new Counter<>(), Counter::merge);
    }

    /** @return the terminal that counts the doubles reaching it */
    public static Terminal<DoubleConsumer, Counter<Object>> doubles() {
        return Terminal.of(key -> new Counter<>(), Counter::merge);
    }

    /**
     * @param <T> the element type
     * @return the terminal that counts the objects reaching it
     */
    public static <T> Terminal<Consumer<T>, Counter<T>> items() {
        return Terminal.of(key -> new Counter<>(), Counter::merge);
    }

    private Counter<T> merge(Counter<T> right) {
        count += right.count;
        return this;
    }

    /** @return the number of elements counted */
    public long count() {
        return count;
    }

    @Override
    public void accept(int v) {
        count++;
    }

    @Override
    public void accept(long v) {
        count++;
    }

    @Override
    public void accept(double v) {
        count++;
    }

    @Override
    public void accept(T v) {
        count++;
    }
}
