package dev.nunac.passes.alloc;

import java.util.List;

/**
 * Threadblocks (as indices into the access list) and chunks meant to share a NAR domain; may
 * span ranks. {@code id} is the creation order, kept as a stable name in outputs.
 */
public record LogicalGroup(int id, List<Integer> members, int[] chunks) {
    public int size() {
        return members.size();
    }
}
