package io.spindle.internal.sleep;

import io.spindle.internal.event.PoolEvents;
import io.spindle.internal.latch.LatchOwner;
import io.spindle.internal.latch.WorkerLatch;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.channels.SelectableChannel;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A1 in package-info: a sleep that the worker's own IO ended counts as a long one however short it was, in each
 * protocol, so a worker whose selector returns at once lowers its limit of yielding rounds instead of raising it. The
 * blocker here is a selector whose IO is always ready: every block returns at once with own events.
 */
class OwnIoSleepLimitTest {

    /** A selector with IO always ready: each wait returns at once, and the protocol ends the sleep for it (J7/H9/S7). */
    private static final class ReadyIoBlocker implements Blocker {
        int blocks;
        int sleepsEnded;

        @Override
        public void block() {
            blocks++;
        }

        @Override
        public void unblock() {
        }

        @Override
        public boolean ownEventsReady() {
            return true;
        }

        @Override
        public void ownEventsEndedSleep() {
            sleepsEnded++;
        }

        @Override
        public void watch(SelectableChannel source, boolean on) {
            // HINT_PIPE's watcher adds the hint pipe to its wait: ready IO ends the wait first anyway
        }
    }

    private static SleepProtocol protocol(String name, IntFunction<Blocker> blockers) {
        switch (name) {
            case "JOBS_EVENT_COUNTER":
                return new JecSleep(1, JecSleep.IDLE_JUDGEMENT, PoolEvents.NONE, blockers);
            case "SLEEPY_WORKER":
                return new SleepyWorkerSleep(1, PoolEvents.NONE, blockers);
            case "HINT_PIPE":
                return new HintPipeSleep(1, PoolEvents.NONE, blockers);
            default:
                throw new IllegalArgumentException(name);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"JOBS_EVENT_COUNTER", "SLEEPY_WORKER", "HINT_PIPE"})
    void eachSleepThatOwnIoEndedHalvesTheLimit(String name) {
        ReadyIoBlocker blocker = new ReadyIoBlocker();
        SleepProtocol sleep = protocol(name, i -> blocker);
        try {
            sleepEightTimesOnReadyIo(name, sleep, blocker);
        } finally {
            sleep.close(); // HINT_PIPE's pipe
        }
    }

    private static void sleepEightTimesOnReadyIo(String name, SleepProtocol sleep, ReadyIoBlocker blocker) {
        int max = sleep.maxRoundsUntilSleepy();
        IdleState idle = new IdleState(0, () -> false, max);
        LatchOwner owner = sleep::notifyWorkerLatchIsSet;
        WorkerLatch latch = new WorkerLatch(owner, 0);
        int expected = max;
        for (int sleeps = 1; sleeps <= 8; sleeps++) {
            sleep.startLooking(idle);
            int before = blocker.sleepsEnded;
            for (int round = 0; blocker.sleepsEnded == before; round++) {
                assertTrue(round < 100 * max + 100, name + ": no sleep after " + round + " rounds");
                sleep.noWorkFound(idle, latch); // the last one sleeps, and returns at once for the ready IO
            }
            idle.foundWork(IdleState.FOUND_OWN_IO); // the search that follows takes the IO's job
            sleep.leaveIdle(idle, true);
            expected = Math.max(0, expected / 2);
            int minimum = name.equals("JOBS_EVENT_COUNTER") ? JecSleep.MIN_ROUNDS_UNTIL_SLEEPY
                    : name.equals("SLEEPY_WORKER") ? SleepyWorkerSleep.MIN_ROUNDS_UNTIL_SLEEPY
                    : HintPipeSleep.MIN_ROUNDS_UNTIL_SLEEPY;
            assertEquals(Math.max(minimum, expected), idle.roundsUntilSleepy(max),
                    name + ": the limit after " + sleeps + " sleeps ended by own IO at once");
        }
    }
}
