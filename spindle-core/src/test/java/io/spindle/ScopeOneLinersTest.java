package io.spindle;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Pins the one-line scope lambdas that must compile: implicitly typed expression lambdas, which javac reported as
 * ambiguous while a {@code Function} overload of {@code scope} stood beside the {@code Consumer} one. If this file stops
 * compiling, the build fails; the assertions check that each form also does what it says.
 */
class ScopeOneLinersTest {
    private static final List<Integer> ITEMS = List.of(1, 2, 3, 4, 5);

    @Test
    void threadPoolScopeTakesOneLineLambdas() {
        try (ThreadPool pool = ThreadPool.builder().threads(2).build()) {
            AtomicInteger ran = new AtomicInteger();
            Runnable task = ran::incrementAndGet;
            pool.scope(s -> s.spawn(task));
            assertEquals(1, ran.get());

            LongAdder sum = new LongAdder();
            pool.scope(s -> ITEMS.forEach(x -> s.spawn(() -> sum.add(x))));
            assertEquals(15, sum.sum());

            int answer = pool.scopeWithResult(s -> 42);
            assertEquals(42, answer);
            int threads = pool.scopeWithResult(s -> Spindle.currentThreadCount());
            assertEquals(2, threads);
        }
    }

    @Test
    void spindleScopeTakesOneLineLambdas() {
        try (ThreadPool pool = ThreadPool.builder().threads(2).build()) {
            AtomicInteger ran = new AtomicInteger();
            LongAdder sum = new LongAdder();
            int value = pool.install(() -> {
                Spindle.scope(s -> s.spawn(ran::incrementAndGet));
                Spindle.scope(s -> ITEMS.forEach(x -> s.spawn(() -> sum.add(x))));
                return Spindle.scopeWithResult(s -> 7);
            });
            assertEquals(1, ran.get());
            assertEquals(15, sum.sum());
            assertEquals(7, value);
        }
    }
}
