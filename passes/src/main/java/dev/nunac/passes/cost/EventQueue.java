package dev.nunac.passes.cost;

import java.util.Arrays;

/**
 * A binary min-heap of events on primitive arrays, ordered by time and then by insertion, so
 * runs are deterministic. Payloads are kept in a parallel object array.
 */
final class EventQueue {
    private double[] time = new double[1024];
    private long[] seq = new long[1024];
    private Object[] what = new Object[1024];
    private int[] tb = new int[1024], version = new int[1024];
    private int size;
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
            what = Arrays.copyOf(what, n);
            tb = Arrays.copyOf(tb, n);
            version = Arrays.copyOf(version, n);
        }
        int i = size++;
        long s = next++;
        while (i > 0) {
            int p = (i - 1) >>> 1;
            if (time[p] < at || (time[p] == at && seq[p] < s)) break;
            move(p, i);
            i = p;
        }
        set(i, at, s, payload, threadblock, ver);
    }

    void poll() {
        t = time[0];
        w = what[0];
        tbOf = tb[0];
        versionOf = version[0];
        int last = --size;
        double lt = time[last];
        long ls = seq[last];
        Object lw = what[last];
        int ltb = tb[last], lv = version[last];
        what[last] = null;
        int i = 0;
        while (true) {
            int c = 2 * i + 1;
            if (c >= last) break;
            if (c + 1 < last && (time[c + 1] < time[c] || (time[c + 1] == time[c] && seq[c + 1] < seq[c]))) c++;
            if (lt < time[c] || (lt == time[c] && ls < seq[c])) break;
            move(c, i);
            i = c;
        }
        if (last > 0) set(i, lt, ls, lw, ltb, lv);
    }

    private void move(int from, int to) {
        time[to] = time[from];
        seq[to] = seq[from];
        what[to] = what[from];
        tb[to] = tb[from];
        version[to] = version[from];
    }

    private void set(int i, double at, long s, Object payload, int threadblock, int ver) {
        time[i] = at;
        seq[i] = s;
        what[i] = payload;
        tb[i] = threadblock;
        version[i] = ver;
    }
}
