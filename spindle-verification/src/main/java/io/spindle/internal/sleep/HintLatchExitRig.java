package io.spindle.internal.sleep;

import java.util.function.IntSupplier;

/**
 * {@link LatchExitRig} for the HINT_PIPE protocol, with its real pipe and selector. Both workers registered as sleepers
 * in the constructor (rounds up to {@code ROUNDS_UNTIL_SLEEPY}, then the registering round: sleepers = 2), so the next
 * failed search of each blocks. W0's actor blocks first and takes the watch (the one thread that selects on the pipe,
 * H6); then the poster puts W1 to sleep (parked, not watching). The poster's latch set wakes W0 by a wake request
 * (H5); its injection (notifyAnywhere, H3) takes one registration off the count and writes one hint, which W0, still
 * the watcher, reads if it is in the pipe when W0 looks: then W0 holds a hint it will not follow, since its latch is
 * set, and the only registration left is W1's. H8's forwarding in {@code leaveIdle} must hand the hint on.
 *
 * <p>W1 unwoken, without timing: its registration is still counted after every notifier returned, so no hint is on its
 * way (H1: notifiers take registrations off the count before writing hints; H2). Every rig opens a pipe and a
 * selector: {@link #close()} them (the tests do, in their arbiter).
 */
public final class HintLatchExitRig extends LatchExitRig {
    private final IntSupplier sleepersCount;
    private final IntSupplier watcher;

    /** A rig on the real {@link HintPipeSleep}. */
    public static HintLatchExitRig real() {
        HintPipeSleep s = new HintPipeSleep(2);
        return new HintLatchExitRig(s, s::sleepersCount, s::watcher);
    }

    /** For variants (the weakened copy in the test sources). */
    public HintLatchExitRig(SleepProtocol sleep, IntSupplier sleepersCount, IntSupplier watcher) {
        super(sleep);
        this.sleepersCount = sleepersCount;
        this.watcher = watcher;
        sleep.startLooking(idle0);
        sleep.startLooking(idle1);
        idle0.rounds = HintPipeSleep.ROUNDS_UNTIL_SLEEPY; // the yielding rounds only call Thread.yield
        idle1.rounds = HintPipeSleep.ROUNDS_UNTIL_SLEEPY;
        sleep.noWorkFound(idle0, latch0);                 // W0 registers (H4: it searches once more, then blocks)
        sleep.noWorkFound(idle1, latch1);                 // W1 registers
        int sleeping = HintPipeSleep.ROUNDS_UNTIL_SLEEPY + 1; // registered: the next failed search blocks
        if (idle0.rounds != sleeping || idle1.rounds != sleeping || sleepersCount.getAsInt() != 2) {
            throw new IllegalStateException("rig did not register: " + sleep);
        }
    }

    /** Closes the pipe and selector. */
    public void close() {
        sleep.close();
    }

    @Override
    protected boolean readyForW1() {
        // W0 blocked holding the watch: it counts its sleep just before it selects.
        return watcher.getAsInt() == 0 && sleep.sleeps(0) > 0;
    }

    @Override
    protected boolean sleepersAreAsleep() {
        return sleep.sleeps(1) > 0; // W1 past its checks (latch, final check, wake request): about to park
    }

    @Override
    protected boolean w1Unwoken() {
        // W0 has left (and retracted, if its registration was still untaken), every notifier returned: a positive
        // count is W1's registration, which no notifier took, so no hint will come for it.
        return sleepersCount.getAsInt() > 0;
    }
}
