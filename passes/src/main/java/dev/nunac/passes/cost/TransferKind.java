package dev.nunac.passes.cost;

import dev.nunac.ir.OpKind;

/**
 * What a step moves and where, as the cost models see it: a store into a peer (sends and puts),
 * a load from a peer (gets), a copy within the rank, or a signal (one small flit to a peer).
 * The simulator routes a signal as a remote store; the analytic model and the ideal bound also
 * leave its bytes out of the stacks.
 */
public enum TransferKind {
    REMOTE_STORE(true, true),
    REMOTE_LOAD(true, false),
    LOCAL(true, false),
    SIGNAL(false, true);

    /** Moves chunks (a signal moves none). */
    public final boolean movesData;
    /** Done for its threadblock once its last flit is issued (stores are posted); else once delivered. */
    public final boolean posted;

    TransferKind(boolean movesData, boolean posted) {
        this.movesData = movesData;
        this.posted = posted;
    }

    /** The kind of transfer operation {@code op} makes, or null if it makes none (receives, waits, nops). */
    public static TransferKind of(OpKind op) {
        return switch (op) {
            case SEND, RECV_COPY_SEND, RECV_REDUCE_SEND, RECV_REDUCE_COPY_SEND, PUT -> REMOTE_STORE;
            case GET, GET_REDUCE -> REMOTE_LOAD;
            case COPY, REDUCE, RESIDUAL_ADD, RECV_REDUCE_COPY -> LOCAL;
            case SIGNAL -> SIGNAL;
            case RECV, NOP, WAIT -> null;
        };
    }

    /** Whether operation {@code op} moves chunks (what the batch budget is shared over). */
    public static boolean movesData(OpKind op) {
        TransferKind k = of(op);
        return k != null && k.movesData;
    }

    /** The rank whose memory the transfer reads: the peer for a load, else the issuing rank. */
    public int srcRank(int rank, int peer) {
        return this == REMOTE_LOAD ? peer : rank;
    }

    /** The rank whose memory the transfer writes: the issuing rank for a load, else the peer (itself for a local copy). */
    public int dstRank(int rank, int peer) {
        return this == REMOTE_LOAD ? rank : peer;
    }
}
