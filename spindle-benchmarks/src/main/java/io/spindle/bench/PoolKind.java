package io.spindle.bench;

import io.spindle.JoinStrategy;
import io.spindle.SleepStrategy;
import io.spindle.ThreadPool;

import java.util.Arrays;
import java.util.Optional;

/**
 * The contenders of docs/DESIGN.md §4.1, by their fixed names in results.json. The {@code spindle-*} pools take the
 * library's default join strategy (lazy, docs/DESIGN.md §7), except {@code spindle-jec-eager}, the same JEC pool with
 * eager joins, so that one run (same JVM, same rounds) compares the two join strategies.
 *
 * <p>The IO workloads (issue 15: {@code echo}, {@code echo-sparse}, {@code echo-compute}) are also served by four
 * servers that are not pools of ours, the designs Java users have today: {@code platform-threads} (a blocking thread
 * per connection), {@code virtual-threads} (the same on virtual threads, JDK 21+), {@code selector-fjp} (one selector
 * thread handing requests to a ForkJoinPool) and {@code netty} (Netty 4.2's NIO event loops). Only the IO workloads
 * run on them ({@link #isIoServer()}); each has a ForkJoinPool of the run's parallelism for the compute variant.
 */
public enum PoolKind {
    SPINDLE_JEC("spindle-jec", SleepStrategy.JOBS_EVENT_COUNTER, null),
    SPINDLE_JEC_EAGER("spindle-jec-eager", SleepStrategy.JOBS_EVENT_COUNTER, JoinStrategy.EAGER),
    SPINDLE_SLEEPY("spindle-sleepy", SleepStrategy.SLEEPY_WORKER, null),
    SPINDLE_HINT("spindle-hint", SleepStrategy.HINT_PIPE, null),
    FJP("fjp", null, null),
    SEQUENTIAL("sequential", null, null),
    PLATFORM_THREADS("platform-threads", null, null),
    VIRTUAL_THREADS("virtual-threads", null, null),
    SELECTOR_FJP("selector-fjp", null, null),
    NETTY("netty", null, null);

    /** A class of Netty 4.2's transport that 4.1 lacks: present on the class path means a usable Netty. */
    private static final String NETTY_PROBE_CLASS = "io.netty.channel.nio.NioIoHandler";

    private final String id;
    private final SleepStrategy strategy;
    private final JoinStrategy joins;

    PoolKind(String id, SleepStrategy strategy, JoinStrategy joins) {
        this.id = id;
        this.strategy = strategy;
        this.joins = joins;
    }

    /** @return the name used on the command line, in tables and in results.json */
    public String id() {
        return id;
    }

    public boolean isSpindle() {
        return strategy != null;
    }

    /** @return whether this is one of the IO workloads' baseline servers, which only those workloads run on */
    public boolean isIoServer() {
        return this == PLATFORM_THREADS || this == VIRTUAL_THREADS || this == SELECTOR_FJP || this == NETTY;
    }

    /** @return the sleep strategy of a Spindle pool; only for {@link #isSpindle()} kinds */
    public SleepStrategy strategy() {
        if (strategy == null) throw new IllegalStateException(id + " is not a Spindle pool");
        return strategy;
    }

    /**
     * @return the join strategy this kind sets on its builder, or empty for the library's default (which the system
     *         property {@code spindle.joinStrategy} can change); only for {@link #isSpindle()} kinds
     */
    public Optional<JoinStrategy> joinStrategy() {
        strategy(); // throws for a kind that is not a Spindle pool
        return Optional.ofNullable(joins);
    }

    /**
     * @return whether this kind's pools take the heartbeat interval of {@code --heartbeat-micros}: every Spindle kind
     *         that does not ask for eager joins (the others would ignore it anyway)
     */
    public boolean takesHeartbeat() {
        return isSpindle() && joins != JoinStrategy.EAGER;
    }

    /**
     * Tells why this kind cannot run in this build, if it cannot: strategies still being implemented make
     * {@code build()} throw {@link UnsupportedOperationException}, so we ask the library instead of hard-coding a list.
     *
     * @return empty if the pool can be built, else the reason
     */
    public Optional<String> unavailableReason() {
        if (this == VIRTUAL_THREADS && Runtime.version().feature() < 21) {
            return Optional.of("virtual threads need JDK 21 or newer (this is JDK " + Runtime.version().feature()
                    + ")");
        }
        if (this == NETTY) {
            try {
                Class.forName(NETTY_PROBE_CLASS, false, PoolKind.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                return Optional.of("Netty 4.2 is not on the class path (" + NETTY_PROBE_CLASS + " not found)");
            }
        }
        if (!isSpindle()) return Optional.empty();
        try {
            ThreadPool.builder().threads(1).sleepStrategy(strategy).build().close();
            return Optional.empty();
        } catch (UnsupportedOperationException e) {
            return Optional.of("SleepStrategy." + strategy + " is not implemented in this build (build() threw "
                    + "UnsupportedOperationException)");
        }
    }

    /** @throws IllegalArgumentException naming the known pools if {@code id} is none of them */
    public static PoolKind byId(String id) {
        for (PoolKind k : values()) {
            if (k.id.equals(id)) return k;
        }
        throw new IllegalArgumentException("unknown pool '" + id + "'; known: " + String.join(", ", ids()));
    }

    public static String[] ids() {
        return Arrays.stream(values()).map(PoolKind::id).toArray(String[]::new);
    }
}
