package dev.nunac.passes.cost;

import dev.nunac.ir.ChunkRef;
import dev.nunac.ir.Step;

/**
 * The transfer one step makes, as every cost model sees it: its kind, the peer rank (the rank
 * itself for a local copy), the chunks read and written (null for a signal) and how many.
 */
record StepTransfer(TransferKind kind, int peer, ChunkRef src, ChunkRef dst, int count) {
    /**
     * Step {@code s}'s transfer, or null when it makes none: its operation moves nothing, or a
     * send has no receiver (or the receiver no chunk), or a local copy no destination. A send
     * writes its receiver's destination (its source for a plain receive) and reads its own
     * destination when it first received there, else its source.
     */
    static StepTransfer of(StepGraph g, int s) {
        Step st = g.steps[s];
        TransferKind kind = TransferKind.of(st.op());
        if (kind == null) return null;
        return switch (kind) {
            case REMOTE_STORE -> {
                if (!st.op().sends) yield new StepTransfer(kind, st.peer(), st.src(), st.dst(), st.count());
                int rcv = g.receiverOf[s];
                Step rs = rcv >= 0 ? g.steps[rcv] : null;
                ChunkRef d = rs == null ? null : rs.dst() != null ? rs.dst() : rs.src();
                if (d == null) yield null;
                ChunkRef src = st.dst() != null && st.op().receives ? st.dst() : st.src();
                yield new StepTransfer(kind, g.rankOfStep(rcv), src, d, st.count());
            }
            case REMOTE_LOAD -> new StepTransfer(kind, st.peer(), st.src(), st.dst(), st.count());
            case LOCAL -> st.dst() == null ? null : new StepTransfer(kind, g.rankOfStep(s), st.src(), st.dst(), st.count());
            case SIGNAL -> new StepTransfer(kind, st.peer(), null, null, 0);
        };
    }
}
