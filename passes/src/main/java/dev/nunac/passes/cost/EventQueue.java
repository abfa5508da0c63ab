package dev.nunac.passes.cost;

import java.util.Arrays;

/**
 * A 4-ary min-heap of events on primitive arrays, ordered by time and then by insertion, so
 * runs are deterministic. Each heap entry is two longs side by side: the time's bits (times are
 * never negative, so their bit patterns order as the times do) and the sequence number with the
 * slot below it. A node's four children are then one 64-byte cache line, and a comparison reads
 * nothing else: the queue of a large plan holds tens of thousands of parcels and its sift-down
 * is the simulator's hottest loop. The payload, threadblock and version of a slot sit in side
 * arrays and never move; freed slots are reused.
 */
final class EventQueue {
    private static final int SLOT_BITS = 26;
    private static final long SLOT_MASK = (1L << SLOT_BITS) - 1;
    /** Entry i at [2i] (time bits) and [2i + 1] (sequence << SLOT_BITS | slot). */
    private long[] heap = new long[2048];
    private Object[] what = new Object[1024];
    private int[] tb = new int[1024], version = new int[1024];
    private int[] freeSlots = new int[1024];
    private int size, slots, freeCount;
    private long next;
    // the last polled event
    double t;
    Object w;
    int tbOf, versionOf;

    boolean isEmpty() {
        return size == 0;
    }

    void add(double at, int threadblock, int ver, Object payload) {
        if (!(at >= 0)) throw new IllegalArgumentException("event time " + at);
        if (2 * size == heap.length) heap = Arrays.copyOf(heap, heap.length * 2);
        int slot = freeCount > 0 ? freeSlots[--freeCount] : newSlot();
        what[slot] = payload;
        tb[slot] = threadblock;
        version[slot] = ver;
        long k = Double.doubleToRawLongBits(at + 0.0); // + 0.0 turns -0.0 into 0.0
        long s = (next++ << SLOT_BITS) | slot;
        long[] h = heap;
        int i = size++;
        while (i > 0) {
            int p = (i - 1) >>> 2;
            if (before(h[2 * p], h[2 * p + 1], k, s)) break;
            move(h, p, i);
            i = p;
        }
        h[2 * i] = k;
        h[2 * i + 1] = s;
    }

    /** Whether entry (k1, s1) comes before (k2, s2). */
    private static boolean before(long k1, long s1, long k2, long s2) {
        return k1 < k2 || (k1 == k2 && s1 < s2);
    }

    /** Copies entry {@code from} to node {@code to}. */
    private static void move(long[] h, int from, int to) {
        h[2 * to] = h[2 * from];
        h[2 * to + 1] = h[2 * from + 1];
    }

    private int newSlot() {
        if (slots == what.length) {
            if (slots > SLOT_MASK) throw new IllegalStateException("more than " + SLOT_MASK + " events pending");
            int n = slots * 2;
            what = Arrays.copyOf(what, n);
            tb = Arrays.copyOf(tb, n);
            version = Arrays.copyOf(version, n);
            freeSlots = Arrays.copyOf(freeSlots, n);
        }
        return slots++;
    }

    /** Reads the earliest event into {@link #t}, {@link #w}, {@link #tbOf} and {@link #versionOf} and removes it. */
    void poll() {
        peek();
        pop();
    }

    /** Reads the earliest event into {@link #t}, {@link #w}, {@link #tbOf} and {@link #versionOf}, leaving it queued. */
    void peek() {
        long[] h = heap;
        t = Double.longBitsToDouble(h[0]);
        int slot = (int) (h[1] & SLOT_MASK);
        w = what[slot];
        tbOf = tb[slot];
        versionOf = version[slot];
    }

    /** Removes the earliest event. */
    void pop() {
        long[] h = heap;
        int slot = (int) (h[1] & SLOT_MASK);
        what[slot] = null;
        freeSlots[freeCount++] = slot;
        int last = --size;
        if (last == 0) return;
        siftDown(h, h[2 * last], h[2 * last + 1], last);
    }

    /**
     * Removes the earliest event and adds another, as {@link #pop} then {@link #add} would (the
     * new event is numbered as add numbers it, so the order is the same), in one sift-down from
     * the root instead of a sift-down of the last leaf and a sift-up: a parcel that moves on is
     * due soon, so it sinks a few levels where the leaf sinks to the bottom.
     */
    void replaceTop(double at, int threadblock, int ver, Object payload) {
        if (!(at >= 0)) throw new IllegalArgumentException("event time " + at);
        long[] h = heap;
        int slot = (int) (h[1] & SLOT_MASK);
        what[slot] = payload;
        tb[slot] = threadblock;
        version[slot] = ver;
        siftDown(h, Double.doubleToRawLongBits(at + 0.0), (next++ << SLOT_BITS) | slot, size);
    }

    /** Places entry (k, s) from the root down among the first {@code n} nodes, the root's old entry given up. */
    private static void siftDown(long[] h, long k, long s, int n) {
        int i = 0;
        while (true) {
            int c = 4 * i + 1;
            if (c >= n) break;
            int end = Math.min(c + 4, n);
            // the earliest child, kept in registers rather than read again
            int m = c;
            long km = h[2 * c], sm = h[2 * c + 1];
            for (int j = c + 1; j < end; j++) {
                long kj = h[2 * j], sj = h[2 * j + 1];
                if (before(kj, sj, km, sm)) {
                    m = j;
                    km = kj;
                    sm = sj;
                }
            }
            if (before(k, s, km, sm)) break;
            h[2 * i] = km;
            h[2 * i + 1] = sm;
            i = m;
        }
        h[2 * i] = k;
        h[2 * i + 1] = s;
    }
}
