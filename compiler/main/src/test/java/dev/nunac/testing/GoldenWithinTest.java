package dev.nunac.testing;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Numbers within the tolerance match; other numbers, and any other text, do not. */
class GoldenWithinTest {
    @Test
    void numbersWithinTheToleranceMatch() {
        assertTrue(Golden.within("estimate_ns 3139.9455\n", "estimate_ns 3150.1\n", 0.01));
        assertTrue(Golden.within("x -2 y 0\n", "x -2 y 0\n", 0.01));
    }

    @Test
    void numbersBeyondItDoNot() {
        assertFalse(Golden.within("estimate_ns 3139.9455\n", "estimate_ns 3200\n", 0.01));
        assertFalse(Golden.within("nap+nar k=2: analytic 10\n", "nap+nar k=4: analytic 10\n", 0.01));
        assertFalse(Golden.within("a 1\n", "a 1\nb 2\n", 0.01));
    }

    @Test
    void theTextAroundThemMustBeTheSame() {
        assertFalse(Golden.within("ua: analytic 10\n", "ua+nar: analytic 10\n", 0.01));
    }
}
