package dev.nunac.passes.cost;

import java.util.Arrays;

/**
 * The simulator's events, handed out by time and then by insertion, so runs are deterministic.
 *
 * <p>A queue of a large plan holds thousands of parcels, and a parcel that moves on is due later
 * than nearly every other event: in one heap of them it would sink to the bottom every time (six
 * levels of a 4-ary heap of 7,000 entries on the Fig. 9 grid's points, the simulator's hottest
 * loop). So events are kept by the time bucket they fall in ({@code width} ns each): those of the
 * current bucket in a small heap, those of the next {@code buckets - 1} buckets unsorted in a
 * ring of bucket arrays (an add is an append), and any later ones in an overflow heap. When the
 * current bucket runs dry, the next non-empty one (of the ring or the overflow) becomes current
 * and its events are heaped. Bucket order follows time order, so the events come out exactly as
 * one heap would hand them out.
 *
 * <p>Each entry is two longs: the time's bits (times are never negative, so their bit patterns
 * order as the times do) and the sequence number with the slot below it. The payload, threadblock
 * and version of a slot sit in side arrays and never move; freed slots are reused.
 */
final class EventQueue {
    private static final int SLOT_BITS = 26;
    private static final long SLOT_MASK = (1L << SLOT_BITS) - 1;
    /** The default bucket: a fraction of a hop, so the current bucket holds a few events. */
    static final double WIDTH_NS = 2.0;
    static final int BUCKETS = 4096;

    private final double width;
    private final int mask;
    /** The current bucket's events (bucket index at most {@link #current}), and those past the ring. */
    private final Heap near = new Heap(), far = new Heap();
    /** Bucket index {@code b} (> current, within the ring) is at {@code ring[b & mask]}, as entry pairs. */
    private final long[][] ring;
    private final int[] ringCount;
    /** Which ring slots hold events. */
    private final long[] filled;
    private long current;
    private int inRing;

    private Object[] what = new Object[1024];
    private int[] tb = new int[1024], version = new int[1024];
    private int[] freeSlots = new int[1024];
    private int size, slots, freeCount;
    private long next;
    // the last polled event
    double t;
    Object w;
    int tbOf, versionOf;

    EventQueue() {
        this(WIDTH_NS, BUCKETS);
    }

    /** Buckets of {@code width} ns, {@code buckets} (a power of two, at least 64) of them in the ring. */
    EventQueue(double width, int buckets) {
        if (!(width > 0) || buckets < 64 || Integer.bitCount(buckets) != 1) throw new IllegalArgumentException("buckets " + buckets + " of " + width);
        this.width = width;
        mask = buckets - 1;
        ring = new long[buckets][];
        ringCount = new int[buckets];
        filled = new long[buckets / 64];
    }

    boolean isEmpty() {
        return size == 0;
    }

    void add(double at, int threadblock, int ver, Object payload) {
        if (!(at >= 0)) throw new IllegalArgumentException("event time " + at);
        int slot = freeCount > 0 ? freeSlots[--freeCount] : newSlot();
        what[slot] = payload;
        tb[slot] = threadblock;
        version[slot] = ver;
        size++;
        insert(at + 0.0, (next++ << SLOT_BITS) | slot); // + 0.0 turns -0.0 into 0.0
    }

    private void insert(double at, long s) {
        long k = Double.doubleToRawLongBits(at);
        long b = bucket(at);
        if (b <= current) {
            near.add(k, s);
        } else if (b - current <= mask) {
            int i = (int) (b & mask);
            long[] e = ring[i];
            int n = ringCount[i];
            if (e == null) e = ring[i] = new long[16];
            else if (2 * n == e.length) e = ring[i] = Arrays.copyOf(e, e.length * 2);
            e[2 * n] = k;
            e[2 * n + 1] = s;
            if (n == 0) filled[i >>> 6] |= 1L << i;
            ringCount[i] = n + 1;
            inRing++;
        } else {
            far.add(k, s);
        }
    }

    private long bucket(double at) {
        return (long) (at / width);
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
        if (near.size == 0) refill();
        long[] h = near.h;
        t = Double.longBitsToDouble(h[0]);
        int slot = (int) (h[1] & SLOT_MASK);
        w = what[slot];
        tbOf = tb[slot];
        versionOf = version[slot];
    }

    /** Removes the earliest event. */
    void pop() {
        if (near.size == 0) refill();
        int slot = (int) (near.h[1] & SLOT_MASK);
        what[slot] = null;
        freeSlots[freeCount++] = slot;
        size--;
        near.pop();
    }

    /**
     * Removes the earliest event and adds another, as {@link #pop} then {@link #add} would (the
     * new event is numbered as add numbers it, so the order is the same), with the slot reused: a
     * new event of the current bucket takes the old one's place in one sift-down.
     */
    void replaceTop(double at, int threadblock, int ver, Object payload) {
        if (!(at >= 0)) throw new IllegalArgumentException("event time " + at);
        if (near.size == 0) refill();
        int slot = (int) (near.h[1] & SLOT_MASK);
        what[slot] = payload;
        tb[slot] = threadblock;
        version[slot] = ver;
        double a = at + 0.0;
        long s = (next++ << SLOT_BITS) | slot;
        if (bucket(a) <= current) {
            near.replaceTop(Double.doubleToRawLongBits(a), s);
        } else {
            near.pop();
            insert(a, s);
        }
    }

    /** Makes the next bucket holding events current: its ring events, and the overflow's of it, heaped. */
    private void refill() {
        if (inRing == 0 && far.size == 0) throw new IllegalStateException("no event is queued");
        // (a time past 2^63 buckets, or infinite, is in the last bucket: the overflow heap orders it)
        long ringNext = inRing > 0 ? nextFilled() : -1;
        long farNext = far.size > 0 ? bucket(Double.longBitsToDouble(far.h[0])) : -1;
        current = ringNext < 0 ? farNext : farNext < 0 ? ringNext : Math.min(ringNext, farNext);
        if (ringNext == current) {
            int i = (int) (current & mask);
            long[] e = ring[i];
            int n = ringCount[i];
            for (int j = 0; j < n; j++) near.add(e[2 * j], e[2 * j + 1]);
            ringCount[i] = 0;
            filled[i >>> 6] &= ~(1L << i);
            inRing -= n;
        }
        while (far.size > 0 && bucket(Double.longBitsToDouble(far.h[0])) <= current) {
            near.add(far.h[0], far.h[1]);
            far.pop();
        }
    }

    /** The index of the first bucket after the current one that holds ring events (there is one). */
    private long nextFilled() {
        int start = (int) ((current + 1) & mask);
        int words = filled.length;
        int wi = start >>> 6;
        long word = filled[wi] & (-1L << (start & 63));
        for (int seen = 0; seen <= words; seen++) {
            if (word != 0) {
                int i = (wi << 6) | Long.numberOfTrailingZeros(word);
                return current + 1 + ((i - start) & mask);
            }
            wi = (wi + 1) % words;
            word = filled[wi];
        }
        throw new IllegalStateException("the ring's count and its filled slots disagree");
    }

    /**
     * A 4-ary min-heap of entries on one array: entry i at [2i] and [2i + 1], so a node's four
     * children are one 64-byte cache line and a comparison reads nothing else.
     */
    private static final class Heap {
        long[] h = new long[128];
        int size;

        void add(long k, long s) {
            if (2 * size == h.length) h = Arrays.copyOf(h, h.length * 2);
            long[] a = h;
            int i = size++;
            while (i > 0) {
                int p = (i - 1) >>> 2;
                if (before(a[2 * p], a[2 * p + 1], k, s)) break;
                a[2 * i] = a[2 * p];
                a[2 * i + 1] = a[2 * p + 1];
                i = p;
            }
            a[2 * i] = k;
            a[2 * i + 1] = s;
        }

        void pop() {
            int last = --size;
            if (last > 0) siftDown(h[2 * last], h[2 * last + 1], last);
        }

        /** Replaces the earliest entry by (k, s). */
        void replaceTop(long k, long s) {
            siftDown(k, s, size);
        }

        /** Places entry (k, s) from the root down among the first {@code n} nodes, the root's old entry given up. */
        private void siftDown(long k, long s, int n) {
            long[] a = h;
            int i = 0;
            while (true) {
                int c = 4 * i + 1;
                if (c >= n) break;
                int end = Math.min(c + 4, n);
                // the earliest child, kept in registers rather than read again
                int m = c;
                long km = a[2 * c], sm = a[2 * c + 1];
                for (int j = c + 1; j < end; j++) {
                    long kj = a[2 * j], sj = a[2 * j + 1];
                    if (before(kj, sj, km, sm)) {
                        m = j;
                        km = kj;
                        sm = sj;
                    }
                }
                if (before(k, s, km, sm)) break;
                a[2 * i] = km;
                a[2 * i + 1] = sm;
                i = m;
            }
            a[2 * i] = k;
            a[2 * i + 1] = s;
        }

        /** Whether entry (k1, s1) comes before (k2, s2). */
        private static boolean before(long k1, long s1, long k2, long s2) {
            return k1 < k2 || (k1 == k2 && s1 < s2);
        }
    }
}
