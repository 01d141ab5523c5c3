package io.spindle.internal.sleep;

import org.jetbrains.kotlinx.lincheck.LinCheckerKt;
import org.jetbrains.kotlinx.lincheck.strategy.LincheckFailure;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Lincheck model checking of the real {@link JecCounters}: every operation on the packed word is atomic (each concurrent
 * history is explained by some sequential order of the same operations, with the same return values). The
 * registration is checked the way JecSleep uses it: a CAS from a fresh load, retried while the JEC still equals the
 * remembered one. The weakened copy (read-then-write adds) must fail the same check.
 */
class JecCountersLincheckTest {
    static ModelCheckingOptions options() {
        return new ModelCheckingOptions()
                .iterations(Integer.getInteger("spindle.lincheck.iterations", 40))
                .invocationsPerIteration(Integer.getInteger("spindle.lincheck.invocations", 1000))
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(1);
    }

    @Param(name = "jec", gen = IntGen.class, conf = "0:3")
    public static class Real {
        private final JecCounters c = new JecCounters();

        @Operation
        public long load() {
            return c.load();
        }

        @Operation
        public void addInactive() {
            c.addInactiveThread();
        }

        @Operation
        public int subInactive() {
            return c.subInactiveThread();
        }

        @Operation
        public void subSleeping() {
            c.subSleepingThread();
        }

        @Operation
        public long post() {
            return c.incrementJecIfSleepy();
        }

        @Operation
        public long getSleepy() {
            return c.incrementJecIfActive();
        }

        /** JecSleep.sleep's registration loop against a remembered JEC. */
        @Operation
        public boolean register(@Param(name = "jec") int snapshot) {
            while (true) {
                long w = c.load();
                if (JecCounters.jobsEventCounter(w) != snapshot) {
                    return false;
                }
                if (c.tryAddSleepingThread(w)) {
                    return true;
                }
            }
        }
    }

    public static class Weakened {
        private final WeakenedJecCounters c = new WeakenedJecCounters(0L);

        @Operation
        public long load() {
            return c.load();
        }

        @Operation
        public void addInactive() {
            c.addInactiveThread();
        }

        @Operation
        public long post() {
            return c.incrementJecIfSleepy();
        }

        @Operation
        public long getSleepy() {
            return c.incrementJecIfActive();
        }
    }

    @Test
    void countersAreAtomic() {
        options().check(Real.class);
    }

    @Test
    void weakenedCountersAreCaught() {
        LincheckFailure failure = LinCheckerKt.checkImpl(options(), Weakened.class);
        assertNotNull(failure, "Lincheck must find the weakened counters (non-atomic add) non-linearizable");
        System.out.println("[lincheck] WeakenedJecCounters (read-then-write add) caught, as it must be:\n"
                + String.join("\n", failure.toString().lines().limit(12).toArray(String[]::new)));
    }
}
