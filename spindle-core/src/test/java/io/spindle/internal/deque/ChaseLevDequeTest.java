package io.spindle.internal.deque;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ChaseLevDequeTest {

    @Test
    void ownerPopsInLifoOrderAndThievesStealInFifoOrder() {
        ChaseLevDeque<Integer> d = new ChaseLevDeque<>();
        for (int i = 0; i < 5; i++) {
            d.push(i);
        }
        assertEquals(0, d.steal());
        assertEquals(4, d.pop());
        assertEquals(1, d.steal());
        assertEquals(3, d.pop());
        assertEquals(2, d.pop());
        assertNull(d.pop());
        assertNull(d.steal());
        assertTrue(d.isEmpty());
    }

    @Test
    void growsPastInitialCapacityAndKeepsEveryElement() {
        ChaseLevDeque<Integer> d = new ChaseLevDeque<>();
        int n = 10_000;
        for (int i = 0; i < n; i++) {
            d.push(i);
        }
        assertTrue(d.capacity() >= n, "capacity " + d.capacity());
        assertEquals(n, d.sizeEstimate());
        for (int i = 0; i < n / 2; i++) {
            assertEquals(i, d.steal());
        }
        for (int i = n - 1; i >= n / 2; i--) {
            assertEquals(i, d.pop());
        }
        assertNull(d.pop());
    }

    @Test
    void wrapsAroundTheRingWithoutLosingElements() {
        ChaseLevDeque<Integer> d = new ChaseLevDeque<>();
        int next = 0;
        int expectedSteal = 0;
        // Keep ~40 elements in flight while indices run far past the capacity: exercises index masking.
        for (int i = 0; i < 40; i++) {
            d.push(next++);
        }
        for (int round = 0; round < 10_000; round++) {
            d.push(next++);
            if (round % 2 == 0) {
                assertEquals(expectedSteal++, d.steal());
            } else {
                assertEquals(next - 1, d.pop());
                next--; // popped back: the next push reuses this index
            }
        }
        Integer x;
        while ((x = d.steal()) != null) {
            assertEquals(expectedSteal++, x);
        }
        assertEquals(next, expectedSteal);
        assertEquals(64, d.capacity(), "never needed to grow");
    }

    /**
     * The owner pushes (forcing growth several times) and pops while thieves steal; every element must be taken exactly
     * once, by someone.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyElementIsTakenExactlyOnceUnderConcurrentStealsAndGrowth() throws Exception {
        for (int trial = 0; trial < 20; trial++) {
            ChaseLevDeque<Integer> d = new ChaseLevDeque<>();
            int n = 200_000;
            AtomicIntegerArray taken = new AtomicIntegerArray(n);
            AtomicBoolean ownerDone = new AtomicBoolean();
            int thieves = 3;
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < thieves; t++) {
                Thread thief = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    while (true) {
                        Integer x = d.steal();
                        if (x != null) {
                            taken.incrementAndGet(x);
                        } else if (ownerDone.get() && d.isEmpty()) {
                            return;
                        }
                    }
                });
                thief.start();
                threads.add(thief);
            }
            start.countDown();
            // Owner: push in bursts (so the deque grows while thieves steal), pop some back.
            int pushed = 0;
            while (pushed < n) {
                int burst = Math.min(n - pushed, 1 + (pushed % 5000));
                for (int i = 0; i < burst; i++) {
                    d.push(pushed++);
                }
                for (int i = 0; i < burst / 3; i++) {
                    Integer x = d.pop();
                    if (x == null) {
                        break;
                    }
                    taken.incrementAndGet(x);
                }
            }
            Integer x;
            while ((x = d.pop()) != null) {
                taken.incrementAndGet(x);
            }
            ownerDone.set(true);
            for (Thread t : threads) {
                t.join();
            }
            for (int i = 0; i < n; i++) {
                if (taken.get(i) != 1) {
                    fail("trial " + trial + ": element " + i + " taken " + taken.get(i) + " times");
                }
            }
        }
    }

    /** The last element raced for by the owner's pop and a thief's steal goes to exactly one of them. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void lastElementGoesToExactlyOneOfPopAndSteal() throws Exception {
        ChaseLevDeque<Integer> d = new ChaseLevDeque<>();
        int rounds = 100_000;
        int[] stolen = new int[1];
        java.util.concurrent.atomic.AtomicInteger round = new java.util.concurrent.atomic.AtomicInteger(-1);
        java.util.concurrent.atomic.AtomicInteger stolenCount = new java.util.concurrent.atomic.AtomicInteger();
        Thread thief = new Thread(() -> {
            int seen = -1;
            while (seen < rounds - 1) {
                int r = round.get();
                if (r == seen) {
                    Thread.onSpinWait();
                    continue;
                }
                seen = r;
                if (d.steal() != null) {
                    stolenCount.incrementAndGet();
                }
            }
        });
        thief.start();
        int popped = 0;
        for (int r = 0; r < rounds; r++) {
            d.push(r);
            round.set(r);
            if (d.pop() != null) {
                popped++;
            }
            // wait until the thief had its go, so rounds don't overlap
            while (d.steal() != null) {
                stolenCount.incrementAndGet();
            }
        }
        thief.join();
        stolen[0] = stolenCount.get();
        assertEquals(rounds, popped + stolen[0], "popped " + popped + " + stolen " + stolen[0]);
    }
}
