package dev.nunac.ir;

import dev.nunac.diag.SourcePos;
import java.util.List;

/**
 * One step of a threadblock. {@code src} and {@code dst} are null where the op has none (a send
 * has no local dst; its destination is found by {@link Transfers}). For one-sided ops
 * {@code peer} is the remote rank and the remote operand carries that rank; otherwise -1.
 * {@code channel} is the connection a signal or wait uses when it is not the threadblock's own
 * (a threadblock of a one-sided plan may hold several channels); -1 means the threadblock's.
 */
public record Step(int index, OpKind op, ChunkRef src, ChunkRef dst, int peer, List<Dep> deps,
                   boolean hasDep, SourcePos pos, int channel) {
    public Step {
        deps = List.copyOf(deps);
    }

    /** A step on its threadblock's channel. */
    public Step(int index, OpKind op, ChunkRef src, ChunkRef dst, int peer, List<Dep> deps, boolean hasDep, SourcePos pos) {
        this(index, op, src, dst, peer, deps, hasDep, pos, -1);
    }

    public Step withDeps(List<Dep> newDeps) {
        return new Step(index, op, src, dst, peer, newDeps, hasDep, pos, channel);
    }

    public Step withHasDep(boolean h) {
        return new Step(index, op, src, dst, peer, deps, h, pos, channel);
    }

    public Step withIndex(int i) {
        return new Step(i, op, src, dst, peer, deps, hasDep, pos, channel);
    }

    /** The channel this step's transfer or signal travels on. */
    public int channelIn(Threadblock tb) {
        return channel >= 0 ? channel : tb.channel();
    }

    /** The number of chunks the step moves. */
    public int count() {
        if (src != null) return src.count();
        if (dst != null) return dst.count();
        return 0;
    }
}
