package io.spindle.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class StatsTest {
    @Test
    void oddCountTakesTheMiddleValue() {
        Stats s = Stats.of(new double[] {5, 1, 3});
        assertEquals(3, s.median());
        assertEquals(1, s.min());
        assertEquals(5, s.max());
        assertEquals(3, s.runs());
    }

    @Test
    void evenCountAveragesTheTwoMiddleValues() {
        assertEquals(2.5, Stats.of(new double[] {4, 1, 2, 3}).median());
    }

    @Test
    void doesNotReorderTheCallersArray() {
        double[] v = {3, 1, 2};
        Stats.of(v);
        assertEquals(3, v[0]);
    }

    @Test
    void percentileIsNearestRank() {
        long[] samples = new long[100];
        for (int i = 0; i < 100; i++) samples[i] = 100 - i; // 100 .. 1, unsorted
        assertEquals(50, Stats.percentile(samples, 50));
        assertEquals(99, Stats.percentile(samples, 99));
        assertEquals(100, Stats.percentile(samples, 100));
        assertEquals(1, Stats.percentile(samples, 0));
        assertEquals(7, Stats.percentile(new long[] {7}, 99));
    }

    @Test
    void rejectsEmptyInput() {
        assertThrows(IllegalArgumentException.class, () -> Stats.of(new double[0]));
        assertThrows(IllegalArgumentException.class, () -> Stats.percentile(new long[0], 50));
    }
}
