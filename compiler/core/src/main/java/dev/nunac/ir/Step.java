package dev.nunac.ir;

import dev.nunac.diag.SourcePos;
import java.util.List;

/**
 * One step of a threadblock. {@code src} and {@code dst} are null where the op has none (a send
 * has no local dst; its destination is found by {@link Transfers}). For one-sided ops
 * {@code peer} is the remote rank and the remote operand carries that rank; otherwise -1.
 */
public record Step(int index, OpKind op, ChunkRef src, ChunkRef dst, int peer, List<Dep> deps,
                   boolean hasDep, SourcePos pos) {
    public Step {
        deps = List.copyOf(deps);
    }

    public Step withDeps(List<Dep> newDeps) {
        return new Step(index, op, src, dst, peer, newDeps, hasDep, pos);
    }

    public Step withHasDep(boolean h) {
        return new Step(index, op, src, dst, peer, deps, h, pos);
    }

    public Step withIndex(int i) {
        return new Step(i, op, src, dst, peer, deps, hasDep, pos);
    }

    /** The number of chunks the step moves. */
    public int count() {
        if (src != null) return src.count();
        if (dst != null) return dst.count();
        return 0;
    }
}
