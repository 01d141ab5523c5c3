package io.spindle.internal.registry;

import io.spindle.internal.job.Failures;
import io.spindle.internal.job.InjectedJob;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;

/**
 * E4 at the stack's edge (registry package-info): the latch wake-ups a waker could not make where it stood, one flag
 * per latch owner's worker index, until a worker of the pool delivers them. Two more kinds of wake-up that must not
 * be lost to a throw are owed the same way: an IO poller's wake-up of its owner whose delivery threw
 * ({@link #pollerFlags}, IO10: delivered by that poller's own {@code unblockOwed}, not through the sleep protocol,
 * whose state may say the owner was woken already), and the notification of a finished IO operation's job that stayed
 * queued when its notification threw ({@link #injectionNoticeOwed}, IO6).
 *
 * <p>A thread that sets a latch whose owner sleeps on it must wake that owner (L1). If the wake-up throws a
 * {@code StackOverflowError}, retrying it in the same frame meets the same overflow for ever: a worker that ran a
 * stolen join half at the bottom of a deep stack (inside a cross-pool install's wait) retried there while the owner
 * slept (LazyEdgeWaitScan, in two CI runs of eight). So the waker owes the wake-up instead, and workers deliver what
 * is owed from frames with more room ({@code WorkerThread}: at the top of every wait loop's round, and before an idle
 * search may sleep).
 *
 * <p>Owing happens in the catch block of the overflowing call, where any call, and a monitor (the interpreter checks
 * the stack after locking), may overflow again: {@code Registry.wakeLatchOwner} writes {@code flags[index].owed} and
 * then {@link #any}, two volatile field stores and nothing else (no call; the field references are resolved when the
 * pool is built). A delivery takes {@link #any} with a getAndSet, so that it sees every flag whose owe set the
 * {@code any} it took (happens-before through that volatile), clears a flag before it wakes, and sets the flag and
 * {@code any} back if the wake-up throws. An owe whose flag store comes after the clear in the total order of
 * volatile accesses stays owed; one that comes before it is covered by the wake-up that follows, because the owe's
 * latch set precedes its flag store, the wake-up's claim of the sleeper follows the clear, and the latch state and
 * the sleepers' state words are volatile or atomic, so the woken owner reads its latch set. A wake-up made twice, or for an owner no longer asleep on that latch, is harmless in every
 * protocol: the woken worker finds its latch set, or no work, and sleeps again, as after any wake-up it did not need.
 * jcstress: {@code OwedLatchWakesOweVsDeliverTest}.
 */
public final class OwedLatchWakes {
    /** One owner's owed wake-up: its own object, so that owing is a plain volatile field store. */
    public static final class Flag {
        public volatile boolean owed;
    }

    private static final VarHandle ANY;

    static {
        try {
            ANY = MethodHandles.lookup().findVarHandle(OwedLatchWakes.class, "any", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Makes one owed wake-up, of worker {@code index}. */
    interface Waker {
        void wake(int index);
    }

    /** Per owner index; the owing side writes {@code flags[index].owed = true} and then {@link #any} = true. */
    public final Flag[] flags;
    /** IO10, per worker index: its IO poller's wake-up of it, owed as {@link #flags} are. */
    public final Flag[] pollerFlags;
    /**
     * IO6: a finished IO operation's job is in the injector, and the sleep protocol's notification of it threw: some
     * worker must still be told. Owed as a flag is: this store, then {@link #any}. jcstress:
     * {@code OwedInjectionNoticeOweVsDeliverTest}.
     */
    public volatile boolean injectionNoticeOwed;
    /**
     * IO6: jobs {@code Registry.injectKept} could not queue, and lists of finished IO operations whose hand-out
     * overflowed ({@code FinishedOps} in the io package), linked through {@link InjectedJob#nextOwed}; guarded by this
     * object's monitor, and signalled by {@link #any} after the link. jcstress: {@code OwedJobOweVsDeliverTest}.
     */
    public InjectedJob owedJobs;
    /**
     * True from an owe until a delivery takes it: read with no lock by every wait round and idle search, so that a
     * pool that owes nothing pays one volatile load there.
     */
    public volatile boolean any;

    OwedLatchWakes(int workers) {
        flags = new Flag[workers];
        pollerFlags = new Flag[workers];
        for (int i = 0; i < workers; i++) {
            flags[i] = new Flag();
            pollerFlags[i] = new Flag();
        }
        injectionNoticeOwed = false;
        any = false; // resolves the field reference deliver's catch block stores through, while the stack has room
    }

    /**
     * Delivers every owed wake-up through {@code waker}; one that throws is owed again ({@code any} is set back), the
     * others are still made, and the first throwable goes to the caller once all were tried, whose wait backs off and
     * comes back (E3). A delivery that finds {@code any} false returns at once: either nothing is owed, or another
     * delivery took it and is waking.
     */
    void deliver(Waker waker) {
        deliver(waker, null);
    }

    /**
     * As {@link #deliver(Waker)}, and an owed injection notice first, through {@code injectionNotice} (null: none can
     * be owed, as in the tests of the latch wake-ups alone). The notice follows the flags' rule: cleared before it is
     * made, owed again with {@code any} if it throws.
     */
    void deliver(Waker waker, Runnable injectionNotice) {
        deliver(waker, injectionNotice, null);
    }

    /**
     * As {@link #deliver(Waker, Runnable)}, and then the owed IO poller wake-ups through {@code pollerWaker} (null: none
     * can be owed), each by the flags' rule.
     */
    void deliver(Waker waker, Runnable injectionNotice, Waker pollerWaker) {
        deliver(waker, injectionNotice, pollerWaker, null);
    }

    /**
     * As {@link #deliver(Waker, Runnable, Waker)}, and first the owed jobs, each entering through {@code jobInjector}
     * (null: none can be owed), which owes a job again itself if it cannot queue it: a job as itself, an owed list of
     * finished IO operations as its operations ({@link InjectedJob#enterOwed}). If that throws, the job and the jobs
     * not handed yet are owed again.
     */
    void deliver(Waker waker, Runnable injectionNotice, Waker pollerWaker, Consumer<InjectedJob> jobInjector) {
        if (!(boolean) ANY.getAndSet(this, false)) { // volatile RMW: the owes that set it happen-before the reads
            return;
        }
        // E4: one owe that keeps failing (a notice, a job that cannot be queued) must not starve the others behind
        // it: each failure is owed again and the delivery goes on; the first throwable goes to the caller at the end.
        Throwable first = null;
        if (jobInjector != null) {
            InjectedJob jobs;
            synchronized (this) { // every owe whose `any` we took linked its job before it: we take them all
                jobs = owedJobs;
                owedJobs = null;
            }
            while (jobs != null) {
                InjectedJob job = jobs;
                jobs = job.nextOwed;
                job.nextOwed = null;
                try {
                    job.enterOwed(jobInjector); // itself, or the operations of an owed list (IO6, FinishedOps)
                } catch (Throwable t) {
                    job.nextOwed = jobs; // E4: this one and the rest are owed again (the rest would fail the same way)
                    synchronized (this) {
                        InjectedJob last = job;
                        while (last.nextOwed != null) {
                            last = last.nextOwed;
                        }
                        last.nextOwed = owedJobs;
                        owedJobs = job;
                    }
                    any = true;
                    first = t;
                    break; // on to the notice and the wake-ups
                }
            }
        }
        if (injectionNotice != null && injectionNoticeOwed) {
            injectionNoticeOwed = false; // before the notice: an owe from now on stays owed
            try {
                injectionNotice.run();
            } catch (Throwable t) {
                injectionNoticeOwed = true; // E4: still owed
                any = true;
                if (first == null) {
                    first = t;
                }
            }
        }
        for (int i = 0; i < flags.length; i++) {
            Flag f = flags[i];
            if (f.owed) {
                f.owed = false; // before the wake-up: an owe from now on stays owed
                try {
                    waker.wake(i);
                } catch (Throwable t) {
                    f.owed = true; // E4: still owed; the next owner's wake-up is tried all the same
                    any = true;
                    if (first == null) {
                        first = t;
                    }
                }
            }
        }
        if (pollerWaker != null) {
            for (int i = 0; i < pollerFlags.length; i++) {
                Flag f = pollerFlags[i];
                if (f.owed) {
                    f.owed = false; // before the wake-up: an owe from now on stays owed
                    try {
                        pollerWaker.wake(i);
                    } catch (Throwable t) {
                        f.owed = true; // E4: still owed; the next poller's wake-up is tried all the same
                        any = true;
                        if (first == null) {
                            first = t;
                        }
                    }
                }
            }
        }
        if (first != null) {
            throw Failures.<RuntimeException>sneakyThrow(first); // the caller's wait backs off and comes back (E3)
        }
    }

    /** Whether worker {@code index}'s wake-up is owed (for tests). */
    boolean owedTo(int index) {
        return flags[index].owed;
    }
}
