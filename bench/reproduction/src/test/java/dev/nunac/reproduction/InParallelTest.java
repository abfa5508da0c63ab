package dev.nunac.reproduction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The reproduction's workers take every item exactly once, however few or many. */
class InParallelTest {
    @Test
    void everyItemOnce() {
        for (int n : new int[] {0, 1, 2, 3, 37}) {
            AtomicIntegerArray seen = new AtomicIntegerArray(n);
            PaperReproduction.inParallel(IntStream.range(0, n).boxed().toList(), seen::incrementAndGet);
            for (int i = 0; i < n; i++) assertEquals(1, seen.get(i), "item " + i + " of " + n);
        }
        PaperReproduction.inParallel(List.<Integer>of(), i -> { throw new AssertionError("no items"); });
    }
}
