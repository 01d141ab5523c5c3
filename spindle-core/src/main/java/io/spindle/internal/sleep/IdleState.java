package io.spindle.internal.sleep;

/**
 * One worker's progress through the idle states during one search (rounds, the remembered JEC, a hint, where its last
 * find came from), owned by that worker alone and reused across searches so the idle path allocates nothing.
 */
public final class IdleState {
    /** A JEC value no real snapshot is compared with: set whenever the worker is not sleepy. */
    static final int NO_JEC_SNAPSHOT = -1;

    /** {@link #takeHint()}: no hint. */
    public static final int NO_HINT = -1;
    /** {@link #takeHint()}: the new work is in the injector. */
    public static final int HINT_INJECTOR = -2;

    /** {@link #foundWork(int)}: nothing found in this search yet. */
    static final int FOUND_NOTHING = -1;
    /** {@link #foundWork(int)}: the job came from the injector. */
    public static final int FOUND_IN_INJECTOR = -2;
    /**
     * {@link #foundWork(int)}: the job is an IO completion of the worker's own poller (docs/DESIGN.md §6). Spinning did
     * not find it: the worker's selector would have woken it as soon (A1 does not reward spinning for it).
     */
    public static final int FOUND_OWN_IO = -3;

    /**
     * What a worker can tell its protocol about the work it can see. Each answer is a racy snapshot; the protocol
     * rules say which reads are ordered after which atomic step, and so what a snapshot is good for.
     */
    @FunctionalInterface
    public interface WorkView {
        /** The final check before blocking (J5, H5): is there work in the injector or the worker's private queue? */
        boolean hasInjectedOrPrivateWork();

        /**
         * The cascade (A2): is more work visible where the last job came from ({@code source}: a worker index, whose
         * deque was searched, or {@link #FOUND_IN_INJECTOR})? Default: no.
         */
        default boolean moreWorkAt(int source) {
            return false;
        }

        /**
         * Leaving through the latch (A4): is any work visible anywhere a sleeper could find it (the injector, any
         * deque, this worker's private queue)? Default: the final check's answer.
         */
        default boolean anyWorkVisible() {
            return hasInjectedOrPrivateWork();
        }
    }

    /**
     * A1: a sleep that a waker ended sooner than this counts as one that a little more spinning would have saved
     * (property {@code spindle.idle.shortSleepMicros}, default 50; 0 turns the rule off): in a busy phase of jobs the
     * next one comes within microseconds, and under sparse load sleeps last milliseconds. A sleep that the worker's own
     * IO ended never counts as short (see {@link #adaptRoundsAfterSleep}).
     */
    static final long SHORT_SLEEP_NANOS = Math.max(0L, Long.getLong("spindle.idle.shortSleepMicros", 50L)) * 1_000L;

    private final int workerIndex;
    private final WorkView view;
    private int hint = NO_HINT;
    /** Where this search's find came from, for the cascade; asked lazily, only when sleepers exist (A2). */
    private int foundAt = FOUND_NOTHING;
    int rounds;
    int jecSnapshot = NO_JEC_SNAPSHOT;
    /**
     * This worker's adaptive limit of yielding rounds (A1), kept across searches; it starts at its protocol's fixed
     * count ({@link SleepProtocol#maxRoundsUntilSleepy}), which SLEEPY_WORKER and HINT_PIPE also cap it with when
     * they read it ({@link #roundsUntilSleepy(int)}); JOBS_EVENT_COUNTER reads it as it is (its rigs in
     * spindle-verification set it out of range on purpose).
     */
    int roundsUntilSleepy;
    /**
     * SLEEPY_WORKER (S6): set before each attempt to take the sleepy role, cleared once {@code leaveIdle} gave it up;
     * a worker whose flag is clear holds no role, so leaving the idle state reads no shared word.
     */
    boolean mayHoldSleepyRole;
    /**
     * JOBS_EVENT_COUNTER: whether this worker is counted in {@code inactive}. Set and cleared right after the atomic
     * step, with no call between, so that a start or leave step that throws (a stack overflow anywhere around it) and
     * is repeated never counts the worker twice or not at all (E1, E4 in the registry's package-info).
     */
    boolean countedInactive;

    /**
     * @param workerIndex the owning worker
     * @param view        what the worker can see of the pool's work (J5's final check, A2's cascade, A4's hand-on)
     */
    public IdleState(int workerIndex, WorkView view) {
        this(workerIndex, view, JecSleep.ROUNDS_UNTIL_SLEEPY);
    }

    /**
     * @param maxRoundsUntilSleepy where the adaptive limit starts: the protocol's fixed count (A1)
     */
    public IdleState(int workerIndex, WorkView view, int maxRoundsUntilSleepy) {
        this.workerIndex = workerIndex;
        this.view = view;
        this.roundsUntilSleepy = maxRoundsUntilSleepy;
    }

    public int workerIndex() {
        return workerIndex;
    }

    /**
     * Owner: where a waker said new work is, consumed once: a worker index (look in its deque), {@link #HINT_INJECTOR},
     * or {@link #NO_HINT}. The worker looks there after its own deque and before its normal search.
     */
    public int takeHint() {
        int h = hint;
        if (h != NO_HINT) {
            hint = NO_HINT;
        }
        return h;
    }

    /** Owner (its protocol, after waking): remembers the hint it received. */
    void setHint(int hint) {
        this.hint = hint;
    }

    /** Owner (its protocol, leaving the idle state): a hint received and not yet looked at, or {@link #NO_HINT}. */
    int unusedHint() {
        return hint;
    }

    boolean hasInjectedOrPrivateWork() {
        return view.hasInjectedOrPrivateWork();
    }

    /** A2: whether more work stayed visible where this search's job came from (read now, after the find). */
    boolean moreWorkVisible() {
        return foundAt != FOUND_NOTHING && view.moreWorkAt(foundAt);
    }

    /** A4: whether any work is visible anywhere a sleeper could find it. */
    boolean anyWorkVisible() {
        return view.anyWorkVisible();
    }

    /** Start of a search: forgets the last search's rounds, snapshot, find and any hint it did not use. */
    void reset() {
        rounds = 0;
        jecSnapshot = NO_JEC_SNAPSHOT;
        foundAt = FOUND_NOTHING;
        hint = NO_HINT;
    }

    /**
     * Owner, when its search found a job: records where it came from (a worker index whose deque held it, or
     * {@link #FOUND_IN_INJECTOR}); whether more stayed there is asked only if the protocol needs it.
     */
    public void foundWork(int source) {
        this.foundAt = source;
    }

    /** A1: whether the job found came from somewhere that spinning helps to find (not the worker's own IO). */
    boolean foundBySearching() {
        return foundAt != FOUND_OWN_IO;
    }

    /** A1: the yielding rounds of this search, at most the protocol's fixed count {@code max}. */
    int roundsUntilSleepy(int max) {
        return Math.min(roundsUntilSleepy, max);
    }

    /**
     * A1, when a search found work: if it found it after at least half the current limit (and at least one failed
     * round), spinning paid off: allow twice as much next time (at least 2), up to the protocol's fixed count.
     */
    void adaptRoundsAfterFinding(int max) {
        int limit = roundsUntilSleepy(max);
        if (rounds > 0 && rounds * 2 >= limit && limit < max) {
            roundsUntilSleepy = Math.min(max, Math.max(2, limit * 2));
        }
    }

    /**
     * A1, when the worker woke from a sleep of {@code sleptNanos}: a long sleep means its spinning could not have
     * found the work, so it spins half as long next time (at least {@code min}); a sleep shorter than
     * {@link #SHORT_SLEEP_NANOS} that a waker ended means a little more spinning would have found the work without a
     * sleep and a wake-up (a worker under steady load whose jobs come back within microseconds), so it spins twice as
     * long (at least 2, at most {@code max}). A sleep that the worker's own events ended ({@code endedByOwnIo}: its
     * selector returned with ready IO, or another thread queued an interest or sweep request for it) counts as long
     * however short it was: spinning finds ready IO only at the idle search's poll, every 50 µs, later than the
     * selector, a request leads to a registration rather than a job, and under ping-pong IO with clients in their own
     * processes the yields cost more than the sleeps they save (A1 in package-info, BENCHMARKS.md issue 29).
     */
    void adaptRoundsAfterSleep(int min, int max, long sleptNanos, boolean endedByOwnIo) {
        int limit = roundsUntilSleepy(max);
        roundsUntilSleepy = sleptNanos < SHORT_SLEEP_NANOS && !endedByOwnIo ? Math.min(max, Math.max(2, limit * 2))
                : Math.max(min, limit >> 1);
    }

    /** Woken, or the latch was set: search from scratch. Keeps the hint a wake-up brought (the search uses it). */
    void wakeFully() {
        rounds = 0;
        jecSnapshot = NO_JEC_SNAPSHOT;
        foundAt = FOUND_NOTHING;
    }

    /** Work was posted while sleepy: search once more, then get sleepy again (no long yield phase). */
    void wakePartly(int roundsUntilSleepy) {
        rounds = roundsUntilSleepy;
        jecSnapshot = NO_JEC_SNAPSHOT;
    }
}
