package io.spindle.internal.registry;

import io.spindle.ThreadPool;
import io.spindle.internal.job.InjectedJob;
import io.spindle.internal.sleep.SleepProtocol;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Test seam for E1: makes an injection by a chosen thread fail with {@link #FAILURE}, either in the sleep protocol's
 * notification (a proxy around the real protocol: the job is visible, and its poster takes it back unless a worker
 * claimed it first) or in the injector's {@code add}, before its node is linked (the job never becomes visible) or
 * after (it is visible, as the notification's case). The failing step first tells the
 * test it got there ({@link #reached}), then waits for a gate, so that a test can place the failure after a step of
 * its own (a shutdown, a scope's body ending). Everything else goes to the real objects.
 */
final class FailingInjections {
    static final OutOfMemoryError FAILURE = new OutOfMemoryError("test: the injection failed");

    final Registry registry;
    volatile CountDownLatch reached = new CountDownLatch(1);
    private volatile Thread failingNotification;
    private volatile Thread failingAdd;
    private volatile Thread failingAddAfterLink;
    private volatile CountDownLatch gate;

    private FailingInjections(Registry registry) {
        this.registry = registry;
    }

    static FailingInjections install(ThreadPool pool) throws ReflectiveOperationException {
        Field f = ThreadPool.class.getDeclaredField("registry");
        f.setAccessible(true);
        Registry registry = (Registry) f.get(pool);
        FailingInjections seam = new FailingInjections(registry);
        Field sleepField = Registry.class.getDeclaredField("sleep");
        sleepField.setAccessible(true);
        SleepProtocol real = (SleepProtocol) sleepField.get(registry);
        sleepField.set(registry, Proxy.newProxyInstance(SleepProtocol.class.getClassLoader(),
                new Class<?>[] {SleepProtocol.class}, (proxy, method, args) -> {
                    if (method.getName().equals("newInjectedJobs")
                            && Thread.currentThread() == seam.failingNotification) {
                        seam.failingNotification = null;
                        seam.failAfterGate(); // as a protocol step that rolled itself back
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                }));
        Field injectorField = Registry.class.getDeclaredField("injector");
        injectorField.setAccessible(true);
        injectorField.set(registry, new ConcurrentLinkedQueue<InjectedJob>() {
            @Override
            public boolean add(InjectedJob job) {
                if (Thread.currentThread() == seam.failingAdd) {
                    seam.failingAdd = null;
                    seam.failAfterGate(); // as a queue node that could not be allocated
                }
                boolean added = super.add(job);
                if (Thread.currentThread() == seam.failingAddAfterLink) {
                    seam.failingAddAfterLink = null;
                    seam.failAfterGate(); // as an offer that overflowed its stack after linking the node
                }
                return added;
            }
        });
        return seam;
    }

    private void failAfterGate() {
        reached.countDown();
        try {
            if (!gate.await(60, TimeUnit.SECONDS)) {
                throw new AssertionError("the test never opened the gate");
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        throw FAILURE;
    }

    /** The next notification of an injection by {@code thread} waits for {@code gate}, then throws. */
    void failNotification(Thread thread, CountDownLatch gate) {
        this.gate = gate;
        this.failingNotification = thread;
    }

    /**
     * The next injector {@code add} by {@code thread} links the job's node (the job is visible to the workers), then
     * waits for {@code gate} and throws, as an offer whose tail update overflowed the stack.
     */
    void failAddAfterLink(Thread thread, CountDownLatch gate) {
        this.gate = gate;
        this.failingAddAfterLink = thread;
    }

    /** The next injector {@code add} by {@code thread} waits for {@code gate}, then throws. */
    void failAdd(Thread thread, CountDownLatch gate) {
        this.gate = gate;
        this.failingAdd = thread;
    }
}
