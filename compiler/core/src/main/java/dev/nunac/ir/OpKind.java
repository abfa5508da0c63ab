package dev.nunac.ir;

import java.util.Optional;

/**
 * Step operations. The two-sided ones are MSCCL-IR's step types; the one-sided ones are the
 * load/store operations of scale-up plans (MSCCL++ memory channels).
 */
public enum OpKind {
    SEND("s", true, false, true, false, false),
    RECV("r", false, true, false, true, false),
    RECV_COPY_SEND("rcs", true, true, false, true, false),
    RECV_REDUCE_SEND("rrs", true, true, true, false, true),
    RECV_REDUCE_COPY("rrc", false, true, true, true, true),
    RECV_REDUCE_COPY_SEND("rrcs", true, true, true, true, true),
    COPY("cpy", false, false, true, true, false),
    REDUCE("re", false, false, true, true, true),
    /** Old MSCCL "residual add": a local reduce for the executor. */
    RESIDUAL_ADD("ra", false, false, true, true, true),
    NOP("nop", false, false, false, false, false),
    /** One-sided write of a local chunk into a peer's chunk. */
    PUT("put", false, false, true, true, false),
    /** One-sided read of a peer's chunk into a local chunk. */
    GET("get", false, false, true, true, false),
    /** Reduce a peer's chunk into a local one (one-sided read and reduce). */
    GET_REDUCE("getre", false, false, true, true, true),
    SIGNAL("signal", false, false, false, false, false),
    WAIT("wait", false, false, false, false, false);

    private final String mnemonic;
    public final boolean sends;
    public final boolean receives;
    /** Reads its src operand. */
    public final boolean readsSrc;
    /** Writes its dst operand. */
    public final boolean writesDst;
    /** Combines values rather than overwriting them. */
    public final boolean reduces;

    OpKind(String mnemonic, boolean sends, boolean receives, boolean readsSrc, boolean writesDst, boolean reduces) {
        this.mnemonic = mnemonic;
        this.sends = sends;
        this.receives = receives;
        this.readsSrc = readsSrc;
        this.writesDst = writesDst;
        this.reduces = reduces;
    }

    public String mnemonic() {
        return mnemonic;
    }

    public boolean oneSided() {
        return this == PUT || this == GET || this == GET_REDUCE || this == SIGNAL || this == WAIT;
    }

    /** For the two-sided ops: MSCCL-IR's step type string. */
    public static Optional<OpKind> fromMnemonic(String s) {
        for (OpKind k : values()) if (k.mnemonic.equals(s)) return Optional.of(k);
        return Optional.empty();
    }
}
