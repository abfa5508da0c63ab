package dev.nunac.ir;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Dense integer ids for the plan's chunks after in-place aliasing: the paper's chunk tuple
 * (chunk, buffer, gpu) as one int, so the passes can use arrays instead of maps. Ids run over
 * ranks in order, then the rank's storage buffers in declaration order, then indices.
 */
public final class ChunkSpace {
    /** A storage buffer of a rank: its name and capacity in chunks. */
    public record Storage(int rank, String buffer, int chunks, int firstId) {}

    private final Plan plan;
    private final List<Storage> storages = new ArrayList<>();
    private final List<Storage> view = java.util.Collections.unmodifiableList(storages);
    private final List<Map<String, Storage>> byRank = new ArrayList<>();
    private final int size;
    /** The most chunks of any rank's input or output storage (at least 1): what fixes the chunk size. */
    private final int collectiveChunks;
    /** Each storage's first id, in order: the binary search of {@link #storageIndexOf} runs on it. */
    private final int[] firstIds;
    /**
     * Ids in buckets of {@code 1 << bucketShift}, no wider than the mean storage: per bucket, the
     * storage holding its first id, so that a lookup searches only the storages of one bucket
     * (usually one or two) instead of all of them; it is called per chunk by every pass.
     */
    private final int[] bucketFirst;
    private final int bucketShift;
    /** Per rank, every buffer name with its aliasing resolved once: id = base + index. */
    private final List<Map<String, Name>> names = new ArrayList<>();

    private record Name(String name, int base, int lo, int hi) {}

    public ChunkSpace(Plan plan) {
        this.plan = plan;
        int next = 0;
        for (RankPlan rp : plan.rankPlans()) {
            Map<String, Storage> m = new HashMap<>();
            List<String> names = new ArrayList<>();
            for (Buffer b : rp.buffers()) names.add(b.name());
            if (!names.contains(Buffer.INPUT)) names.add(0, Buffer.INPUT);
            if (!names.contains(Buffer.OUTPUT)) names.add(1, Buffer.OUTPUT);
            for (String name : names) {
                if (BufferLayout.resolve(plan, rp.rank(), name, 0).buffer().equals(name)) {
                    int cap = Math.max(BufferLayout.capacity(plan, rp.rank(), name), aliasedSize(rp.rank(), name));
                    Storage s = new Storage(rp.rank(), name, cap, next);
                    next += cap;
                    storages.add(s);
                    m.put(name, s);
                }
            }
            byRank.add(m);
        }
        size = next;
        int most = 1;
        for (Storage s : storages) if (s.buffer().equals(Buffer.INPUT) || s.buffer().equals(Buffer.OUTPUT)) most = Math.max(most, s.chunks());
        collectiveChunks = most;
        firstIds = storages.stream().mapToInt(Storage::firstId).toArray();
        int shift = 0;
        while (storages.size() > 0 && (2L << shift) * storages.size() <= size) shift++;
        bucketShift = shift;
        bucketFirst = new int[(size >> shift) + 1];
        for (int b = 0, j = 0; b < bucketFirst.length; b++) {
            long first = (long) b << shift;
            while (j + 1 < firstIds.length && firstIds[j + 1] <= first) j++;
            bucketFirst[b] = j;
        }
        for (RankPlan rp : plan.rankPlans()) {
            Map<String, Name> ns = new HashMap<>();
            List<String> all = new ArrayList<>();
            for (Buffer b : rp.buffers()) all.add(b.name());
            if (!all.contains(Buffer.INPUT)) all.add(Buffer.INPUT);
            if (!all.contains(Buffer.OUTPUT)) all.add(Buffer.OUTPUT);
            for (String name : all) {
                // aliasing is a shift of the index into the canonical buffer
                BufferLayout.Slot at0 = BufferLayout.resolve(plan, rp.rank(), name, 0);
                Storage st = byRank.get(rp.rank()).get(at0.buffer());
                if (st == null) continue;
                int off = at0.index();
                ns.putIfAbsent(name, new Name(name, st.firstId() + off, -off, st.chunks() - off));
            }
            names.add(ns);
        }
    }

    /**
     * The number of ids a plan's chunk space would have, without building it or overflowing:
     * what the front ends check against the chunk limit before any pass sizes arrays by it.
     */
    public static long size(Plan plan) {
        long total = 0;
        for (RankPlan rp : plan.rankPlans()) {
            List<String> names = new ArrayList<>();
            for (Buffer b : rp.buffers()) names.add(b.name());
            if (!names.contains(Buffer.INPUT)) names.add(Buffer.INPUT);
            if (!names.contains(Buffer.OUTPUT)) names.add(Buffer.OUTPUT);
            for (String name : names) {
                if (!BufferLayout.resolve(plan, rp.rank(), name, 0).buffer().equals(name)) continue;
                long cap = BufferLayout.extent(plan, rp.rank(), name);
                for (String other : List.of(Buffer.INPUT, Buffer.OUTPUT)) {
                    long capOther = other.equals(name) ? 0 : BufferLayout.extent(plan, rp.rank(), other);
                    if (capOther > 0 && BufferLayout.resolve(plan, rp.rank(), other, 0).buffer().equals(name)) {
                        cap = Math.max(cap, BufferLayout.shift(plan, rp.rank(), other) + capOther);
                    }
                }
                total += cap;
            }
        }
        return total;
    }

    /** A buffer that others alias into (in-place all-gather's output) must hold their slots too. */
    private int aliasedSize(int rank, String name) {
        int max = 0;
        for (String other : List.of(Buffer.INPUT, Buffer.OUTPUT)) {
            if (other.equals(name)) continue;
            int cap = BufferLayout.capacity(plan, rank, other);
            if (cap > 0) {
                BufferLayout.Slot last = BufferLayout.resolve(plan, rank, other, cap - 1);
                if (last.buffer().equals(name)) max = Math.max(max, last.index() + 1);
            }
        }
        return max;
    }

    public int size() {
        return size;
    }

    /** The storages in id order (unmodifiable). */
    /** The most chunks of any rank's input or output storage, at least 1 (the collective's size spreads over them). */
    public int collectiveChunks() {
        return collectiveChunks;
    }

    public List<Storage> storages() {
        return view;
    }

    /** The id of chunk {@code index} of {@code buffer} on {@code rank}, aliases resolved. */
    public int id(int rank, String buffer, int index) {
        Name n = names.get(rank).get(buffer);
        if (n != null && index >= n.lo && index < n.hi) return n.base + index;
        throw new IllegalArgumentException("no chunk r" + rank + ":" + buffer + "[" + index + "]");
    }

    public Storage storageOf(int id) {
        return storages.get(storageIndexOf(id));
    }

    /** Position in {@link #storages()} of the storage holding chunk {@code id}. */
    public int storageIndexOf(int id) {
        int lo = 0, hi = firstIds.length - 1;
        if (id >= 0 && id < size) {
            int b = id >> bucketShift;
            lo = bucketFirst[b];
            if (b + 1 < bucketFirst.length) hi = bucketFirst[b + 1];
        }
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (firstIds[mid] <= id) lo = mid;
            else hi = mid - 1;
        }
        return lo;
    }

    public int rankOf(int id) {
        return storageOf(id).rank();
    }

    public String describe(int id) {
        Storage s = storageOf(id);
        return "r" + s.rank() + ":" + s.buffer() + "[" + (id - s.firstId()) + "]";
    }
}
