package io.spindle.bench;

import io.spindle.JoinStrategy;
import io.spindle.SleepStrategy;
import io.spindle.ThreadPool;

import java.util.Arrays;
import java.util.Optional;

/**
 * The contenders of SPEC §4, by their fixed names in results.json. The {@code spindle-*} pools take the library's
 * default join strategy (lazy, SPEC §7), except {@code spindle-jec-eager}, the same JEC pool with eager joins, so that
 * one run (same JVM, same rounds) compares the two join strategies.
 */
public enum PoolKind {
    SPINDLE_JEC("spindle-jec", SleepStrategy.JOBS_EVENT_COUNTER, null),
    SPINDLE_JEC_EAGER("spindle-jec-eager", SleepStrategy.JOBS_EVENT_COUNTER, JoinStrategy.EAGER),
    SPINDLE_SLEEPY("spindle-sleepy", SleepStrategy.SLEEPY_WORKER, null),
    SPINDLE_HINT("spindle-hint", SleepStrategy.HINT_PIPE, null),
    FJP("fjp", null, null),
    SEQUENTIAL("sequential", null, null);

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
