package dev.nunac.emit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Page maps written as runs (and runs of a period) decode back to the same map. */
class PageRunsProperties {
    @Property(tries = 500)
    void runsDecodeToTheSameMap(@ForAll("maps") int[] map) {
        int[] runs = PageRuns.encode(map);
        assertArrayEquals(map, PageRuns.decode(runs, map.length));
        for (int p = 0; p < map.length; p++) assertEquals(map[p], PageRuns.lookup(runs, p));
        for (int k = 3; k < runs.length; k += 3) assertTrue(runs[k + 2] != runs[k - 1], "neighbouring runs differ in value");
    }

    @Property(tries = 500)
    void periodicRunsDecodeToTheSameMap(@ForAll("maps") int[] map) {
        int period = PageRuns.period(map);
        int[] runs = PageRuns.encode(map, period);
        assertArrayEquals(map, PageRuns.decode(runs, period, map.length));
        assertTrue(runs.length <= PageRuns.encode(map).length, "a period is used only when it is shorter");
    }

    @Property(tries = 200)
    void interleavedMapsTakeOnePeriod(@ForAll("interleaved") int[] map) {
        int period = PageRuns.period(map);
        assertTrue(period < map.length, "period " + period);
        assertArrayEquals(map, PageRuns.decode(PageRuns.encode(map, period), period, map.length));
    }

    /** Maps of up to 300 pages, mostly in stretches (as placements make them), values -1..15. */
    @Provide
    Arbitrary<int[]> maps() {
        Arbitrary<int[]> random = Arbitraries.integers().between(-1, 15).array(int[].class).ofMaxSize(300);
        Arbitrary<int[]> stretches = Combinators.combine(Arbitraries.integers().between(-1, 15).array(int[].class).ofMinSize(1).ofMaxSize(20),
                Arbitraries.integers().between(1, 40)).as((values, len) -> {
                    int[] m = new int[values.length * len];
                    for (int i = 0; i < m.length; i++) m[i] = values[i / len];
                    return m;
                });
        return Arbitraries.oneOf(random, stretches, interleaved());
    }

    /** Pages over s stacks, k pages a stack at a time, repeated: 0 0 1 1 2 2 0 0 ... */
    @Provide
    Arbitrary<int[]> interleaved() {
        return Combinators.combine(Arbitraries.integers().between(2, 16), Arbitraries.integers().between(1, 4), Arbitraries.integers().between(3, 20))
                .as((s, k, reps) -> {
                    int[] m = new int[s * k * reps];
                    for (int p = 0; p < m.length; p++) m[p] = p / k % s;
                    return m;
                });
    }

    @Example
    void malformedRunsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> PageRuns.decode(new int[] {0, 2, 1, 3, 1, 0}, 4)); // gap at page 2
        assertThrows(IllegalArgumentException.class, () -> PageRuns.decode(new int[] {0, 2, 1}, 3)); // short
        assertThrows(IllegalArgumentException.class, () -> PageRuns.decode(new int[] {0, 4, 1}, 3)); // past the end
        assertThrows(IllegalArgumentException.class, () -> PageRuns.decode(new int[] {0, 1}, 1)); // not triples
        assertThrows(IllegalArgumentException.class, () -> PageRuns.lookup(new int[] {0, 2, 1}, 2));
    }

    @Example
    void singleBitMasks() {
        assertEquals(0, PageRuns.singleBit(new int[] {1, 0}));
        assertEquals(37, PageRuns.singleBit(new int[] {0, 1 << 5}));
        assertEquals(63, PageRuns.singleBit(new int[] {0, 1 << 31}));
        assertEquals(-1, PageRuns.singleBit(new int[] {3, 0}));
        assertEquals(-1, PageRuns.singleBit(new int[] {1, 1}));
        assertEquals(-1, PageRuns.singleBit(new int[] {0, 0}));
    }
}
