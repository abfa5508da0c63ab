package dev.nunac.passes.cost;

import java.util.Arrays;

/**
 * Sums of doubles by small dense index, for the analytic model's per-level loads: an array
 * instead of a hash map, where the index is (rank, resource) or a route's id. Emptied in constant
 * time (a generation stamp marks the live entries), it remembers the indices in the order they
 * were first added, and grows when an index is past its end.
 */
final class DenseSums {
    private double[] values;
    private int[] stamp;
    private int[] order;
    private int size, gen = 1;

    DenseSums(int capacity) {
        values = new double[Math.max(16, capacity)];
        stamp = new int[values.length];
        order = new int[16];
    }

    void add(int i, double v) {
        if (i >= values.length) grow(i);
        if (stamp[i] != gen) {
            stamp[i] = gen;
            values[i] = v;
            if (size == order.length) order = Arrays.copyOf(order, size * 2);
            order[size++] = i;
        } else {
            values[i] += v;
        }
    }

    double get(int i) {
        return i < values.length && stamp[i] == gen ? values[i] : 0;
    }

    boolean contains(int i) {
        return i < values.length && stamp[i] == gen;
    }

    /** The number of indices added since the last {@link #clear}. */
    int size() {
        return size;
    }

    /** The {@code j}-th index added since the last {@link #clear}. */
    int index(int j) {
        return order[j];
    }

    /** Removes every entry. */
    void clear() {
        size = 0;
        if (++gen == Integer.MAX_VALUE) {
            Arrays.fill(stamp, 0);
            gen = 1;
        }
    }

    private void grow(int i) {
        int cap = values.length;
        while (cap <= i) cap *= 2;
        values = Arrays.copyOf(values, cap);
        stamp = Arrays.copyOf(stamp, cap);
    }
}
