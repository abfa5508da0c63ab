package dev.nunac.passes.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DenseSumsTest {
    @Test
    void sumsByIndexRemembersFirstAddsInOrderAndEmptiesInConstantTime() {
        DenseSums d = new DenseSums(4);
        d.add(3, 1.5);
        d.add(100, 2); // past the end: grows
        d.add(3, 0.25);
        d.add(7, 0);
        assertEquals(1.75, d.get(3));
        assertEquals(2, d.get(100));
        assertEquals(0, d.get(5));
        assertEquals(0, d.get(1 << 20)); // past the end, never added
        assertTrue(d.contains(7)); // added with nothing is still added
        assertFalse(d.contains(5));
        assertEquals(3, d.size());
        assertEquals(3, d.index(0));
        assertEquals(100, d.index(1));
        assertEquals(7, d.index(2));
        d.clear();
        assertEquals(0, d.size());
        assertFalse(d.contains(3));
        assertEquals(0, d.get(100));
        d.add(100, -1);
        assertEquals(-1, d.get(100));
        assertEquals(100, d.index(0));
    }
}
