package dev.nunac.ir;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Step operations. The two-sided ones are MSCCL-IR's step types; the one-sided ones are the
 * load/store operations of scale-up plans (MSCCL++ memory channels).
 */
public enum OpKind {
    SEND("s", Effect.SENDS, Effect.READS_SRC),
    RECV("r", Effect.RECEIVES, Effect.WRITES_DST),
    RECV_COPY_SEND("rcs", Effect.SENDS, Effect.RECEIVES, Effect.WRITES_DST),
    RECV_REDUCE_SEND("rrs", Effect.SENDS, Effect.RECEIVES, Effect.READS_SRC, Effect.REDUCES),
    RECV_REDUCE_COPY("rrc", Effect.RECEIVES, Effect.READS_SRC, Effect.WRITES_DST, Effect.REDUCES),
    RECV_REDUCE_COPY_SEND("rrcs", Effect.SENDS, Effect.RECEIVES, Effect.READS_SRC, Effect.WRITES_DST, Effect.REDUCES),
    COPY("cpy", Effect.READS_SRC, Effect.WRITES_DST),
    REDUCE("re", Effect.READS_SRC, Effect.WRITES_DST, Effect.REDUCES),
    /** Old MSCCL "residual add": a local reduce for the executor. */
    RESIDUAL_ADD("ra", Effect.READS_SRC, Effect.WRITES_DST, Effect.REDUCES),
    NOP("nop"),
    /** One-sided write of a local chunk into a peer's chunk. */
    PUT("put", Effect.READS_SRC, Effect.WRITES_DST),
    /** One-sided read of a peer's chunk into a local chunk. */
    GET("get", Effect.READS_SRC, Effect.WRITES_DST),
    /** Reduce a peer's chunk into a local one (one-sided read and reduce). */
    GET_REDUCE("getre", Effect.READS_SRC, Effect.WRITES_DST, Effect.REDUCES),
    SIGNAL("signal"),
    WAIT("wait");

    /**
     * What an operation does, the one definition of its semantics for the passes (the runtime's
     * opcode table, runtime-shim/src/ops.def, repeats it row for row, and a test compares the two).
     */
    public enum Effect {
        /** Sends to its threadblock's send peer. */
        SENDS,
        /** Receives from its threadblock's receive peer. */
        RECEIVES,
        /** Reads its src operand. */
        READS_SRC,
        /** Writes its dst operand. */
        WRITES_DST,
        /** Combines values rather than overwriting them. */
        REDUCES
    }

    private final String mnemonic;
    private final Set<Effect> effects;
    // the effects as fields, for the passes' hot loops
    public final boolean sends;
    public final boolean receives;
    /** Reads its src operand. */
    public final boolean readsSrc;
    /** Writes its dst operand. */
    public final boolean writesDst;
    /** Combines values rather than overwriting them. */
    public final boolean reduces;

    OpKind(String mnemonic, Effect... effects) {
        this.mnemonic = mnemonic;
        EnumSet<Effect> set = EnumSet.noneOf(Effect.class);
        set.addAll(Arrays.asList(effects));
        this.effects = Collections.unmodifiableSet(set);
        this.sends = set.contains(Effect.SENDS);
        this.receives = set.contains(Effect.RECEIVES);
        this.readsSrc = set.contains(Effect.READS_SRC);
        this.writesDst = set.contains(Effect.WRITES_DST);
        this.reduces = set.contains(Effect.REDUCES);
    }

    /** What the operation does. */
    public Set<Effect> effects() {
        return effects;
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
