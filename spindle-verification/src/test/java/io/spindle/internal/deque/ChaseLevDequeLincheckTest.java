package io.spindle.internal.deque;

import org.jetbrains.kotlinx.lincheck.LinCheckerKt;
import org.jetbrains.kotlinx.lincheck.strategy.LincheckFailure;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Lincheck model checking of the real {@link ChaseLevDeque}: push and pop by the owner only (one non-parallel group,
 * so they run on one thread), steal from any thread. Every interleaving Lincheck explores must be linearizable
 * against the deque run sequentially (push/pop LIFO at the bottom, steal FIFO at the top). The weakened copy (pop
 * takes the last element without its CAS) must fail the same check.
 */
class ChaseLevDequeLincheckTest {
    static ModelCheckingOptions options() {
        return new ModelCheckingOptions()
                .iterations(Integer.getInteger("spindle.lincheck.iterations", 40))
                .invocationsPerIteration(Integer.getInteger("spindle.lincheck.invocations", 1000))
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(1);
    }

    @Param(name = "value", gen = IntGen.class, conf = "1:4")
    public static class Real {
        private final ChaseLevDeque<Integer> deque = new ChaseLevDeque<>();

        @Operation(nonParallelGroup = "owner")
        public void push(@Param(name = "value") int value) {
            deque.push(value);
        }

        @Operation(nonParallelGroup = "owner")
        public Integer pop() {
            return deque.pop();
        }

        @Operation
        public Integer steal() {
            return deque.steal();
        }
    }

    @Param(name = "value", gen = IntGen.class, conf = "1:4")
    public static class WeakenedNoCas {
        private final WeakenedChaseLevDeque<Integer> deque =
                new WeakenedChaseLevDeque<>(WeakenedChaseLevDeque.Weakening.POP_WITHOUT_CAS);

        @Operation(nonParallelGroup = "owner")
        public void push(@Param(name = "value") int value) {
            deque.push(value);
        }

        @Operation(nonParallelGroup = "owner")
        public Integer pop() {
            return deque.pop();
        }

        @Operation
        public Integer steal() {
            return deque.steal();
        }
    }

    @Test
    void dequeIsLinearizable() {
        options().check(Real.class);
    }

    @Test
    void weakenedDequeIsCaught() {
        LincheckFailure failure = LinCheckerKt.checkImpl(options(), WeakenedNoCas.class);
        assertNotNull(failure, "Lincheck must find the weakened deque (pop without CAS) non-linearizable");
        System.out.println("[lincheck] WeakenedChaseLevDeque(POP_WITHOUT_CAS) caught, as it must be:\n"
                + String.join("\n", failure.toString().lines().limit(12).toArray(String[]::new)));
    }
}
