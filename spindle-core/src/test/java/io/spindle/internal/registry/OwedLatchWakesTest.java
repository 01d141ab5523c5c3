package io.spindle.internal.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * E4 at the stack's edge, white-box: {@link OwedLatchWakes} delivers each owed wake-up, keeps what a throwing wake-up
 * did not deliver, and keeps {@code any} true while anything is owed. The race of an owe with a delivery is
 * jcstress's ({@code OwedLatchWakesOweVsDeliverTest}); the hang it fixes is LazyJoinReviewScanTest's cross-pool scan.
 */
class OwedLatchWakesTest {
    /** As {@code Registry.wakeLatchOwner}'s catch block owes: two volatile stores. */
    private static void owe(OwedLatchWakes owed, int index) {
        owed.flags[index].owed = true;
        owed.any = true;
    }

    @Test
    void nothingOwedAtFirst() {
        OwedLatchWakes owed = new OwedLatchWakes(3);
        assertFalse(owed.any);
        List<Integer> woken = new ArrayList<>();
        owed.deliver(woken::add);
        assertTrue(woken.isEmpty());
    }

    @Test
    void everyOwedOwnerIsWokenOnce() {
        OwedLatchWakes owed = new OwedLatchWakes(3);
        owe(owed, 2);
        owe(owed, 0);
        owe(owed, 2);
        List<Integer> woken = new ArrayList<>();
        owed.deliver(woken::add);
        assertEquals(List.of(0, 2), woken);
        assertFalse(owed.any, "everything was delivered");
        assertFalse(owed.owedTo(0));
        assertFalse(owed.owedTo(2));
        owed.deliver(woken::add);
        assertEquals(List.of(0, 2), woken, "a second delivery finds nothing owed");
    }

    @Test
    void aWakeUpThatThrowsStaysOwedAndSoDoTheOnesAfterIt() {
        OwedLatchWakes owed = new OwedLatchWakes(3);
        owe(owed, 0);
        owe(owed, 1);
        owe(owed, 2);
        StackOverflowError again = new StackOverflowError("still at the edge");
        List<Integer> woken = new ArrayList<>();
        StackOverflowError thrown = assertThrows(StackOverflowError.class, () -> owed.deliver(index -> {
            if (index == 1) {
                throw again;
            }
            woken.add(index);
        }));
        assertSame(again, thrown);
        assertEquals(List.of(0), woken);
        assertFalse(owed.owedTo(0));
        assertTrue(owed.owedTo(1));
        assertTrue(owed.owedTo(2));
        assertTrue(owed.any, "the undelivered wake-ups are still owed");

        owed.deliver(woken::add); // a later round, with room on its stack
        assertEquals(List.of(0, 1, 2), woken);
        assertFalse(owed.any);
    }

    @Test
    void aWakeUpOwedWhileItsOwnerIsBeingWokenStaysOwed() {
        OwedLatchWakes owed = new OwedLatchWakes(2);
        owe(owed, 1);
        List<Integer> woken = new ArrayList<>();
        owed.deliver(index -> {
            woken.add(index);
            owe(owed, 1); // another waker overflows while this delivery wakes
        });
        assertEquals(List.of(1), woken);
        assertTrue(owed.owedTo(1), "an owe after the flag was cleared is not covered by the wake-up before it");
        assertTrue(owed.any);
        owed.deliver(woken::add);
        assertEquals(List.of(1, 1), woken);
        assertFalse(owed.any);
    }
}
