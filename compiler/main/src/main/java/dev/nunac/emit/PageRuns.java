package dev.nunac.emit;

import java.util.Arrays;

/**
 * A page map as runs: {@code (start page, count, value)} triples, flat, in page order, one per
 * maximal stretch of pages with the same value. The compact outputs (placement.json version 3,
 * the compact placement.h) write page → stack and page → domain maps this way; a buffer whose
 * pages all sit on one stack is one triple however large it is. A map that repeats with a
 * period (pages interleaved over the stacks: 0, 1, ..., 15, 0, 1, ...) is written as the runs of
 * its first period and the period: page p has the value of page p mod period.
 */
public final class PageRuns {
    private PageRuns() {}

    /** The runs of {@code map}: 3 ints per run. */
    public static int[] encode(int[] map) {
        int runs = 0;
        for (int p = 0; p < map.length; p++) if (p == 0 || map[p] != map[p - 1]) runs++;
        int[] out = new int[3 * runs];
        int k = 0;
        for (int p = 0; p < map.length; ) {
            int q = p;
            while (q < map.length && map[q] == map[p]) q++;
            out[k++] = p;
            out[k++] = q - p;
            out[k++] = map[p];
            p = q;
        }
        return out;
    }

    /**
     * The map of {@code pages} pages the runs describe; refuses runs that are not in page order,
     * overlap, leave a gap or go past the last page, so a decoded map is always whole.
     */
    public static int[] decode(int[] runs, int pages) {
        if (runs.length % 3 != 0) throw new IllegalArgumentException("runs are triples; got " + runs.length + " numbers");
        int[] map = new int[pages];
        int next = 0;
        for (int k = 0; k < runs.length; k += 3) {
            int start = runs[k], count = runs[k + 1];
            if (start != next || count < 1 || count > pages - start) {
                throw new IllegalArgumentException("run " + k / 3 + " (" + start + ", " + count + ") does not continue at page " + next);
            }
            Arrays.fill(map, start, start + count, runs[k + 2]);
            next = start + count;
        }
        if (next != pages) throw new IllegalArgumentException("runs cover " + next + " of " + pages + " pages");
        return map;
    }

    /** Longest period looked for: interleaving over more stacks than this is written in plain runs. */
    static final int MAX_PERIOD = 256;

    /**
     * The period the map is written with: the smallest P ≤ {@link #MAX_PERIOD} with
     * {@code map[p] == map[p - P]} for every page, when its first P pages take fewer runs than the
     * whole map; else the map's length (no repetition; 1 for an empty map).
     */
    public static int period(int[] map) {
        int whole = encode(map).length;
        for (int per = 1; per <= Math.min(MAX_PERIOD, map.length - 1); per++) {
            boolean repeats = true;
            for (int p = per; p < map.length && repeats; p++) repeats = map[p] == map[p - per];
            if (repeats) return encode(Arrays.copyOf(map, per)).length < whole ? per : map.length;
        }
        return Math.max(1, map.length);
    }

    /** The runs of the first {@code period} pages (all of them when period is the length). */
    public static int[] encode(int[] map, int period) {
        return encode(period >= map.length ? map : Arrays.copyOf(map, period));
    }

    /** The map of {@code pages} pages from the runs of its first {@code period} pages. */
    public static int[] decode(int[] runs, int period, int pages) {
        if (period < 1 || period > pages && pages > 0) throw new IllegalArgumentException("period " + period + " for " + pages + " pages");
        int[] first = decode(runs, Math.min(period, pages));
        int[] map = new int[pages];
        for (int p = 0; p < pages; p++) map[p] = first[p % period];
        return map;
    }

    /** The value of page {@code page}: a binary search over the runs, as the header's nunac_page_stack() does. */
    public static int lookup(int[] runs, int page) {
        int lo = 0, hi = runs.length / 3 - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (runs[3 * mid] <= page) lo = mid;
            else hi = mid - 1;
        }
        if (runs.length == 0 || page < runs[3 * lo] || page >= runs[3 * lo] + runs[3 * lo + 1]) {
            throw new IllegalArgumentException("page " + page + " is in no run");
        }
        return runs[3 * lo + 2];
    }

    /** The bit a mask of one set bit selects, or -1 when none or several are set: the compact mask. */
    public static int singleBit(int[] words) {
        int bit = -1;
        for (int w = 0; w < words.length; w++) {
            if (words[w] == 0) continue;
            if (bit >= 0 || Integer.bitCount(words[w]) != 1) return -1;
            bit = 32 * w + Integer.numberOfTrailingZeros(words[w]);
        }
        return bit;
    }
}
