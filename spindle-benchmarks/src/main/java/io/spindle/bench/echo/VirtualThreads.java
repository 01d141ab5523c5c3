package io.spindle.bench.echo;

import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.ThreadFactory;

/**
 * Virtual threads for the {@code virtual-threads} server, reached by reflection: the module compiles with
 * {@code --release 17}, where {@code Thread.ofVirtual()} does not exist; on JDK 21+ the factory is the JDK's own.
 */
final class VirtualThreads {
    private VirtualThreads() {}

    /**
     * @return {@code Thread.ofVirtual().name("echo-virtual-", 0).factory()}
     * @throws UnsupportedOperationException before JDK 21
     */
    static ThreadFactory factory() {
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            // through the public interface Thread.Builder: the builder's own class is internal to java.base
            Class<?> builderType = Class.forName("java.lang.Thread$Builder");
            builder = builderType.getMethod("name", String.class, long.class).invoke(builder, "echo-virtual-", 0L);
            return (ThreadFactory) builderType.getMethod("factory").invoke(builder);
        } catch (NoSuchMethodException | ClassNotFoundException e) {
            throw new UnsupportedOperationException("virtual threads need JDK 21 or newer", e);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot make a virtual-thread factory", e);
        }
    }
}
