package io.spindle;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.provider.Arguments;

/**
 * The pool configurations every behavioural test runs against: each implemented sleep strategy at 1, 2, 3 and 8
 * threads. When a strategy lands, add it to {@link #IMPLEMENTED} and the whole suite covers it.
 */
public final class TestPools {
    /** Strategies whose pools can be built today. */
    public static final EnumSet<SleepStrategy> IMPLEMENTED = EnumSet.of(SleepStrategy.JOBS_EVENT_COUNTER,
            SleepStrategy.SLEEPY_WORKER, SleepStrategy.HINT_PIPE);

    public static final int[] THREAD_COUNTS = {1, 2, 3, 8};

    private TestPools() {}

    /** One configuration: a strategy and a thread count. */
    public record Config(SleepStrategy strategy, int threads) {
        public ThreadPool build() {
            return ThreadPool.builder().sleepStrategy(strategy).threads(threads).build();
        }

        public ThreadPool.Builder builder() {
            return ThreadPool.builder().sleepStrategy(strategy).threads(threads);
        }

        @Override
        public String toString() {
            return strategy + "x" + threads;
        }
    }

    public static List<Config> all() {
        List<Config> out = new ArrayList<>();
        for (SleepStrategy s : IMPLEMENTED) {
            for (int n : THREAD_COUNTS) {
                out.add(new Config(s, n));
            }
        }
        return out;
    }

    /** For {@code @MethodSource("io.spindle.TestPools#configs")}. */
    public static Stream<Arguments> configs() {
        return all().stream().map(Arguments::of);
    }
}
