package io.spindle.internal.sleep;

import io.spindle.SleepStrategy;
import io.spindle.internal.event.PoolEvents;
import io.spindle.internal.latch.CoreLatch;
import io.spindle.internal.latch.LatchOwner;
import io.spindle.internal.latch.WorkerLatch;

import java.nio.channels.SelectableChannel;

/**
 * E6 (registry package-info): runs one protocol's sleep and every one of its wake-ups once, on a throwaway protocol
 * of one worker, on the calling thread, so that the call sites those paths execute are linked before a pool accepts
 * work (a VarHandle call site, a lambda, a native method and a class initializer allocate on their first execution,
 * and a wake-up's first execution may come with the heap full). Through {@link SleepProtocols#linkWakePaths}.
 *
 * <p>How one thread plays both sides: this object is the throwaway worker's {@link Blocker}, its
 * {@link IdleState.WorkView} (no work anywhere) and its latch's {@link LatchOwner}. The worker loop's steps run here
 * ({@code startLooking}, {@code noWorkFound} until the worker sleeps, {@code leaveIdle}); when the protocol blocks the
 * worker, {@link #block()} performs one waker's step (a latch set, a broadcast, an injection, an internal push, the
 * terminate sequence), exactly as another thread would, and returns; the protocol's own loop then sees the wake-up and
 * leaves its sleep. The pool's real blocker, the worker's IO poller, is linked by {@code IoPoller.linkWakePaths}.
 */
final class WakePathLinks implements Blocker, IdleState.WorkView, LatchOwner {
    /** The wakers' steps, one per sleep; the terminate sequence last (it leaves HINT_PIPE's count in credit). */
    private static final int LATCH_SET = 0;
    private static final int BROADCAST = 1;
    private static final int INJECTED = 2;
    private static final int INTERNAL = 3;
    private static final int TERMINATE = 4;
    /** Search rounds one sleep may take to block: far more than any protocol's yields before sleeping (A1). */
    private static final int MAX_ROUNDS = 100_000;

    private SleepProtocol protocol;
    private CoreLatch latch;
    private int action;
    private boolean acted;

    private WakePathLinks() {
    }

    /** See the class comment; closes the throwaway protocol (HINT_PIPE's pipe and selector) before it returns. */
    static void link(SleepStrategy strategy) {
        WakePathLinks links = new WakePathLinks();
        SleepProtocol p = SleepProtocols.create(strategy, 1, PoolEvents.NONE, i -> links);
        links.protocol = p;
        try {
            IdleState idle = new IdleState(0, links, p.maxRoundsUntilSleepy());
            for (int action = LATCH_SET; action <= TERMINATE; action++) {
                links.sleepAndWake(idle, action);
            }
        } finally {
            p.close();
        }
    }

    /** One wait of the worker loop (SleepProtocol's contract) that sleeps once and is woken by {@code action}. */
    private void sleepAndWake(IdleState idle, int action) {
        this.latch = new WorkerLatch(this, 0);
        this.action = action;
        this.acted = false;
        protocol.startLooking(idle);
        try {
            for (int round = 0; !acted && !latch.probe(); round++) {
                if (round == MAX_ROUNDS) {
                    throw new IllegalStateException("E6 link step: the " + protocol.getClass().getSimpleName()
                            + " worker never slept");
                }
                protocol.noWorkFound(idle, latch);
            }
        } finally {
            protocol.leaveIdle(idle, false);
        }
    }

    /** The worker blocks: play the waker, once per sleep; the protocol's loop then finds itself woken. */
    @Override
    public void block() {
        if (acted) {
            throw new IllegalStateException("E6 link step: a waker's step did not end the sleep (action " + action
                    + ", " + protocol.getClass().getSimpleName() + ")");
        }
        acted = true;
        switch (action) {
            case LATCH_SET:
                latch.set(); // L1: SLEEPING, so it calls wakeLatchOwner below, as a job's completion does
                break;
            case BROADCAST:
                protocol.newBroadcastJobs();
                break;
            case INJECTED:
                protocol.newInjectedJobs(1, true);
                break;
            case INTERNAL:
                protocol.newInternalJobs(0, 1, true);
                break;
            default:
                latch.set(); // Registry.terminateWorkers: every terminate latch, then the protocol's own step
                protocol.terminate();
                break;
        }
    }

    @Override
    public void unblock() {
        // the throwaway worker is this thread, which is not blocked: nothing to deliver
    }

    @Override
    public void watch(SelectableChannel source, boolean on) {
        // HINT_PIPE's watcher (H9): the hint is read by the protocol's own non-blocking read after block() returns
    }

    @Override
    public void wakeLatchOwner(int index) {
        protocol.notifyWorkerLatchIsSet(index); // Registry.wakeLatchOwner's step
    }

    @Override
    public boolean hasInjectedOrPrivateWork() {
        return false;
    }
}
