/**
 * Java Flight Recorder events for the engine, and the one door the engine goes through to emit them.
 *
 * <h2>The events</h2>
 * <dl>
 *   <dt>{@code io.spindle.WorkerSleep} ({@link io.spindle.internal.event.WorkerSleepEvent})</dt>
 *   <dd>A worker blocked because it found no work. Spans the block: it begins just before the worker enters its
 *       protocol's sleep sequence and is committed once the worker has woken and left that sequence. A worker that
 *       gets as far as the sequence but does not block (its latch was set, the JEC moved, a final check found work)
 *       commits nothing.</dd>
 *   <dt>{@code io.spindle.WorkerWoken} ({@link io.spindle.internal.event.WorkerWokenEvent})</dt>
 *   <dd>A blocked worker was woken: by whom ({@code waker}: a worker index of the same pool, or -1 for any other
 *       thread, with {@code wakerThread} when known) and why ({@link io.spindle.internal.event.WakeReason}).
 *       Committed by the woken worker, right after its WorkerSleep; the waker leaves who and why in plain fields
 *       that the protocol's own synchronization (the sleep lock, or a volatile wake request) makes visible.</dd>
 *   <dt>{@code io.spindle.StealBatch} ({@link io.spindle.internal.event.StealBatchEvent})</dt>
 *   <dd>A run of steals by one worker: how many and from which victims, committed when a search of that worker
 *       next finds nothing, or after {@link io.spindle.internal.event.PoolEvents#STEAL_BATCH_LIMIT} steals. The steal
 *       itself only bumps the counter it already had and ORs one bit into an owner-only field.</dd>
 *   <dt>{@code io.spindle.Injection} ({@link io.spindle.internal.event.InjectionEvent})</dt>
 *   <dd>Work submitted from a thread outside the pool: install (also external join and scope), spawn (also
 *       execute, submit and the CompletableFuture methods) or broadcast. One event per submission: an external thread
 *       has no state of its own in the pool to accumulate a batch in, and nothing would make it come back to flush
 *       one, so batching would cost shared atomics on every submission even when nothing records. A broadcast is one
 *       event for its {@code n} copies.</dd>
 *   <dt>{@code io.spindle.Promotion} ({@link io.spindle.internal.event.PromotionEvent})</dt>
 *   <dd>A worker running lazy joins made its oldest waiting join halves stealable at a heartbeat (docs/DESIGN.md §7):
 *       how many, and how many stay latent. At most one per worker per heartbeat interval, so it can be left on.</dd>
 *   <dt>{@code io.spindle.HandOff} ({@link io.spindle.internal.event.HandOffEvent})</dt>
 *   <dd>A worker about to block in {@code Spindle.blocking} or {@code Spindle.managedBlock} handed its place in the
 *       pool to a stand-in ({@code io.spindle.internal.blocking}, B2): which index, and whether a thread was started
 *       for it or an idle spare reused. With the stack trace of the blocking call.</dd>
 * </dl>
 *
 * <h2>jdk.jfr is optional</h2>
 * The module {@code requires static jdk.jfr}. {@link io.spindle.internal.event.PoolEvents} is the only class the
 * engine calls, and it names no {@code jdk.jfr} type: it decides once, in a static final, whether {@code jdk.jfr} is in
 * the boot layer and readable, and only then calls the event classes' static methods. HotSpot loads a class when an
 * instruction that names it first runs, and the verifier needs none of the event classes to check
 * {@code PoolEvents} (their static methods take and return only primitives, strings, threads and {@code Object}), so
 * without {@code jdk.jfr} no event class, and no {@code jdk.jfr} class, is ever loaded.
 *
 * <h2>Cost when nothing records</h2>
 * Each event class keeps one never-committed instance, {@code PROBE}, and asks {@code PROBE.isEnabled()}. JFR
 * instruments {@code isEnabled()} to read the event type's setting from a static field of the class, so the answer
 * does not depend on the instance and the probe may be shared by all threads; before instrumentation the method just
 * returns false. An event object is allocated only after the probe said yes, so the hooks allocate nothing while the
 * event is disabled, without relying on escape analysis (which the interpreter and C1 do not do). {@code
 * EventType.getEventType(...).isEnabled()} would give the same answer through a map lookup per call.
 *
 * <h2>When the event classes initialize</h2>
 * A pool's {@code PoolEvents} runs all five event classes' initializers when the pool is built, on the building thread,
 * never later in a hook. JFR registers an event class in its initializer, which allocates; an initializer that fails
 * leaves the class unusable for the JVM's life, and before this rule an {@code OutOfMemoryError} that hit the first
 * {@code spawn} of a JVM (another thread held the heap) made every later sleep of every worker throw
 * {@code NoClassDefFoundError}: the workers could no longer block. Now such a failure fails the build that met it, and
 * later pools run without events.
 *
 * <h2>Where the hooks sit</h2>
 * Every hook in a sleep protocol runs before the worker enters the protocol's ordering sequence (the latch CASes,
 * registration, fences, final checks, blocking) or after it left it; inside a sequence the protocols only write plain
 * fields (who woke a worker and why). No hook changes a protocol step or an ordering.
 */
package io.spindle.internal.event;
