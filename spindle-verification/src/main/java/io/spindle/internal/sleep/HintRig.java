package io.spindle.internal.sleep;

import io.spindle.internal.latch.CoreLatch;
import io.spindle.internal.latch.LatchOwner;

import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.IntSupplier;

/**
 * {@link SleeperRig} for the HINT_PIPE protocol ({@link HintPipeSleep}, EMPER's pipe sleep strategy): a
 * one-worker pool with its real pipe and selector, whose worker 0 is idle just before it registers as a sleeper
 * (H3, H4) or just after (its next round blocks). The injector is a real {@code ConcurrentLinkedQueue}, as in the
 * registry. Every rig opens a pipe and a selector: {@link #close()} them (the tests do, in their arbiter).
 *
 * <p>Lost wake-up, without timing: (inject) after the notifier returned, the sleeper blocked while its registration is
 * still counted: no notifier took it, so no hint will come (H1: notifiers take registrations off the count before
 * writing hints); (latch) the sleeper blocked and the latch's setter did not ask to wake it. A broken wake request
 * (H5) would leave the sleeper blocked after a wake was asked for: that shows as a jcstress timeout, not an outcome.
 */
public final class HintRig extends SleeperRig {
    /** Where worker 0 is when the actors start. */
    public enum Stage {
        /** Its next failed search makes it register as a sleeper (or take a notifier's credit, H3). */
        ABOUT_TO_REGISTER,
        /** Registered; its next failed search blocks on the pipe (H4: one more search after registering). */
        REGISTERED
    }

    private final IntSupplier sleepersCount;
    /** Whether the waker sets the latch (else it posts a job). */
    private final boolean latchTest;
    private final Runnable rescueByHint;

    public static HintRig real(Stage stage) {
        HintPipeSleep s = new HintPipeSleep(1);
        return new HintRig(s, stage, null, false, s::sleepersCount,
                () -> s.notifyAnywhere(1, HintPipeSleep.INJECTOR_CODE));
    }

    /** A rig whose waker sets the sleeper's latch: made by {@code latch} from the rig's recording owner. */
    public static HintRig realForLatch(Stage stage, Function<LatchOwner, CoreLatch> latch) {
        HintPipeSleep s = new HintPipeSleep(1);
        return new HintRig(s, stage, latch, true, s::sleepersCount,
                () -> s.notifyAnywhere(1, HintPipeSleep.INJECTOR_CODE));
    }

    /** For variants (the weakened copy in the test sources). */
    public HintRig(SleepProtocol sleep, Stage stage, Function<LatchOwner, CoreLatch> latch, boolean latchTest,
                   IntSupplier sleepersCount, Runnable rescueByHint) {
        super(sleep, latch, true);
        this.latchTest = latchTest;
        this.sleepersCount = sleepersCount;
        this.rescueByHint = rescueByHint;
        sleep.startLooking(idle);
        idle.rounds = HintPipeSleep.ROUNDS_UNTIL_SLEEPY;
        if (stage == Stage.REGISTERED) {
            sleep.noWorkFound(idle, this.latch);
            if (idle.rounds != HintPipeSleep.ROUNDS_UNTIL_SLEEPY + 1 || sleepersCount.getAsInt() != 1) {
                throw new IllegalStateException("rig did not register: " + sleep);
            }
        }
    }

    /**
     * Sleeper: the worker loop's inner loop (search, else noWorkFound) until it finds work, blocks and is woken, or
     * leaves the sleep step without blocking.
     *
     * @return SEARCH_SAW_IT, COUNTER_SAW_IT (it took a notifier's credit, H3, then found the job),
     *         FINAL_CHECK_OR_LATCH_SAW_IT or BLOCKED
     */
    public int sleeperLoop(BooleanSupplier search) {
        boolean credit = false;
        while (true) {
            if (latch.probe()) {
                sleep.leaveIdle(idle, false);
                return tryToSleepDone(SEARCH_SAW_IT);
            }
            if (search.getAsBoolean()) {
                sleep.leaveIdle(idle, true);
                return tryToSleepDone(credit ? COUNTER_SAW_IT : SEARCH_SAW_IT);
            }
            int before = idle.rounds;
            sleep.noWorkFound(idle, latch);
            if (sleep.sleeps(0) > 0) {
                sleep.leaveIdle(idle, false);
                return tryToSleepDone(BLOCKED);
            }
            if (before > HintPipeSleep.ROUNDS_UNTIL_SLEEPY) {
                sleep.leaveIdle(idle, false);
                return tryToSleepDone(FINAL_CHECK_OR_LATCH_SAW_IT);
            }
            if (before == HintPipeSleep.ROUNDS_UNTIL_SLEEPY && idle.rounds == before) {
                credit = true; // H3: registering took a credit; search again
            }
        }
    }

    /** Closes the pipe and selector. */
    public void close() {
        sleep.close();
    }

    @Override
    protected boolean blockedAndUnwoken() {
        if (sleep.sleeps(0) == 0) {
            return false;
        }
        if (latchTest) {
            return !latchWakeCalled(); // blocked, and the setter (done) did not ask to wake us
        }
        return sleepersCount.getAsInt() > 0; // blocked, and our registration is still counted: no hint will come
    }

    @Override
    protected void rescue() {
        if (latchTest) {
            sleep.notifyWorkerLatchIsSet(0);
        } else {
            rescueByHint.run();
        }
    }

    @Override
    protected int sleeperPathCode() {
        return FINAL_CHECK_OR_LATCH_SAW_IT;
    }
}
