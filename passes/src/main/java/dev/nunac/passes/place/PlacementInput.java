package dev.nunac.passes.place;

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
        int max = 1;
        for (ChunkSpace.Storage s : acc.space().storages()) {
            if (s.buffer().equals("input") || s.buffer().equals("output")) max = Math.max(max, s.chunks());
        }
        return Math.max(1, sizeBytes / max);
    }

    public PlacementInput withSize(long bytes) {
        return new PlacementInput(plan, accesses, topology, bytes, repack);
    }

    public PlacementInput withRepack(boolean r) {
        return new PlacementInput(plan, accesses, topology, sizeBytes, r);
    }
}
