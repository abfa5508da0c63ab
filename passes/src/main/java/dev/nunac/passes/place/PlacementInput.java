package dev.nunac.passes.place;

import dev.nunac.ir.Buffer;
import dev.nunac.ir.BufferKind;
import dev.nunac.ir.ChunkSpace;
import dev.nunac.ir.Plan;
import dev.nunac.passes.access.Accesses;
import dev.nunac.topology.Topology;

/**
 * What placement works on, whatever the policy: the checked plan, its accesses, the topology,
 * the collective's size in bytes (the largest per-rank buffer), which fixes the chunk size, and
 * whether the collective's own input and output may be repacked ({@link PlacementOptions#repack}).
 */
public record PlacementInput(Plan plan, Accesses accesses, Topology topology, long sizeBytes, boolean repack) {
    public PlacementInput(Plan plan, Accesses accesses, Topology topology, long sizeBytes) {
        this(plan, accesses, topology, sizeBytes, false);
    }

    /** The bytes of one chunk: the collective size over the chunks of the largest input or output buffer of any rank. */
    public long chunkBytes() {
        return chunkBytes(accesses, sizeBytes);
    }

    public static long chunkBytes(Accesses acc, long sizeBytes) {
        return Math.max(1, sizeBytes / acc.space().collectiveChunks());
    }

    /**
     * The pages the plan's buffers span at this size: the collective's input and output laid
     * out naturally, scratch chunks each on pages of their own, as the placements lay them out
     * (packing sub-page chunks maps no more than one page per chunk). What a placement, and every
     * candidate of the search, allocates per rank and buffer.
     */
    public long pages() {
        long cb = chunkBytes();
        long page = Math.max(1, topology.budgets().pageSize());
        long perChunk = (cb + page - 1) / page;
        long total = 0;
        for (ChunkSpace.Storage s : accesses.space().storages()) {
            long n = Buffer.kindOf(s.buffer()) == BufferKind.SCRATCH ? ceilMulDiv(s.chunks(), perChunk, 1)
                    : ceilMulDiv(s.chunks(), cb, page);
            total = n > Long.MAX_VALUE - total ? Long.MAX_VALUE : total + n;
        }
        return total;
    }

    /** a * b / d rounded up, for a, b >= 0 and d > 0; Long.MAX_VALUE when the product overflows. */
    private static long ceilMulDiv(long a, long b, long d) {
        if (a == 0 || b == 0) return 0;
        if (a > Long.MAX_VALUE / b) return Long.MAX_VALUE;
        return (a * b - 1) / d + 1;
    }

    public PlacementInput withSize(long bytes) {
        return new PlacementInput(plan, accesses, topology, bytes, repack);
    }

    public PlacementInput withRepack(boolean r) {
        return new PlacementInput(plan, accesses, topology, sizeBytes, r);
    }
}
