package dev.nunac.ir;

import java.util.Comparator;

/**
 * A threadblock's identity: its rank and its index among the rank's threadblocks, which is its
 * id (the IR verifier keeps ids dense, in list order). Ordered as the plan lists threadblocks:
 * by rank, then index. {@link TbNumbering} converts it to and from the global index.
 */
public record TbId(int rank, int index) implements Comparable<TbId> {
    public TbId {
        if (rank < 0 || index < 0) throw new IllegalArgumentException("threadblock r" + rank + " tb" + index);
    }

    private static final Comparator<TbId> PLAN_ORDER = Comparator.comparingInt(TbId::rank).thenComparingInt(TbId::index);

    @Override
    public int compareTo(TbId o) {
        return PLAN_ORDER.compare(this, o);
    }

    @Override
    public String toString() {
        return "r" + rank + " tb" + index;
    }
}
