package io.spindle.bench;

import io.spindle.SleepStrategy;
import io.spindle.ThreadPool;

import java.util.Arrays;
import java.util.Optional;

/** The contenders of SPEC §4, by their fixed names in results.json. */
public enum PoolKind {
    SPINDLE_JEC("spindle-jec", SleepStrategy.JOBS_EVENT_COUNTER),
    SPINDLE_SLEEPY("spindle-sleepy", SleepStrategy.SLEEPY_WORKER),
    SPINDLE_HINT("spindle-hint", SleepStrategy.HINT_PIPE),
    FJP("fjp", null),
    SEQUENTIAL("sequential", null);

    private final String id;
    private final SleepStrategy strategy;

    PoolKind(String id, SleepStrategy strategy) {
        this.id = id;
        this.strategy = strategy;
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
