package dev.nunac.passes.cost;

import java.util.Arrays;

/**
 * A map from non-negative long keys to doubles on open addressing (linear probing), without
 * boxing: the analytic model sums millions of byte counts per (level, rank, resource) key. It
 * remembers the slots it filled, so that {@link #clear} costs the entries, not the capacity.
 */
final class LongDoubleMap {
    private static final long EMPTY = -1;
    private long[] keys;
    private double[] values;
    /** The filled slots, in the order they were filled. */
    private int[] filled;
    private int size, mask;

    LongDoubleMap() {
        this(1024);
    }

    LongDoubleMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new long[cap];
        values = new double[cap];
        filled = new int[cap / 2 + 1];
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
            filled[size] = i;
            if (++size * 2 > keys.length) grow();
        } else {
            values[i] += v;
        }
    }

    double get(long key) {
        int i = slot(key);
        return keys[i] == EMPTY ? 0 : values[i];
    }

    /** The value of {@code key}, or {@code missing} when it has none (one probe). */
    double getOrDefault(long key, double missing) {
        int i = slot(key);
        return keys[i] == EMPTY ? missing : values[i];
    }

    boolean contains(long key) {
        return keys[slot(key)] != EMPTY;
    }

    /** Calls {@code f} for every entry, in the order the keys were first added. */
    void forEach(Entry f) {
        for (int j = 0; j < size; j++) f.accept(keys[filled[j]], values[filled[j]]);
    }

    /** Removes every entry. */
    void clear() {
        for (int j = 0; j < size; j++) keys[filled[j]] = EMPTY;
        size = 0;
    }

    interface Entry {
        void accept(long key, double value);
    }

    private void grow() {
        long[] ok = keys;
        double[] ov = values;
        int[] of = filled;
        int n = size;
        keys = new long[ok.length * 2];
        values = new double[ok.length * 2];
        filled = new int[keys.length / 2 + 1];
        Arrays.fill(keys, EMPTY);
        mask = keys.length - 1;
        size = 0;
        for (int j = 0; j < n; j++) add(ok[of[j]], ov[of[j]]);
    }
}
