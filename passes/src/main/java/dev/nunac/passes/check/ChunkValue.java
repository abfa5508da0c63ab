package dev.nunac.passes.check;

import java.util.Arrays;

/**
 * The symbolic content of one chunk slot: the multiset of input chunks reduced into it, as
 * sorted ids (rank * inputChunks + index). A single id is a copied input chunk. UNDEFINED marks a
 * value derived from a slot that held nothing.
 */
final class ChunkValue {
    static final ChunkValue UNDEFINED = new ChunkValue(new int[0]);

    final int[] ids;

    private ChunkValue(int[] ids) {
        this.ids = ids;
    }

    static ChunkValue input(int id) {
        return new ChunkValue(new int[] {id});
    }

    static ChunkValue of(int[] sortedIds) {
        return new ChunkValue(sortedIds);
    }

    /** a ⊕ b; null (empty slot) or UNDEFINED on either side gives UNDEFINED. */
    static ChunkValue reduce(ChunkValue a, ChunkValue b) {
        if (a == null || b == null || a == UNDEFINED || b == UNDEFINED) return UNDEFINED;
        int[] out = new int[a.ids.length + b.ids.length];
        int i = 0, j = 0, k = 0;
        while (i < a.ids.length && j < b.ids.length) out[k++] = a.ids[i] <= b.ids[j] ? a.ids[i++] : b.ids[j++];
        while (i < a.ids.length) out[k++] = a.ids[i++];
        while (j < b.ids.length) out[k++] = b.ids[j++];
        return new ChunkValue(out);
    }

    boolean sameAs(int[] expected) {
        return Arrays.equals(ids, expected);
    }
}
