package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Null closures and arguments are rejected with a {@link NullPointerException} naming the argument
 * (docs/DESIGN.md §1.11).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NullArgumentsTest {

    private static void assertNpeNaming(String argument, Executable call) {
        NullPointerException e = assertThrows(NullPointerException.class, call);
        assertTrue(e.getMessage() != null && e.getMessage().contains(argument),
                () -> "NPE should name '" + argument + "', message was: " + e.getMessage());
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void installNullOpRejectedNamingOp(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            // a bare null would be ambiguous between the two forms, as for ExecutorService.submit
            assertNpeNaming("op", () -> pool.install((Supplier<Object>) null));
            assertNpeNaming("op", () -> pool.install((Runnable) null));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void joinNullClosuresRejectedNamingThemAndNothingRuns(TestPools.Config c) {
        AtomicBoolean ran = new AtomicBoolean();
        try (ThreadPool pool = c.build()) {
            assertNpeNaming("a", () -> pool.join((Supplier<Object>) null, () -> ran.getAndSet(true)));
            assertNpeNaming("b", () -> pool.join(() -> ran.getAndSet(true), (Supplier<Object>) null));
            assertNpeNaming("a", () -> pool.join((Runnable) null, () -> ran.set(true)));
            assertNpeNaming("b", () -> pool.join(() -> ran.set(true), (Runnable) null));
        }
        assertFalse(ran.get(), "a closure ran although the other was null");
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeNullBodyRejectedNamingBody(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            assertNpeNaming("body", () -> pool.scopeWithResult((Function<Scope, Object>) null));
            assertNpeNaming("body", () -> pool.scope((Consumer<Scope>) null));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void scopeSpawnNullTaskRejectedNamingTask(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            assertNpeNaming("task", () -> pool.scope((Scope s) -> s.spawn((Runnable) null)));
            assertNpeNaming("task", () -> pool.scope((Scope s) -> s.spawn((Consumer<Scope>) null)));
            assertEquals(1, pool.install(() -> 1), "pool unusable after a null spawn");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void spawnAndExecuteNullRejectedNamingArgument(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            assertNpeNaming("task", () -> pool.spawn(null));
            assertNpeNaming("command", () -> pool.execute(null));
            assertNpeNaming("task", () -> pool.install(() -> {
                pool.spawn(null);
                return null;
            }));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void broadcastNullOpRejectedNamingOp(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            assertNpeNaming("op", () -> pool.broadcast(null));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void submitNullTaskRejectedNamingTask(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            assertNpeNaming("task", () -> pool.submit((Callable<Object>) null));
            assertNpeNaming("task", () -> pool.submit((Runnable) null));
            assertNpeNaming("task", () -> pool.submit((Runnable) null, "result"));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void invokeNullCollectionRejectedNamingTasks(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            assertNpeNaming("tasks", () -> pool.invokeAll(null));
            assertNpeNaming("tasks", () -> pool.invokeAll(null, 1, TimeUnit.SECONDS));
            assertNpeNaming("tasks", () -> pool.invokeAny(null));
            assertNpeNaming("tasks", () -> pool.invokeAny(null, 1, TimeUnit.SECONDS));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void invokeWithNullElementRejected(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            List<Callable<Integer>> tasks = new ArrayList<>();
            tasks.add(() -> 1);
            tasks.add(null);
            assertThrows(NullPointerException.class, () -> pool.invokeAll(tasks));
            assertThrows(NullPointerException.class, () -> pool.invokeAny(tasks));
            assertEquals(2, pool.submit(() -> 2).get(), "pool unusable after a rejected invokeAll");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void nullTimeUnitRejectedNamingUnit(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            List<Callable<Integer>> tasks = List.of(() -> 1);
            assertNpeNaming("unit", () -> pool.awaitTermination(1, null));
            assertNpeNaming("unit", () -> pool.invokeAll(tasks, 1, null));
            assertNpeNaming("unit", () -> pool.invokeAny(tasks, 1, null));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void freeFunctionNullClosuresRejectedNamingThem(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            // on a worker of a pool (free functions mean that pool) ...
            pool.install(() -> {
                assertNpeNaming("a", () -> Spindle.join((Supplier<Object>) null, () -> 1));
                assertNpeNaming("b", () -> Spindle.join(() -> 1, (Supplier<Object>) null));
                assertNpeNaming("a", () -> Spindle.join((Runnable) null, () -> { }));
                assertNpeNaming("b", () -> Spindle.join(() -> { }, (Runnable) null));
                assertNpeNaming("body", () -> Spindle.scopeWithResult((Function<Scope, Object>) null));
                assertNpeNaming("body", () -> Spindle.scope((Consumer<Scope>) null));
                assertNpeNaming("task", () -> Spindle.spawn(null));
                return null;
            });
        }
        // ... and off-pool (they mean the global pool)
        assertNpeNaming("a", () -> Spindle.join((Supplier<Object>) null, () -> 1));
        assertNpeNaming("b", () -> Spindle.join(() -> { }, (Runnable) null));
        assertNpeNaming("body", () -> Spindle.scope((Consumer<Scope>) null));
        assertNpeNaming("task", () -> Spindle.spawn(null));
    }
}
