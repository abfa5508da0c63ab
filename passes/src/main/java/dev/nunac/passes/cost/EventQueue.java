package dev.nunac.passes.cost;

import java.util.Arrays;

/**
 * A 4-ary min-heap of events on primitive arrays, ordered by time and then by insertion, so
 * runs are deterministic. The heap holds each event's time, sequence number and slot; the
 * payload, threadblock and version of a slot sit in side arrays and never move, and freed slots
 * are reused. Four children per node halve the depth of a binary heap, and a node's children
 * share a cache line: the queue of a large plan holds hundreds of thousands of parcels.
 */
final class EventQueue {
    private double[] time = new double[1024];
    private long[] seq = new long[1024];
    private int[] slotAt = new int[1024];
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
        if (size == time.length) {
            int n = size * 2;
            time = Arrays.copyOf(time, n);
            seq = Arrays.copyOf(seq, n);
            slotAt = Arrays.copyOf(slotAt, n);
        }
        int slot = freeCount > 0 ? freeSlots[--freeCount] : newSlot();
        what[slot] = payload;
        tb[slot] = threadblock;
        version[slot] = ver;
        long s = next++;
        int i = size++;
        while (i > 0) {
            int p = (i - 1) >>> 2;
            if (time[p] < at || (time[p] == at && seq[p] < s)) break;
            put(i, time[p], seq[p], slotAt[p]);
            i = p;
        }
        put(i, at, s, slot);
    }

    private void put(int i, double at, long s, int slot) {
        time[i] = at;
        seq[i] = s;
        slotAt[i] = slot;
    }

    private int newSlot() {
        if (slots == what.length) {
            int n = slots * 2;
            what = Arrays.copyOf(what, n);
            tb = Arrays.copyOf(tb, n);
            version = Arrays.copyOf(version, n);
            freeSlots = Arrays.copyOf(freeSlots, n);
        }
        return slots++;
    }

    void poll() {
        t = time[0];
        int slot = slotAt[0];
        w = what[slot];
        tbOf = tb[slot];
        versionOf = version[slot];
        what[slot] = null;
        freeSlots[freeCount++] = slot;
        int last = --size;
        if (last == 0) return;
        double lt = time[last];
        long ls = seq[last];
        int lslot = slotAt[last];
        int i = 0;
        while (true) {
            int c = 4 * i + 1;
            if (c >= last) break;
            int end = Math.min(c + 4, last);
            int m = c;
            for (int j = c + 1; j < end; j++) {
                if (time[j] < time[m] || (time[j] == time[m] && seq[j] < seq[m])) m = j;
            }
            if (lt < time[m] || (lt == time[m] && ls < seq[m])) break;
            put(i, time[m], seq[m], slotAt[m]);
            i = m;
        }
        put(i, lt, ls, lslot);
    }
}
