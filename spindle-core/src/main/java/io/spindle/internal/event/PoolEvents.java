package io.spindle.internal.event;

import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * One pool's door to the JFR events (see package-info): the engine calls these hooks and nothing else of this package.
 * Every hook is a field test and a return while JFR is absent, and a test of a static JFR setting while the event is
 * disabled; an event object exists only while a recording has the event enabled.
 *
 * <p>This class names no {@code jdk.jfr} type, so it loads and runs without the module.
 */
public final class PoolEvents {
    /** {@code waker} of a WorkerWoken event when the waker is not a worker of the pool, or unknown. */
    public static final int NOT_A_WORKER = -1;
    /** Steals after which a worker commits its steal batch even though it keeps finding work. */
    public static final int STEAL_BATCH_LIMIT = 1024;

    /** Whether jdk.jfr is in the boot layer and this module reads it; decided once. */
    private static final boolean JFR = jfrReadable();

    /** Hooks that record nothing: for protocols built without a pool (tests, jcstress rigs). */
    public static final PoolEvents NONE = new PoolEvents(null, null, t -> NOT_A_WORKER);

    private final String pool;
    private final String strategy;
    private final ToIntFunction<Thread> workerIndexOf;
    private final boolean on;

    /**
     * @param pool          the pool's name, put into every event
     * @param strategy      the pool's sleep strategy, for WorkerSleep
     * @param workerIndexOf a thread's index among the pool's workers, or {@link #NOT_A_WORKER}
     */
    public PoolEvents(String pool, String strategy, ToIntFunction<Thread> workerIndexOf) {
        this.pool = pool;
        this.strategy = strategy;
        this.workerIndexOf = workerIndexOf;
        this.on = JFR && pool != null && eventClassesInitialized();
    }

    /**
     * Runs the event classes' initializers now, on the thread that builds the pool, so that no hook ever runs one.
     * Each initializer registers its event with JFR, which allocates; one that fails (out of memory on whichever thread
     * happened to emit that event first: a worker about to sleep, a caller of spawn) leaves its class unusable for
     * the rest of the JVM's life, and a hook on a worker's sleep path would then throw on every later sleep, so the
     * worker could never block again. Here a failure is the build's: running out of memory fails the build, and a
     * class that an earlier failure left unusable (a {@link LinkageError}) turns this pool's events off.
     */
    private static boolean eventClassesInitialized() {
        try {
            WorkerSleepEvent.enabled();
            WorkerWokenEvent.enabled();
            StealBatchEvent.enabled();
            InjectionEvent.enabled();
            PromotionEvent.enabled();
            HandOffEvent.enabled();
            return true;
        } catch (LinkageError unusable) {
            return false; // ExceptionInInitializerError now, or NoClassDefFoundError after an earlier failure
        }
    }

    /**
     * Without jdk.jfr (a runtime image without it, {@code --limit-modules}, or a layer where this module does not
     * read it) the event classes must never load: their superclass would be missing.
     */
    private static boolean jfrReadable() {
        Optional<Module> jfr = ModuleLayer.boot().findModule("jdk.jfr");
        return jfr.isPresent() && PoolEvents.class.getModule().canRead(jfr.get());
    }

    // --- sleeping and waking ----------------------------------------------------------------------------------------

    /**
     * A worker is about to enter its protocol's sleep sequence. Call it before the sequence, never inside it.
     *
     * @return a token for {@link #sleepEnded}, null unless WorkerSleep is being recorded
     */
    public Object sleepBegin(int worker) {
        return on && WorkerSleepEvent.enabled() ? WorkerSleepEvent.begin(pool, strategy, worker) : null;
    }

    /**
     * The worker blocked and has woken, and left its protocol's sleep sequence: commits its WorkerSleep and a
     * WorkerWoken naming {@code waker}'s index.
     *
     * @param sleep  what {@link #sleepBegin} returned
     * @param waker  the waking thread, or null if unknown
     */
    public void sleepEnded(Object sleep, int worker, WakeReason why, Thread waker) {
        if (sleep != null) {
            WorkerSleepEvent.end(sleep); // non-null only if sleepBegin found jdk.jfr and the event enabled
        }
        if (on && WorkerWokenEvent.enabled()) {
            int wakerIndex = waker == null ? NOT_A_WORKER : workerIndexOf.applyAsInt(waker);
            WorkerWokenEvent.commit(pool, worker, wakerIndex, waker, reason(why));
        }
    }

    /** As {@link #sleepEnded(Object, int, WakeReason, Thread)}, when only the waker's index is known. */
    public void sleepEnded(Object sleep, int worker, WakeReason why, int wakerIndex) {
        if (sleep != null) {
            WorkerSleepEvent.end(sleep);
        }
        if (on && WorkerWokenEvent.enabled()) {
            WorkerWokenEvent.commit(pool, worker, wakerIndex, null, reason(why));
        }
    }

    private static String reason(WakeReason why) {
        return why == null ? "UNKNOWN" : why.name(); // defensive: every protocol passes a reason
    }

    // --- stealing and injecting -------------------------------------------------------------------------------------

    /**
     * A worker's run of steals ended.
     *
     * @param victimBits   bit {@code i % 64} set for each victim index {@code i}
     * @param limitReached whether the batch ended at {@link #STEAL_BATCH_LIMIT} rather than at a failed search
     */
    public void stealBatch(int worker, long steals, long victimBits, boolean limitReached) {
        if (on && StealBatchEvent.enabled()) {
            StealBatchEvent.commit(pool, worker, steals, victimBits, limitReached);
        }
    }

    /**
     * A thread outside the pool submitted work.
     *
     * @param kind {@code "install"}, {@code "spawn"} or {@code "broadcast"}
     * @param jobs the jobs it created
     */
    public void injected(String kind, int jobs) {
        if (on && InjectionEvent.enabled()) {
            InjectionEvent.commit(pool, kind, jobs);
        }
    }

    /**
     * A worker promoted {@code frames} of its lazy-join frames at a heartbeat (after the protocol was told).
     *
     * @param latentLeft its frames still latent after the beat
     */
    public void promotion(int worker, int frames, int latentLeft) {
        if (on && PromotionEvent.enabled()) {
            PromotionEvent.commit(pool, worker, frames, latentLeft);
        }
    }

    /** B2: worker {@code worker} handed its index to a stand-in, a new thread if {@code threadStarted}. */
    public void handOff(int worker, boolean threadStarted) {
        if (on && HandOffEvent.enabled()) {
            HandOffEvent.commit(pool, worker, threadStarted);
        }
    }

    /** For tests: whether hooks can record at all (jdk.jfr readable and this is a pool's instance). */
    public boolean canRecord() {
        return on;
    }
}
