package io.spindle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link ThreadPool#install} (docs/DESIGN.md §1.5). */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InstallTest {
    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    private static String uniquePrefix() {
        return "install-" + POOL_IDS.incrementAndGet() + "-";
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> RuntimeException sneakyThrow(Throwable t) throws T {
        throw (T) t;
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void installReturnsTheOpsValue(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            assertEquals("value", pool.install(() -> "value"));
            assertNull(pool.install(() -> null));
            List<Integer> list = List.of(1, 2);
            assertSame(list, pool.install(() -> list));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void installFromOutsideRunsOnAPoolWorker(TestPools.Config c) {
        String prefix = uniquePrefix();
        try (ThreadPool pool = c.builder().threadName(i -> prefix + i).build()) {
            Thread caller = Thread.currentThread();
            Thread ranOn = pool.install(Thread::currentThread);
            assertNotSame(caller, ranOn);
            assertTrue(ranOn.getName().startsWith(prefix), ranOn.getName());
            int idx = pool.install(() -> Spindle.currentThreadIndex().orElse(-1));
            assertTrue(idx >= 0 && idx < c.threads(), "index " + idx);
            assertEquals(c.threads(), pool.install(Spindle::currentThreadCount));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void installOnOwnWorkerRunsInline(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            for (int round = 0; round < 20; round++) {
                String verdict = pool.install(() -> {
                    Thread me = Thread.currentThread();
                    long injectedBefore = pool.stats().injected();
                    Thread inner = pool.install(Thread::currentThread);
                    long injectedAfter = pool.stats().injected();
                    if (inner != me) {
                        return "ran on another thread";
                    }
                    return injectedAfter == injectedBefore ? "inline" : "was injected into the pool";
                });
                assertEquals("inline", verdict, "install from the pool's own worker");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void installInsideSpawnedTaskRunsInline(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            AtomicReference<Boolean> inline = new AtomicReference<>();
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
            pool.spawn(() -> {
                Thread me = Thread.currentThread();
                inline.set(pool.install(Thread::currentThread) == me);
                done.countDown();
            });
            assertTrue(done.await(30, java.util.concurrent.TimeUnit.SECONDS));
            assertTrue(inline.get());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void installRethrowsRuntimeExceptionAsIs(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            RuntimeException e = new IllegalStateException("op");
            assertSame(e, assertThrows(IllegalStateException.class, () -> pool.install(() -> {
                throw e;
            })));
            assertEquals(0, e.getSuppressed().length);
            // and from the pool's own worker (inline)
            RuntimeException inner = new UnsupportedOperationException("inner");
            Throwable caught = pool.install(() -> {
                try {
                    pool.install(() -> {
                        throw inner;
                    });
                    return null;
                } catch (RuntimeException x) {
                    return x;
                }
            });
            assertSame(inner, caught);
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void installRethrowsErrorAsIs(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            Error e = new AssertionError("op");
            assertSame(e, assertThrows(AssertionError.class, () -> pool.install(() -> {
                throw e;
            })));
            StackOverflowError so = new StackOverflowError("fake");
            assertSame(so, assertThrows(StackOverflowError.class, () -> pool.install(() -> {
                throw so;
            })));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void installRethrowsCheckedThrowableAsIs(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            IOException e = new IOException("checked");
            assertSame(e, assertThrows(IOException.class, () -> pool.install(() -> {
                throw sneakyThrow(e);
            })));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void poolStillWorksAfterFailedInstalls(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            for (int i = 0; i < 3 * c.threads() + 3; i++) {
                assertThrows(IllegalStateException.class, () -> pool.install(() -> {
                    throw new IllegalStateException();
                }));
            }
            assertEquals(c.threads(), pool.broadcast(ctx -> 1).size());
            assertEquals(9, pool.install(() -> 9));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void installAfterShutdownFromOutsideIsRejected(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            pool.shutdown();
            AtomicBoolean ran = new AtomicBoolean();
            assertThrows(RejectedExecutionException.class, () -> pool.install(() -> ran.getAndSet(true)));
            assertFalse(ran.get(), "a rejected op ran");
        }
    }

    // --- install(Runnable): the same rules for an operation with no result ------------------------------------------

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void installRunnableFromOutsideRunsOnAPoolWorkerAndReturnsAfterIt(TestPools.Config c) {
        String prefix = uniquePrefix();
        try (ThreadPool pool = c.builder().threadName(i -> prefix + i).build()) {
            Thread caller = Thread.currentThread();
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            int[] written = new int[2]; // plain writes: install's return must publish them to the caller
            pool.install(() -> {
                written[0] = Spindle.currentThreadCount();
                written[1] = (int) JoinTest.fib(15); // joins on the pool before op ends
                ranOn.set(Thread.currentThread());
            });
            assertEquals(c.threads(), written[0], "Spindle.* inside install(Runnable) must mean this pool");
            assertEquals(610, written[1], "install(Runnable) returned before op ended");
            assertNotSame(caller, ranOn.get());
            assertTrue(ranOn.get().getName().startsWith(prefix), ranOn.get().getName());
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void installRunnableOnOwnWorkerRunsInline(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            for (int round = 0; round < 20; round++) {
                String verdict = pool.install(() -> {
                    Thread me = Thread.currentThread();
                    AtomicReference<Thread> inner = new AtomicReference<>();
                    long injectedBefore = pool.stats().injected();
                    pool.install(() -> inner.set(Thread.currentThread()));
                    long injectedAfter = pool.stats().injected();
                    if (inner.get() != me) {
                        return "ran on " + inner.get();
                    }
                    return injectedAfter == injectedBefore ? "inline" : "was injected into the pool";
                });
                assertEquals("inline", verdict, "install(Runnable) from the pool's own worker");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void installRunnableRethrowsFailuresAsTheyAre(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            // typed as Runnable: a lambda that only throws is value-compatible too, and would select the Supplier form
            RuntimeException runtime = new IllegalStateException("op");
            Runnable throwsRuntime = () -> {
                throw runtime;
            };
            assertSame(runtime, assertThrows(IllegalStateException.class, () -> pool.install(throwsRuntime)));
            assertEquals(0, runtime.getSuppressed().length);
            Error error = new AssertionError("op");
            Runnable throwsError = () -> {
                throw error;
            };
            assertSame(error, assertThrows(AssertionError.class, () -> pool.install(throwsError)));
            IOException checked = new IOException("checked");
            Runnable throwsChecked = () -> {
                throw sneakyThrow(checked);
            };
            assertSame(checked, assertThrows(IOException.class, () -> pool.install(throwsChecked)));
            // and from the pool's own worker, where op runs inline
            Throwable caught = pool.install(() -> {
                try {
                    pool.install(throwsRuntime);
                    return null;
                } catch (RuntimeException x) {
                    return x;
                }
            });
            assertSame(runtime, caught);
            assertEquals(7, pool.install(() -> 7), "the pool works after the failures");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void installRunnableAfterShutdownFromOutsideIsRejected(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            pool.shutdown();
            AtomicBoolean ran = new AtomicBoolean();
            assertThrows(RejectedExecutionException.class, () -> pool.install(() -> ran.set(true)));
            assertFalse(ran.get(), "a rejected op ran");
        }
    }

    /**
     * Adding install(Runnable) left the calls that return a value on install(Supplier), as ExecutorService.submit
     * keeps them on Callable: each assignment below compiles only if javac chose the Supplier form (the Runnable form
     * returns nothing), and the values show each op ran once.
     */
    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void valueReturningClosuresStillSelectInstallSupplier(TestPools.Config c) {
        try (ThreadPool pool = c.build()) {
            AtomicInteger counter = new AtomicInteger();
            List<Integer> list = new ArrayList<>();
            Integer incremented = pool.install(() -> counter.incrementAndGet()); // also a valid statement
            Boolean added = pool.install(() -> list.add(7));
            Integer size = pool.install(list::size);
            Thread worker = pool.install(Thread::currentThread);
            assertEquals(1, incremented);
            assertTrue(added);
            assertEquals(1, size);
            assertTrue(worker != Thread.currentThread(), "install from outside ran on the caller");
            pool.install(list::clear); // a void method: the Runnable form
            assertTrue(list.isEmpty(), "install(list::clear) did not run");
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void freeFunctionsInsideInstallMeanThatPool(TestPools.Config c) {
        String prefix = uniquePrefix();
        try (ThreadPool pool = c.builder().threadName(i -> prefix + i).build()) {
            Pair<String, String> names = pool.install(() -> Spindle.join(() -> Thread.currentThread().getName(),
                    () -> Thread.currentThread().getName()));
            assertTrue(names.first().startsWith(prefix), names.first());
            assertTrue(names.second().startsWith(prefix), names.second());
            String scoped = pool.install(() -> Spindle.scopeWithResult((Scope s) -> Thread.currentThread().getName()));
            assertTrue(scoped.startsWith(prefix), scoped);
            assertEquals(c.threads(), pool.install(Spindle::currentThreadCount));
        }
    }

    @ParameterizedTest
    @MethodSource("io.spindle.TestPools#configs")
    void concurrentExternalInstallsAllReturnTheirOwnValue(TestPools.Config c) throws Exception {
        try (ThreadPool pool = c.build()) {
            int callers = 4;
            int each = 250;
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < callers; t++) {
                int base = t * each;
                Thread th = new Thread(() -> {
                    try {
                        for (int i = 0; i < each; i++) {
                            int k = base + i;
                            int r = pool.install(() -> k * 2);
                            if (r != k * 2) {
                                throw new AssertionError("install returned " + r + " for " + k);
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                threads.add(th);
                th.start();
            }
            for (Thread th : threads) {
                th.join();
            }
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
        }
    }
}
