package dev.nunac.passes.cost;

import java.util.Arrays;

/**
 * A map from non-negative long keys to doubles on open addressing (linear probing), without
 * boxing: the analytic model sums millions of byte counts per (level, rank, resource) key.
 */
final class LongDoubleMap {
    private static final long EMPTY = -1;
    private long[] keys;
    private double[] values;
    private int size, mask;

    LongDoubleMap() {
        this(1024);
    }

    LongDoubleMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new long[cap];
        values = new double[cap];
        Arrays.fill(keys, EMPTY);
        mask = cap - 1;
    }

    private int slot(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        int i = (int) (h ^ (h >>> 32)) & mask;
        while (keys[i] != EMPTY && keys[i] != key) i = (i + 1) & mask;
        return i;
    }

    void add(long key, double v) {
        int i = slot(key);
        if (keys[i] == EMPTY) {
            keys[i] = key;
            values[i] = v;
            if (++size * 2 > keys.length) grow();
        } else {
            values[i] += v;
        }
    }

    double get(long key) {
        int i = slot(key);
        return keys[i] == EMPTY ? 0 : values[i];
    }

    boolean contains(long key) {
        return keys[slot(key)] != EMPTY;
    }

    /** Calls {@code f} for every entry, in no particular order. */
    void forEach(Entry f) {
        for (int i = 0; i < keys.length; i++) if (keys[i] != EMPTY) f.accept(keys[i], values[i]);
    }

    interface Entry {
        void accept(long key, double value);
    }

    private void grow() {
        long[] ok = keys;
        double[] ov = values;
        keys = new long[ok.length * 2];
        values = new double[ok.length * 2];
        Arrays.fill(keys, EMPTY);
        mask = keys.length - 1;
        size = 0;
        for (int i = 0; i < ok.length; i++) if (ok[i] != EMPTY) add(ok[i], ov[i]);
    }
}
