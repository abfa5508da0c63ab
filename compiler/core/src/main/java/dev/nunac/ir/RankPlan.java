package dev.nunac.ir;

import java.util.AbstractList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.RandomAccess;

/** The part of a plan that runs on one rank (GPU): its buffers and threadblocks. */
public record RankPlan(int rank, List<Buffer> buffers, List<Threadblock> threadblocks) {
    public RankPlan {
        buffers = buffers instanceof Buffers already ? already : new Buffers(buffers);
        threadblocks = threadblocks instanceof Threadblocks already ? already : new Threadblocks(threadblocks);
    }

    /** The buffer of that name (the first, should a plan declare two), found in constant time. */
    public Optional<Buffer> buffer(String name) {
        return Optional.ofNullable(((Buffers) buffers).byName.get(name));
    }

    /**
     * An unmodifiable copy of the buffer list with an index by name: the passes look buffers up
     * per buffer and per step, and a scan per look-up made a plan of 100,000 buffers take minutes.
     */
    private static final class Buffers extends Items<Buffer> {
        private final Map<String, Buffer> byName;

        Buffers(List<Buffer> buffers) {
            super(buffers.toArray(new Buffer[0]));
            byName = new HashMap<>(items.length * 2);
            for (Buffer b : items) byName.putIfAbsent(Objects.requireNonNull(b).name(), b);
        }
    }

    /**
     * An unmodifiable copy of the threadblock list that knows its step count: the plan's step count
     * is asked for per output file and per pass, and summing every threadblock's steps each time
     * made a 1,024-rank per-rank output quadratic.
     */
    private static final class Threadblocks extends Items<Threadblock> {
        private final int steps;

        Threadblocks(List<Threadblock> tbs) {
            super(tbs.toArray(new Threadblock[0]));
            int n = 0;
            for (Threadblock t : items) n += Objects.requireNonNull(t).steps().size();
            steps = n;
        }
    }

    /** An unmodifiable list over an array it was given to own: what both lists above index. */
    private abstract static class Items<T> extends AbstractList<T> implements RandomAccess {
        final T[] items;

        Items(T[] items) {
            this.items = items;
        }

        @Override
        public T get(int i) {
            return items[i];
        }

        @Override
        public int size() {
            return items.length;
        }
    }

    /** The chunks of the buffer of that name, 0 if there is none (asked per chunk reference: no Optional). */
    public int bufferChunks(String name) {
        Buffer b = ((Buffers) buffers).byName.get(name);
        return b == null ? 0 : b.chunks();
    }

    /** Whether the rank declares a buffer of that name. */
    public boolean hasBuffer(String name) {
        return ((Buffers) buffers).byName.containsKey(name);
    }

    public Threadblock tb(int id) {
        return threadblocks.get(id);
    }

    public int stepCount() {
        return ((Threadblocks) threadblocks).steps;
    }
}
