package dev.nunac.ir;

import java.util.Arrays;

/**
 * A plan's threadblocks numbered 0 .. count-1 in plan order (rank by rank, by index within a
 * rank): the global index that placement arrays, the cost models' step graphs and the emitted
 * tables are indexed by. The one place that converts between a {@link TbId} and that index;
 * loops over every threadblock keep the int index and take a rank's first from here.
 */
public final class TbNumbering {
    /** Global index of each rank's first threadblock; {@code first[ranks] == count}. */
    private final int[] first;

    private TbNumbering(int[] first) {
        this.first = first;
    }

    public static TbNumbering of(Plan plan) {
        int[] sizes = new int[plan.rankPlans().size()];
        for (int r = 0; r < sizes.length; r++) sizes[r] = plan.rank(r).threadblocks().size();
        return ofSizes(sizes);
    }

    /** The numbering of ranks with {@code sizes[r]} threadblocks each. */
    public static TbNumbering ofSizes(int... sizes) {
        int[] first = new int[sizes.length + 1];
        for (int r = 0; r < sizes.length; r++) {
            if (sizes[r] < 0) throw new IllegalArgumentException("rank " + r + " has " + sizes[r] + " threadblocks");
            first[r + 1] = Math.addExact(first[r], sizes[r]);
        }
        return new TbNumbering(first);
    }

    public int ranks() {
        return first.length - 1;
    }

    /** Threadblocks of the whole plan. */
    public int count() {
        return first[first.length - 1];
    }

    /** Global index of rank {@code rank}'s first threadblock (its index 0). */
    public int first(int rank) {
        return first[rank];
    }

    /** Threadblocks of rank {@code rank}. */
    public int size(int rank) {
        return first[rank + 1] - first[rank];
    }

    public int global(TbId tb) {
        return global(tb.rank(), tb.index());
    }

    /** The global index of threadblock {@code index} of rank {@code rank}. */
    public int global(int rank, int index) {
        if (rank < 0 || rank >= ranks() || index < 0 || index >= size(rank)) {
            throw new IndexOutOfBoundsException("no threadblock r" + rank + " tb" + index);
        }
        return first[rank] + index;
    }

    /** The threadblock with global index {@code global}. */
    public TbId id(int global) {
        int r = rankOf(global);
        return new TbId(r, global - first[r]);
    }

    /** The rank of the threadblock with global index {@code global}. */
    public int rankOf(int global) {
        if (global < 0 || global >= count()) throw new IndexOutOfBoundsException("no threadblock #" + global);
        // the last rank whose first index is at most global (ranks without threadblocks share it)
        int i = Arrays.binarySearch(first, global);
        if (i < 0) return -i - 2;
        while (i + 1 < first.length - 1 && first[i + 1] == global) i++;
        return i;
    }
}
