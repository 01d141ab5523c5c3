package io.spindle.internal.lazy;

import io.spindle.internal.join.JoinJob;
import io.spindle.internal.registry.WorkerThread;
import io.spindle.internal.sleep.SleepProtocol;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * One worker's lazy-join state: its frame stack (LZ1), its heartbeat (LZ3) and its promotion slots (LZ4). Everything
 * but the slots and the statistics counter is owned by the worker's thread and accessed with plain reads and writes
 * (LZ2); the package-info states the invariants the fields keep.
 */
public final class LazyWorker {
    static final byte SUPPLIER = 0;
    static final byte RUNNABLE = 1;
    static final byte LONG_SUPPLIER = 2;
    static final byte LONG_FUNCTION = 3;
    private static final int INITIAL_FRAMES = 64;
    /**
     * LZ11: the longest a join may keep storing into the same reference arrays of the frame stack before the
     * heartbeat replaces them with young copies, for a stack of up to {@value #FRAME_RENEWAL_NANOS} /
     * {@value #FRAME_RENEWAL_NANOS_PER_FRAME} frames.
     */
    static final long FRAME_RENEWAL_NANOS = 1_000_000L;
    /**
     * LZ11: a stack that grew deeper is renewed less often, this much per frame, so that renewals allocate at most
     * about two references per 8 µs of joining (1-2 MB/s) however deep the stack grew.
     */
    static final long FRAME_RENEWAL_NANOS_PER_FRAME = 8_000L;
    /**
     * LZ11: the most frames whose arrays are renewed: 128-256 KB per array, under half of G1's smallest region (1 MB),
     * past which G1 allocates an array as a humongous object, in old regions.
     */
    static final int MAX_RENEWED_FRAMES = 1 << 15;

    private static final VarHandle PROMOTIONS;

    static {
        try {
            PROMOTIONS = MethodHandles.lookup().findVarHandle(LazyWorker.class, "promotions", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final WorkerThread owner;
    private final SleepProtocol sleep;
    final PromotionSlots slots = new PromotionSlots();
    private final long intervalNanos;
    private final int threads;

    // --- the frame stack (LZ1, LZ2: owner only, plain) --------------------------------------------------------------
    /**
     * Frame d's {@code b}: a Supplier, a Runnable or a LongSupplier, as {@link #kinds} says; or, for a
     * {@link #LONG_FUNCTION} frame, the function that {@code b} applies to {@code arguments[d]}. Replaced by a young
     * copy at a heartbeat about every {@link #FRAME_RENEWAL_NANOS} while joins run (LZ11), as is {@link #arguments}.
     */
    Object[] closures = new Object[INITIAL_FRAMES];
    /** Frame d's argument, for a {@link #LONG_FUNCTION} frame; stale (cleared at LZ9) for the other kinds. */
    Object[] arguments = new Object[INITIAL_FRAMES];
    byte[] kinds = new byte[INITIAL_FRAMES];
    /** For a promoted frame d (d < lo): the job made of its {@code b}, and the slot it was published in. */
    JoinJob[] promoted = new JoinJob[INITIAL_FRAMES];
    int[] slotOf = new int[INITIAL_FRAMES];
    /** Frames in use: [0, depth). */
    int depth;
    /** Frames [0, lo) are promoted, [lo, depth) latent (LZ1: the promoted ones are always a prefix). */
    int lo;

    // --- the heartbeat (LZ3: owner only, plain) ---------------------------------------------------------------------
    /** Joins until the next clock read; at or below 0, the next join reads it. */
    int countdown;
    private int period = 1;
    private long lastClockNanos;
    private long lastBeatNanos;
    /** LZ11: when {@link #closures} and {@link #arguments} were last replaced by fresh copies. */
    private long lastRenewalNanos;
    /** The next check promotes without waiting for the interval: a job just started (LZ8). */
    private boolean beatDue = true;

    private long promotions; // owner writes (opaque), statistics read
    private boolean promoteAllNow; // owner only: the next beat fills every free slot (B2: before a blocking call)

    public LazyWorker(WorkerThread owner, SleepProtocol sleep, long intervalNanos) {
        LazyJoin.link(); // the join classes' static initializers run here, at the pool's build, not at a deep join
        this.owner = owner;
        this.sleep = sleep;
        this.intervalNanos = intervalNanos;
        this.threads = owner.registry().config().threads();
        this.lastClockNanos = System.nanoTime();
        this.lastBeatNanos = lastClockNanos;
        this.lastRenewalNanos = lastClockNanos;
    }

    public PromotionSlots slots() {
        return slots;
    }

    /** Promotions this worker made, for statistics (opaque: single writer). */
    public long promotions() {
        return (long) PROMOTIONS.getOpaque(this);
    }

    /**
     * Pushes a latent frame for {@code b} (LZ1) and returns its index. Plain writes only; the heartbeat check is a
     * decrement and a branch, its work out of line.
     */
    int push(Object b, byte kind) {
        int d = depth;
        if (d == closures.length) {
            grow();
        }
        closures[d] = b;
        kinds[d] = kind;
        return pushed(d);
    }

    /**
     * As {@link #push(Object, byte)}, for a frame whose {@code b} is {@code f} applied to {@code argument} (kind
     * {@link #LONG_FUNCTION}; the two are stored together, which is what {@code makeJob}'s cast relies on).
     */
    <T> int pushFunction(ToLongFunction<? super T> f, T argument) {
        int d = depth;
        if (d == closures.length) {
            grow();
        }
        if (closures[d] != f) {
            // A recursion joins through the same f at every depth: skip the store when the frame holds f from an
            // earlier join. Storing a reference into these long-lived arrays takes G1's cross-region write barrier
            // (a StoreLoad fence on JDK 17), which measured costlier than the load and compare (BENCHMARKS.md).
            closures[d] = f;
        }
        arguments[d] = argument; // before the beat below, which may promote this very frame (LZ8)
        kinds[d] = LONG_FUNCTION;
        return pushed(d);
    }

    /**
     * Frame d is filled: makes it part of the stack, then counts down to the heartbeat. If the call itself overflows
     * the stack, the frame is not pushed and the join throws before either closure ran.
     */
    private int pushed(int d) {
        depth = d + 1;
        if (--countdown <= 0) {
            try {
                heartbeat(); // after depth moved: a root join's own frame may be promoted at once (LZ8)
            } catch (StackOverflowError noStackForTheCall) {
                // LZ5: no beat this time. heartbeat() throws nothing else, and push must not throw once the frame is
                // pushed: a join that threw here would leave a latent frame that a later promotion could share after
                // the join ended. Empty on purpose: a catch block with the stack exhausted can make no call.
            }
        }
        return d;
    }

    /**
     * LZ10: a check for a beat from code that runs long without joining ({@code Spindle.heartbeat()} in a leaf loop),
     * so that the latent frames below it can be promoted while it runs. It counts down with the joins (LZ3): a loop
     * that calls it every few nanoseconds reads the clock once per {@link Heartbeat#MAX_PERIOD} calls. With no latent
     * frame there is nothing to promote, and the call changes nothing: in particular it leaves a job's pending first
     * check (LZ8) to the job's first join.
     */
    public void heartbeatCheck() {
        if (lo < depth && --countdown <= 0) {
            try {
                heartbeat();
            } catch (StackOverflowError noStackForTheCall) {
                // LZ5: no beat this time (heartbeat() throws nothing else); the caller's loop goes on as it was.
                // Empty on purpose: a catch block with the stack exhausted can make no call.
            }
        }
    }

    /**
     * LZ11: replaces the arrays every join stores a reference into with young copies, where G1's post-write barrier
     * ends before its StoreLoad fence; a stack that a deep recursion grew and that is shallow again is shrunk (all
     * five arrays), so that it is not copied at its deep size, nor renewed rarely, for the rest of the pool's life.
     * Every new array is made before any is replaced (out of memory changes nothing); frames keep their values, and
     * only this thread reads them (LZ2). The fitting size is twice the depth rounded up to a power of two (at least
     * {@code INITIAL_FRAMES}); a stack is shrunk to it when it is four times bigger, or when it is bigger than {@link
     * #MAX_RENEWED_FRAMES} and the fitting size is not. A stack deeper than half {@link #MAX_RENEWED_FRAMES} is left
     * old: its copies would be G1 humongous objects, old from birth.
     */
    private void renewFrames() {
        int capacity = closures.length;
        int fit = INITIAL_FRAMES;
        while (fit < 2 * depth) {
            fit <<= 1;
        }
        if (capacity >= 4 * fit || (capacity > MAX_RENEWED_FRAMES && fit <= MAX_RENEWED_FRAMES)) {
            // Shrunk: a stack four times too big, or one too big to renew that its fitting size can be (without the
            // second rule a stack of 65,536 frames at a depth of 8,193 to 16,384 would stay old for good).
            resize(fit);
        } else if (capacity <= MAX_RENEWED_FRAMES) {
            Object[] youngClosures = Arrays.copyOf(closures, capacity);
            Object[] youngArguments = Arrays.copyOf(arguments, capacity);
            closures = youngClosures;
            arguments = youngArguments;
        }
    }

    /** Doubles the frame stack. */
    private void grow() {
        resize(closures.length * 2);
    }

    /**
     * Gives the frame stack {@code n} frames, keeping the first {@code n} (or all). All five arrays are made before any
     * is replaced: out of memory changes nothing.
     */
    private void resize(int n) {
        Object[] newClosures = Arrays.copyOf(closures, n);
        Object[] newArguments = Arrays.copyOf(arguments, n);
        byte[] newKinds = Arrays.copyOf(kinds, n);
        JoinJob[] newPromoted = Arrays.copyOf(promoted, n);
        int[] newSlotOf = Arrays.copyOf(slotOf, n);
        closures = newClosures;
        arguments = newArguments;
        kinds = newKinds;
        promoted = newPromoted;
        slotOf = newSlotOf;
    }

    /**
     * A job starts on this worker (run from the work loop: injected, stolen, spawned, a promoted frame): its first join
     * checks for a beat at once and promotes without waiting for the interval (LZ8: a root join of two long halves runs
     * them in parallel; work that was stolen is big enough to share again).
     */
    public int jobStarting() {
        beatDue = true;
        countdown = 0;
        return depth;
    }

    /**
     * LZ9: a job that {@link #jobStarting} saw start at {@code startDepth} ended. Its joins all ended too, so the stack
     * is back at {@code startDepth}; setting it again is a safety net, not a step any path relies on (every join
     * restores the depth it found). Then forgets the closures the job's joins left in
     * frames above, so that a finished computation's data is not kept alive by a worker that stays idle (cleared here,
     * once per job, rather than by a store per join). The stale entries are contiguous from the depth up (each join
     * fills the frame just above the previous one), so the loop stops at the first empty frame.
     */
    public void jobEnded(int startDepth) {
        depth = startDepth;
        if (lo > startDepth) {
            lo = startDepth;
        }
        Object[] cs = closures;
        Object[] as = arguments;
        for (int i = startDepth; i < cs.length && cs[i] != null; i++) {
            cs[i] = null;
            as[i] = null;
        }
    }

    /**
     * {@link #slotOf}'s value for a frame promoted onto the owner's deque rather than into a slot (B2: only before a
     * blocking call, once the slots are full). Its join takes the job back as an eager join does.
     */
    static final int ON_DEQUE = -1;

    /**
     * B2: the owner is about to block: every latent frame becomes stealable now, so that idle workers and the
     * stand-in can run the halves its blocked code may be waiting for. The oldest go into the free slots through the
     * heartbeat's own promotion (LZ4 to LZ6), forced; the rest, oldest first, onto the owner's deque as eager join
     * halves ({@link #ON_DEQUE}), each push telling the protocol. Never throws (LZ5): a frame whose job cannot be made
     * or pushed stays latent and runs on the blocking thread once the call returns.
     */
    public void promoteBeforeBlocking() {
        if (lo >= depth) {
            return;
        }
        promoteAllNow = true;
        beatDue = true; // the beat path that skips the interval's clock test
        try {
            heartbeat();
        } catch (StackOverflowError noStackForTheCall) {
            // LZ5: no promotion this time
        }
        promoteAllNow = false;
        try {
            while (lo < depth) {
                int f = lo;
                JoinJob job = jobFor(f); // may throw, before anything changed
                owner.push(job);         // E1: pushed for good and the protocol told, or thrown and not in the deque
                promoted[f] = job;
                slotOf[f] = ON_DEQUE;
                lo = f + 1;              // LZ1: the prefix grows by the oldest latent frame, once its job is out
                PROMOTIONS.setOpaque(this, promotions + 1); // opaque: single writer, statistics only
            }
        } catch (Throwable couldNotPromote) {
            // LZ5: the frames from lo up stay latent
        }
    }

    /** LZ4: the job that runs frame {@code f}'s b for whoever takes it; fresh, never reused (LZ7). May throw. */
    private JoinJob jobFor(int f) {
        switch (kinds[f]) {
            case SUPPLIER:
                return JoinJob.of(owner, (Supplier<?>) closures[f]);
            case RUNNABLE:
                return JoinJob.of(owner, (Runnable) closures[f]);
            case LONG_SUPPLIER:
                return JoinJob.of(owner, (LongSupplier) closures[f]);
            case LONG_FUNCTION:
                @SuppressWarnings("unchecked") // pushFunction stored f and its argument together
                ToLongFunction<Object> function = (ToLongFunction<Object>) closures[f];
                return JoinJob.of(owner, function, arguments[f]);
            default:
                throw new IllegalStateException("frame " + f + " has no kind " + kinds[f]); // stays latent
        }
    }

    /**
     * LZ3, out of line: the countdown ran out. Reads the clock, adapts the period, and at a beat promotes (LZ5). Never
     * throws (a failed promotion is no promotion: LZ5), except a stack overflow of this call itself, before anything
     * changed.
     *
     * <p>One method on purpose, clock, promotion and job making together, so that it stays out of line by its shape
     * (LZ3): C2 inlines a callee at a call site it counts as hot if the callee has at most {@code FreqInlineSize}
     * bytecodes (325 on JDK 17 and 25), and a join's call here is hot while code warms (every job's first join
     * checks: LZ8). As three methods of 150, 200 and 130 bytecodes, the heartbeat and its promotion were inlined into
     * every join, whose compiled size then kept the join out of later compiles of the user's recursion ("already
     * compiled into a big method"; BENCHMARKS.md measures what that cost). {@code HeartbeatShapeTest} keeps it above
     * the limit.
     */
    private void heartbeat() {
        try {
            long now = System.nanoTime();
            long renewalInterval = Math.max(FRAME_RENEWAL_NANOS, closures.length * FRAME_RENEWAL_NANOS_PER_FRAME);
            if (now - lastRenewalNanos >= renewalInterval) {
                lastRenewalNanos = now; // first: a renewal that cannot allocate is not retried at every join (LZ5)
                renewFrames();
            }
            boolean jobStart = beatDue;
            boolean coarse = false;
            if (jobStart) {
                beatDue = false;
                countdown = period; // a forced check says nothing about the grain: keep the period
            } else {
                period = Heartbeat.nextPeriod(period, now - lastClockNanos, intervalNanos);
                countdown = period;
                coarse = period == 1 && intervalNanos > 0; // LZ5: this join covered a quarter interval or more
                if (!coarse && now - lastBeatNanos < intervalNanos) {
                    lastClockNanos = now;
                    return;
                }
            }
            lastClockNanos = now;
            lastBeatNanos = now;
            if (lo >= depth || (threads == 1 && !promoteAllNow)) {
                return; // nothing latent, or nobody to share with
            }
            // LZ5: promotes the oldest latent frames, as many as there are idle workers to take them (and free
            // slots), then tells the sleep protocol, as for a push (LZ6). At a job's first join (LZ8) one frame is
            // promoted even if the protocol counts nobody idle: SLEEPY_WORKER and HINT_PIPE count only workers that
            // are sleepy or registered to sleep, not those still searching, and the first half of a root join may run
            // for long without another join. When the joins are coarse (each covers a quarter interval or more) every
            // free slot is filled whoever is idle: a promotion then costs under 1 % of the work it shares, and a
            // worker that runs a long leaf shares nothing until its next join, so the halves must already be out when
            // a worker runs dry (matmul, the sorts: see BENCHMARKS.md).
            int idle = coarse || promoteAllNow ? PromotionSlots.SLOTS : sleep.idleWorkersEstimate();
            if (jobStart && idle == 0) {
                idle = 1;
            }
            int made = 0;
            while (made < idle && lo < depth) {
                int s = slots.freeSlot();
                if (s < 0) {
                    break;
                }
                int f = lo;
                // LZ4: the job that runs frame f's b for whoever takes it. It is fresh (never reused: no thief can
                // hold a dead frame, LZ7); allocating it may throw, before anything changed.
                JoinJob job = jobFor(f);
                promoted[f] = job;
                slotOf[f] = s;
                slots.publish(s, job);  // volatile: the job's fields are visible to whoever takes it
                lo = f + 1;             // LZ1: the prefix grows by the oldest latent frame, once its job is out (a
                made++;                 // plain store after the call: if the call overflowed, the frame stays latent)
            }
            if (made == 0) {
                return;
            }
            PROMOTIONS.setOpaque(this, promotions + made); // opaque: single writer, statistics only
            announcePromotions(sleep, owner.index(), made);
            owner.registry().events().promotion(owner.index(), made, depth - lo);
            // LZ3: the next period measures the joins, not this promotion, whose wake-up (a futex or pipe call) can
            // take tens of µs and would make the next check look coarse (LZ5) and promote every frame.
            lastClockNanos = System.nanoTime();
        } catch (Throwable promotionFailed) {
            // LZ5: each promotion step completes or leaves the frame latent; a failure (out of memory making the job,
            // a stack overflow in the protocol's call) costs only the parallelism. No call here: there may be no stack.
        }
    }

    /**
     * LZ6, after the slots' volatile stores: a full fence, then the protocol, which reads its sleep counters (J5's
     * poster side); a sleeper registers, fences, and its final check reads every worker's slots. The volatile store
     * followed by the protocol's volatile read would already order the two in the JMM; the fence keeps the argument
     * independent of how each protocol reads its counters, at one fence per beat. Package-private and static so that
     * the jcstress test {@code JecPromotionVsSleepTest} runs this very code.
     */
    static void announcePromotions(SleepProtocol sleep, int ownerIndex, int made) {
        VarHandle.fullFence();
        sleep.newInternalJobs(ownerIndex, made, true); // a promotion is a new internal job (LZ6)
    }
}
